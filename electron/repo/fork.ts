/**
 * Fork and clone: the core plans which header and entries the new file holds; storage writes it
 * as a brand-new file next to the source (temp + fsync + no-clobber link). The source file is only
 * read, never written.
 */
import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import {
  detectProfile,
  forkFileLines,
  planFork,
  sessionFileName,
  type ForkEnv,
  type ForkPlan,
  type ParsedSession,
  type Profile,
} from '../core';
import type { ForkRequestDto } from '../shared/context-dto';
import { CanopyError } from '../shared/errors';
import { CreateFileError, createNewFile } from '../storage/create';

export interface ForkOptions {
  /** Reading profile; default: detected from the file. */
  profile?: Profile;
  /** Injected for tests; default: the clock, a UUIDv7, pi's CA entry ids. */
  now?: () => Date;
  newSessionId?: () => string;
  newEntryId?: (taken: Set<string>) => string;
}

/**
 * pi-coding-agent's generateId: the first 8 hex chars of a random UUID, retried up to 100 times
 * while taken, then a whole UUID.
 */
export function caEntryId(taken: Set<string>): string {
  for (let i = 0; i < 100; i++) {
    const id = randomUUID().slice(0, 8);
    if (!taken.has(id)) return id;
  }
  return randomUUID();
}

/**
 * What a fork of `parsed` (read from `sourcePath`) is planned with: the resolved source path, the
 * new session id and time, and pi's entry ids, none of them taken by the source. The fork preview
 * and the fork build it here alike.
 */
export function forkEnv(parsed: ParsedSession, sourcePath: string, opts: Omit<ForkOptions, 'profile'> = {}): ForkEnv {
  // New ids must not collide with any id the new file could hold: every id of the source is taken.
  const taken = new Set(parsed.entries.map((e) => e.id));
  const nextId = opts.newEntryId ?? caEntryId;
  return {
    sourcePath: resolve(sourcePath),
    newSessionId: (opts.newSessionId ?? uuidv7)(),
    now: (opts.now ?? (() => new Date()))().toISOString(),
    newEntryId: () => {
      const id = nextId(taken);
      taken.add(id);
      return id;
    },
  };
}

/** pi's plan for `request` on the session read from `sourcePath` (nothing is written). */
export function planForkOf(
  parsed: ParsedSession,
  sourcePath: string,
  request: ForkRequestDto,
  opts: ForkOptions = {},
): { profile: Profile; plan: ForkPlan } {
  if (parsed.fatal) throw new CanopyError(parsed.fatal.code, parsed.fatal.message);
  const profile = opts.profile ?? detectProfile(parsed);
  const plan = planFork(parsed, { ...request, profile }, forkEnv(parsed, sourcePath, opts));
  return { profile, plan: refuseCut(parsed, plan) };
}
/** A body cut at the nesting limit (json-depth.ts) cannot be copied exactly: the fork is refused. */
function refuseCut(parsed: ParsedSession, plan: ForkPlan): ForkPlan {
  if (!plan.ok) return plan;
  const cut = new Set(parsed.issues.filter((i) => i.kind === 'too_deep').map((i) => i.line));
  if (cut.size === 0) return plan;
  const ids = new Set(plan.entries.map((e) => e.id));
  const hit = parsed.entries.find((e) => cut.has(e.line) && ids.has(e.id));
  if (!hit) return plan;
  return {
    ok: false,
    error: { kind: 'invalid_session', message: `line ${hit.line} nests values too deep to be copied exactly` },
  };
}

/** Writes a planned fork as a brand-new file next to `sourcePath`; throws CanopyError already_exists / io. */
export async function writeFork(sourcePath: string, plan: Extract<ForkPlan, { ok: true }>): Promise<string> {
  const name = sessionFileName(plan.header.timestamp, plan.header.id);
  try {
    return await createNewFile(dirname(resolve(sourcePath)), name, forkFileLines(plan));
  } catch (err) {
    if (err instanceof CreateFileError) {
      throw new CanopyError(err.code === 'exists' ? 'already_exists' : 'io', err.message);
    }
    throw err;
  }
}
