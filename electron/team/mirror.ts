/**
 * The union in the team database as read-only session files for `canopy serve --db`: each pushed,
 * live session written (already redacted) under `<dir>/<machine>/<project folder>/<file>`, so the
 * app lists, opens, searches and counts them as it does local files. A fork's `parentSession` is
 * pointed at its parent's mirrored file (found by file name, on any machine), so a family spans
 * machines. The folder is Canopy's own (in its cache folder) and is rebuilt whole on each start.
 */
import { join } from 'node:path';
import type pg from 'pg';
import { encodeCwd } from '../core';
import { replaceTextFile } from '../storage/json-file';
import { removeTree } from '../storage/private-dir';

interface SessionRow {
  machine: string;
  path: string;
  file_name: string;
  cwd: string;
  parent_file: string | null;
  header: Record<string, unknown>;
}

interface EntryRowOut {
  line: number;
  entry_id: string;
  parent_id: string | null;
  type: string;
  ts: string;
  body: Record<string, unknown>;
}

/** A name safe as one path segment (machine names come from other machines). */
const segment = (s: string): string => s.replace(/[^\w.@-]/g, '_').slice(0, 100) || '_';

export interface Mirror {
  /** One folder per machine: the roots to serve. */
  machineDirs: string[];
  sessions: number;
}

export async function mirrorUnion(client: pg.Client, dir: string): Promise<Mirror> {
  removeTree(dir);
  const sessions = (
    await client.query<SessionRow>(
      `SELECT machine, path, file_name, cwd, parent_file, header FROM sessions WHERE tombstone IS NULL ORDER BY machine, path`,
    )
  ).rows;
  const target = new Map<SessionRow, string>();
  const byFile = new Map<string, string>();
  for (const s of sessions) {
    const file = join(dir, segment(s.machine), segment(encodeCwd(s.cwd)), segment(s.file_name));
    target.set(s, file);
    if (!byFile.has(s.file_name)) byFile.set(s.file_name, file);
  }
  for (const s of sessions) {
    const rows = (
      await client.query<EntryRowOut>(
        'SELECT line, entry_id, parent_id, type, ts, body FROM entries WHERE machine = $1 AND path = $2 ORDER BY line',
        [s.machine, s.path],
      )
    ).rows;
    const header = { ...s.header };
    const parent = s.parent_file === null ? undefined : byFile.get(s.parent_file);
    if (parent !== undefined) header.parentSession = parent;
    else delete header.parentSession;
    const lines = [JSON.stringify(header)];
    for (const r of rows) {
      // A line too long to send kept only its envelope: it is written as an entry of that shape.
      const body =
        typeof r.body.type === 'string'
          ? r.body
          : { ...r.body, type: r.type, id: r.entry_id, parentId: r.parent_id, timestamp: r.ts };
      lines.push(JSON.stringify(body));
    }
    await replaceTextFile(target.get(s)!, `${lines.join('\n')}\n`);
  }
  const machines = [...new Set(sessions.map((s) => segment(s.machine)))];
  return { machineDirs: machines.map((m) => join(dir, m)), sessions: sessions.length };
}
