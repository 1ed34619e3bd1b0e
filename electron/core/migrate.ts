/**
 * v1/v2 → v3 migration, in memory only, mirroring pi-coding-agent 1.6.0's
 * `migrateToCurrentVersion` / `migrateV1ToV2` / `migrateV2ToV3` (dist/core/session-manager.js).
 * pi rewrites the file after migrating; Canopy never does.
 *
 * `values` is what pi calls `entries`: every truthy JSON value parsed from the file, in file
 * order, header first. Objects are mutated in place, as pi does.
 */

type Rec = Record<string, any>;

const CURRENT_SESSION_VERSION = 3;

function isRecord(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null;
}

/** 8 lowercase hex chars from a random source (pi: first 8 chars of a random UUID). */
export function randomShortId(): string {
  const bytes = new Uint8Array(4);
  const c = (globalThis as { crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array } }).crypto;
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < 4; i++) bytes[i] = Math.floor(Math.random() * 256);
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

function freshId(used: Set<string>, newId: () => string): string {
  // pi passes an empty set here, so it never retries; retrying costs nothing and avoids
  // the (improbable) duplicate id.
  for (let i = 0; i < 100; i++) {
    const id = newId();
    if (!used.has(id)) return id;
  }
  return newId();
}

function migrateV1ToV2(values: unknown[], newId: () => string): void {
  const ids = new Set<string>();
  let prevId: string | null = null;
  for (const entry of values) {
    // pi would throw on a primitive here (strict-mode property write) and would chain arrays in;
    // Canopy skips both: they are reported as not_an_object and never become entries.
    if (!isRecord(entry) || Array.isArray(entry)) continue;
    if (entry.type === 'session') {
      entry.version = 2;
      continue;
    }
    const id = freshId(ids, newId);
    ids.add(id);
    entry.id = id;
    entry.parentId = prevId;
    prevId = id;
    if (entry.type === 'compaction' && typeof entry.firstKeptEntryIndex === 'number') {
      // Index into the parsed values, header at 0. A forward index names an entry that has no
      // id yet, so pi stores undefined; the same loop order reproduces that.
      const target = (values as unknown[])[entry.firstKeptEntryIndex] as Rec | undefined;
      if (target && target.type !== 'session') entry.firstKeptEntryId = target.id;
      delete entry.firstKeptEntryIndex;
    }
  }
}

function migrateV2ToV3(values: unknown[]): void {
  for (const entry of values) {
    if (!isRecord(entry)) continue;
    if (entry.type === 'session') {
      entry.version = 3;
      continue;
    }
    if (entry.type === 'message') {
      const message = entry.message as Rec | undefined;
      if (message && message.role === 'hookMessage') message.role = 'custom';
    }
  }
}

/** Returns true when a migration ran (pi's return value; it then rewrites the file). */
export function migrateToCurrentVersion(values: unknown[], newId: () => string): boolean {
  const header = values.find((e) => isRecord(e) && e.type === 'session') as Rec | undefined;
  // Loose comparisons on purpose: pi compares whatever `version` holds ("2" < 3 is true).
  const version = (header?.version ?? 1) as number;
  if (version >= CURRENT_SESSION_VERSION) return false;
  if (version < 2) migrateV1ToV2(values, newId);
  if (version < 3) migrateV2ToV3(values);
  return true;
}
