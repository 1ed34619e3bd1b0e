/**
 * The pi oracle: what pi's own code computes for a session file, under either reading profile.
 *
 * - CA (pi-coding-agent 1.6.0 SessionManager): always run on a COPY of the file, because
 *   SessionManager.open rewrites v1/v2 files, files without a final newline and empty files.
 * - H3 (pi-agent-core 0.82.1 JsonlSessionStorage / Session / JsonlSessionRepo): never writes to the
 *   source, so it reads the file in place; forks are written under a scratch sessions root.
 *
 * Never give it a file with a parentId cycle: both readers loop forever on one.
 * Results are returned after a JSON round trip (undefined-valued keys vanish), ready to compare.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { JsonlSessionStorage } from '@earendil-works/pi-agent-core';
import { loadPi, type CaEntry, type CaSessionManager } from './pi-modules';

export type Profile = 'ca' | 'h3';

export interface PiReading {
  leafId: string | null;
  pathIds: string[];
  contextEntryIds: string[];
  context: unknown;
  labels: Record<string, string>;
  sessionName: string | undefined;
}

export interface PiError {
  code: string;
  message: string;
}

export type PiLeafResult =
  { ok: true; pathIds: string[]; contextEntryIds: string[]; context: unknown } | { ok: false; error: PiError };

export type PiReadResult =
  | {
      ok: true;
      reading: PiReading;
      /** Every entry id in file order, as pi holds them (for v1 files: pi's freshly generated ids). */
      entryIds: string[];
      /** Results for the hypothetical leaves asked for through `pickLeaves`. */
      leaves: Array<{ leafId: string | null; result: PiLeafResult }>;
    }
  /** `open`: pi refuses the file; `leaf`/`path`: it loads but fails to compute the current leaf/path. */
  | { ok: false; stage: 'open' | 'leaf' | 'path'; error: PiError; entryIds?: string[] };

export interface ReadOptions {
  /** A directory the oracle may write copies into. */
  scratchDir: string;
  /** Chooses hypothetical leaves once pi's entry ids are known. */
  pickLeaves?: (entryIds: string[]) => Array<string | null>;
}

let counter = 0;

