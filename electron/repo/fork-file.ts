/**
 * A fork/clone of a session file named by its path (the CLI): read through a store, planned by the
 * core, written as a brand-new file next to the source (fork.ts). The source is only read.
 */
import { resolve } from 'node:path';
import type { Profile, SessionHeader, ForkErrorKind } from '../core';
import type { ForkRequestDto } from '../shared/context-dto';
import { planForkOf, writeFork, type ForkOptions } from './fork';
import { SessionStore } from './session-store';

export type ForkOutcome =
  | {
      ok: true;
      path: string;
      profile: Profile;
      header: SessionHeader;
      entries: Record<string, unknown>[];
      leafId: string | null;
    }
  | { ok: false; profile: Profile; error: { kind: ForkErrorKind; message: string } };

/**
 * Plans and writes a fork/clone of `sourcePath` (the CLI), read through `store` (default: a store
 * of its own). pi's refusals are values; a file that cannot be read as a session throws CanopyError
 * (not_found, io, invalid_session, unsupported_format), and so does a failed write (already_exists, io).
 */
export async function forkSession(
  sourcePath: string,
  request: ForkRequestDto,
  opts: ForkOptions & { store?: SessionStore } = {},
): Promise<ForkOutcome> {
  const source = resolve(sourcePath);
  // store.with: a body that is not JSON makes the file be read again with the line as an issue.
  const { profile, plan } = await (opts.store ?? new SessionStore()).with(source, (parsed) =>
    planForkOf(parsed, source, request, opts),
  );
  if (!plan.ok) return { ok: false, profile, error: plan.error };
  const path = await writeFork(source, plan);
  return { ok: true, path, profile, header: plan.header, entries: plan.entries, leafId: plan.leafId };
}
