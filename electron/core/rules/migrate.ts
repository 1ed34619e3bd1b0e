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

/**
 * A v1 entry's id: its physical line as 8 hex chars. pi draws random ids here and rewrites the file;
 * Canopy never writes, so the id must be the same on every read and in every command.
 */
export function lineId(line: number): string {
  return line.toString(16).padStart(8, '0');
}

/**
 * A v1 file (header version below 2, or none) has no entry ids: pi gives them when it migrates;
 * Canopy derives each from its physical line (lineId). Loose comparison on purpose, as pi's (`"1" < 2`).
 */
export function isV1Header(header: Record<string, unknown>): boolean {
  return ((header.version ?? 1) as number) < 2;
}

function migrateV1ToV2(values: unknown[], newId: (index: number) => string): void {
  let prevId: string | null = null;
  for (const [index, entry] of values.entries()) {
    // pi would throw on a primitive here (strict-mode property write) and would chain arrays in;
    // Canopy skips both: they are reported as not_an_object and never become entries.
    if (!isRecord(entry) || Array.isArray(entry)) continue;
    if (entry.type === 'session') {
      entry.version = 2;
      continue;
    }
    const id = newId(index);
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

/**
 * Returns true when a migration ran (pi's return value; it then rewrites the file). `newId` names the
 * v1 entry at `values[index]` (pi passes no set of used ids, so it must not repeat itself).
 */
export function migrateToCurrentVersion(values: unknown[], newId: (index: number) => string): boolean {
  const header = values.find((e) => isRecord(e) && e.type === 'session') as Rec | undefined;
  // Loose comparisons on purpose: pi compares whatever `version` holds ("2" < 3 is true).
  const version = (header?.version ?? 1) as number;
  if (version >= CURRENT_SESSION_VERSION) return false;
  if (version < 2) migrateV1ToV2(values, newId);
  if (version < 3) migrateV2ToV3(values);
  return true;
}