function scratchSub(scratchDir: string, tag: string): string {
  counter += 1;
  const dir = join(scratchDir, `${tag}-${process.pid}-${counter}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function json<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function toPiError(error: unknown, fallbackCode: string): PiError {
  const e = error as { code?: unknown; message?: unknown };
  return {
    code: typeof e?.code === 'string' ? e.code : fallbackCode,
    message: typeof e?.message === 'string' ? e.message : String(error),
  };
}

function labelTargets(entries: ReadonlyArray<Record<string, any>>): string[] {
  const out = new Set<string>();
  for (const e of entries) {
    if (e && e.type === 'label' && typeof e.targetId === 'string') out.add(e.targetId);
  }
  return [...out];
}

function ids(entries: ReadonlyArray<{ id: string }>): string[] {
  return entries.map((e) => e.id);
}

const reusableCopies = new Map<string, { copy: string; dir: string }>();

/**
 * Opens a copy of `file` with pi's SessionManager. With `reuse`, later calls for the same file
 * open the same copy again (pi has already migrated it on the first open, so v1 ids then stay
 * stable; forks are written next to it under fresh names and never touch it).
 */
async function openCaCopy(
  file: string,
  scratchDir: string,
  reuse = false,
): Promise<{ sm: CaSessionManager; copy: string; dir: string }> {
  const { ca } = await loadPi();
  const key = `${scratchDir}\0${file}`;
  let place = reuse ? reusableCopies.get(key) : undefined;
  if (!place) {
    const dir = scratchSub(scratchDir, 'ca');
    const copy = join(dir, basename(file));
    copyFileSync(file, copy);
    place = { copy, dir };
    if (reuse) reusableCopies.set(key, place);
  }
  return { sm: ca.SessionManager.open(place.copy, place.dir), ...place };
}

async function readCa(file: string, opts: ReadOptions): Promise<PiReadResult> {
  const { ca } = await loadPi();
  let sm: CaSessionManager;
  try {
    sm = (await openCaCopy(file, opts.scratchDir)).sm;
  } catch (error) {
    return { ok: false, stage: 'open', error: toPiError(error, 'invalid_session') };
  }
  const entries = sm.getEntries();
  const labels: Record<string, string> = {};
  for (const target of labelTargets(entries)) {
    const label = sm.getLabel(target);
    if (label !== undefined) labels[target] = label;
  }
  const reading: PiReading = json({
    leafId: sm.getLeafId(),
    pathIds: ids(sm.getBranch()),
    contextEntryIds: ids(sm.buildContextEntries()),
    context: sm.buildSessionContext(),
    labels,
    sessionName: sm.getSessionName(),
  });
  const entryIds = ids(entries);
  const leaves = (opts.pickLeaves?.(entryIds) ?? []).map((leafId) => {
    // getBranch(undefined) would mean "current leaf"; an explicit null leaf has an empty path.
    const path: CaEntry[] = leafId === null ? [] : sm.getBranch(leafId);
    const result: PiLeafResult = json({
      ok: true as const,
      pathIds: ids(path),
      contextEntryIds: ids(ca.buildContextEntries(entries, leafId)),
      context: ca.buildSessionContext(entries, leafId),
    });
    return { leafId, result };
  });
  return { ok: true, reading, entryIds, leaves };
}

async function readH3(file: string, opts: ReadOptions): Promise<PiReadResult> {
  const { h3, NodeExecutionEnv } = await loadPi();
  const env = new NodeExecutionEnv({ cwd: opts.scratchDir });
  let storage: JsonlSessionStorage;
  try {
    storage = await h3.JsonlSessionStorage.open(env, file);
  } catch (error) {
    return { ok: false, stage: 'open', error: toPiError(error, 'invalid_session') };
  }
  const session = new h3.Session(storage);
  const entries = await session.getEntries();
  const entryIds = ids(entries);
  let leafId: string | null;
  try {
    leafId = await session.getLeafId();
  } catch (error) {
    return { ok: false, stage: 'leaf', error: toPiError(error, 'invalid_session'), entryIds };
  }
  let pathIds: string[];
  try {
    pathIds = ids(await session.getBranch());
  } catch (error) {
    return { ok: false, stage: 'path', error: toPiError(error, 'invalid_session'), entryIds };
  }
  const labels: Record<string, string> = {};
  for (const target of labelTargets(entries as unknown as Array<Record<string, any>>)) {
    const label = await session.getLabel(target);
    if (label !== undefined) labels[target] = label;
  }
  const reading: PiReading = json({
    leafId,
    pathIds,
    contextEntryIds: ids(await session.buildContextEntries()),
    context: await session.buildContext(),
    labels,
    sessionName: await session.getSessionName(),
  });
  const leaves: Array<{ leafId: string | null; result: PiLeafResult }> = [];
  for (const leaf of opts.pickLeaves?.(entryIds) ?? []) {
    try {
      // Session.getBranch(null) would mean "current leaf"; the storage walk takes null as empty.
      const path = await storage.getPathToRootOrCompaction(leaf);
      leaves.push({
        leafId: leaf,
        result: json({
          ok: true as const,
          pathIds: ids(path),
          contextEntryIds: ids(h3.buildContextEntries(path)),
          context: h3.buildSessionContext(path),
        }),
      });
    } catch (error) {
      leaves.push({ leafId: leaf, result: { ok: false, error: toPiError(error, 'invalid_session') } });
    }
  }
  return { ok: true, reading, entryIds, leaves };
}

export function piRead(file: string, profile: Profile, opts: ReadOptions): Promise<PiReadResult> {
  return profile === 'ca' ? readCa(file, opts) : readH3(file, opts);
}

// ---------------------------------------------------------------------------------------------
// Fork and clone
// ---------------------------------------------------------------------------------------------

/** An entry named by id, or by its position in file order (v1 files: ids differ per open). */
export type EntryRef = { id: string } | { index: number };

export type PiForkRequest =
  | { kind: 'fork'; entry: EntryRef; position: 'before' | 'at' }
  /** `leaf` undefined: the current leaf (CA) / every entry (H3); null: "before the first entry". */
  | { kind: 'clone'; leaf?: EntryRef | null };

export interface ForkOracleOptions {
  scratchDir: string;
  /** H3 takes the new session id as an option; CA always draws its own. */
  newSessionId: string;
  /** H3: also list the source's entry ids (one more full parse; ids do not change between forks). */
  listSourceIds?: boolean;
}

export type PiForkResult =
  | {
      ok: true;
      header: Record<string, unknown>;
      entries: Record<string, unknown>[];
      leafId: string | null;
      /** Set when pi cannot compute the new file's leaf (H3: a copied leaf entry names a missing id). */
      leafError?: string;
      /** The path pi was given as the source (CA: the copy), i.e. what `parentSession` names. */
      sourcePath: string;
      /** Source entry ids in file order as pi saw them. */
      sourceEntryIds: string[];
      /** The entry id the request resolved to (undefined for a whole-file H3 clone). */
      resolvedEntryId?: string | null;
    }
  | {
      ok: false;
      error: { kind: string; message: string };
      sourcePath: string;
      sourceEntryIds: string[];
      resolvedEntryId?: string | null;
    };

function resolveRef(ref: EntryRef, entryIds: string[]): string {
  if ('id' in ref) return ref.id;
  const id = entryIds[ref.index];
  if (id === undefined) throw new Error(`no entry at index ${ref.index}`);
  return id;
}

/** pi's /fork, fork "at" and /clone as the coding agent runs them (agent-session-runtime.js fork). */
async function forkCa(file: string, req: PiForkRequest, opts: ForkOracleOptions): Promise<PiForkResult> {
  const { ca } = await loadPi();
  const { sm, copy, dir } = await openCaCopy(file, opts.scratchDir, true);
  const sourceEntryIds = ids(sm.getEntries());
  const refuse = (kind: string, message: string, resolvedEntryId?: string | null): PiForkResult => ({
    ok: false,
    error: { kind, message },
    sourcePath: copy,
    sourceEntryIds,
    resolvedEntryId,
  });

  let entryId: string;
  let position: 'before' | 'at';
  if (req.kind === 'clone') {
    // interactive-mode handleCloneCommand: nothing to clone without a leaf; else fork "at" it.
    const leaf =
      req.leaf === undefined ? sm.getLeafId() : req.leaf === null ? null : resolveRef(req.leaf, sourceEntryIds);
    if (!leaf) return refuse('nothing_to_clone', 'Nothing to clone yet', leaf);
    entryId = leaf;
    position = 'at';
  } else {
    entryId = resolveRef(req.entry, sourceEntryIds);
    position = req.position;
  }
  const selected = sm.getEntry(entryId);
  if (!selected) return refuse('invalid_fork_target', 'Invalid entry ID for forking', entryId);
  let target: string | null;
  if (position === 'at') {
    target = selected.id;
  } else {
    if (selected.type !== 'message' || selected.message?.role !== 'user') {
      return refuse('invalid_fork_target', 'Invalid entry ID for forking', entryId);
    }
    target = selected.parentId;
  }
  if (!target) {
    // Forking the very first prompt: a new empty session whose parent is the current file.
    const fresh = ca.SessionManager.create(sm.getCwd(), dir);
    fresh.newSession({ parentSession: copy });
    return {
      ok: true,
      header: json(fresh.getHeader() ?? {}),
      entries: [],
      leafId: null,
      sourcePath: copy,
      sourceEntryIds,
      resolvedEntryId: entryId,
    };
  }
  try {
    sm.createBranchedSession(target);
  } catch (error) {
    // createBranchedSession throws "Entry <id> not found" when the target (a dangling parent) is missing.
    const message = toPiError(error, 'invalid_fork_target').message;
    return refuse(/^Entry .* not found$/.test(message) ? 'not_found' : 'invalid_fork_target', message, entryId);
  }
  return {
    ok: true,
    header: json(sm.getHeader() ?? {}),
    entries: json(sm.getEntries()),
    leafId: sm.getLeafId(),
    sourcePath: copy,
    sourceEntryIds,
    resolvedEntryId: entryId,
  };
}

type NodeEnv = InstanceType<Awaited<ReturnType<typeof loadPi>>['NodeExecutionEnv']>;

/**
 * The Node file system with every write kept in memory: pi's fork code runs unchanged (it reads the
 * source from disk and writes the new file through this env), without thousands of small disk
 * appends per test run. `written` holds what pi wrote, by path.
 */
function writeInMemory(base: NodeEnv): { env: NodeEnv; written: Map<string, string> } {
  const written = new Map<string, string>();
  const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
  const text = (c: string | Uint8Array): string => (typeof c === 'string' ? c : Buffer.from(c).toString('utf8'));
  const overrides: Record<string, unknown> = {
    writeFile: async (p: string, c: string | Uint8Array) => {
      written.set(p, text(c));
      return ok(undefined);
    },
    appendFile: async (p: string, c: string | Uint8Array) => {
      written.set(p, (written.get(p) ?? '') + text(c));
      return ok(undefined);
    },
    createDir: async () => ok(undefined),
    exists: async (p: string) => (written.has(p) ? ok(true) : base.exists(p)),
    readTextFile: async (p: string) => (written.has(p) ? ok(written.get(p) as string) : base.readTextFile(p)),
  };
  const env = new Proxy(base, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in overrides) return overrides[prop];
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { env, written };
}

/** The harness's JsonlSessionRepo.fork; the new file is read back from what pi wrote. */
async function forkH3(file: string, req: PiForkRequest, opts: ForkOracleOptions): Promise<PiForkResult> {
  const { h3, NodeExecutionEnv } = await loadPi();
  const { env, written } = writeInMemory(new NodeExecutionEnv({ cwd: opts.scratchDir }));
  const root = join(opts.scratchDir, 'h3-forks');
  const repo = new h3.JsonlSessionRepo({ fs: env, sessionsRoot: root });
  let sourceEntryIds: string[] = [];
  const refuse = (error: unknown, resolvedEntryId?: string | null): PiForkResult => {
    const e = toPiError(error, 'invalid_session');
    return {
      ok: false,
      error: { kind: e.code, message: e.message },
      sourcePath: file,
      sourceEntryIds,
      resolvedEntryId,
    };
  };
  let meta: Awaited<ReturnType<typeof h3.loadJsonlSessionMetadata>>;
  try {
    meta = await h3.loadJsonlSessionMetadata(env, file);
    if (opts.listSourceIds !== false) sourceEntryIds = ids(await (await repo.open(meta)).getEntries());
  } catch (error) {
    return refuse(error);
  }
  let entryId: string | undefined;
  let position: 'before' | 'at' | undefined;
  if (req.kind === 'clone') {
    if (req.leaf === null) throw new Error('H3 has no clone "before the first entry"');
    if (req.leaf !== undefined) {
      entryId = resolveRef(req.leaf, sourceEntryIds);
      position = 'at';
    }
  } else {
    entryId = resolveRef(req.entry, sourceEntryIds);
    position = req.position;
  }
  let forked: Awaited<ReturnType<typeof repo.fork>>;
  try {
    forked = await repo.fork(meta, { cwd: meta.cwd, id: opts.newSessionId, entryId, position });
  } catch (error) {
    return refuse(error, entryId);
  }
  const newPath = (await forked.getMetadata()).path;
  const lines = (written.get(newPath) ?? '').split('\n').filter((l) => l.trim());
  const [headerLine, ...entryLines] = lines;
  let leafId: string | null = null;
  let leafError: string | undefined;
  try {
    leafId = await forked.getLeafId();
  } catch (error) {
    // A copied `leaf` entry can name an entry that was not copied: pi cannot tell the leaf.
    leafError = toPiError(error, 'invalid_session').message;
  }
  return {
    ok: true,
    header: JSON.parse(headerLine ?? '{}') as Record<string, unknown>,
    entries: entryLines.map((l) => JSON.parse(l) as Record<string, unknown>),
    leafId,
    leafError,
    sourcePath: file,
    sourceEntryIds,
    resolvedEntryId: entryId,
  };
}

export function piFork(
  file: string,
  profile: Profile,
  req: PiForkRequest,
  opts: ForkOracleOptions,
): Promise<PiForkResult> {
  return profile === 'ca' ? forkCa(file, req, opts) : forkH3(file, req, opts);
}
