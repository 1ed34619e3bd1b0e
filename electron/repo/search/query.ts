/**
 * Runs a parsed query on the index: the trigram tables pick candidate entries, then each
 * candidate's line is read back (by offset, only that line) and checked with pi's own rules
 * (core/search-query.ts), so what the index cannot say exactly (regexes, whitespace in phrases,
 * words under 3 characters) is still exact.
 */
import { makeSnippet, matchEntry, requiredSubstrings, termsMetBySession, type SearchQuery, type Snippet, searchFields, type SearchRole } from '../../core';
import type { SearchDatabase } from '../../storage/search-db';
import { SyncLineReader } from '../../storage/line-scan';

export interface SearchHit {
  /** The header's session id. */
  sessionId: string;
  path: string;
  cwd: string;
  sessionName: string | null;
  /** null: the session itself matched (its id, path, name or cwd). */
  entryId: string | null;
  /** Physical line (1 = the header, for a session hit). */
  line: number;
  role: SearchRole | 'session';
  time: number | null;
  field: 'text' | 'thinking' | 'session';
  snippet: string;
  /** The match within the snippet. */
  match: [number, number];
}

export interface QueryOptions {
  limit: number;
  /** Only these files (the listed sessions); default every indexed file. */
  paths?: ReadonlySet<string>;
}

export interface QueryResult {
  hits: SearchHit[];
  /** More hits than `limit` exist, or the candidate budget ran out first. */
  more: boolean;
}

interface FileInfo {
  id: number;
  path: string;
  session_id: string;
  cwd: string;
  name: string | null;
  ino: number;
  last_id: string | null;
  leaf_target: string | null;
  has_leaf: number;
}

interface Candidate {
  rowid: number;
  file: number;
  entry_id: string | null;
  line: number;
  offset: number;
  length: number;
  role: SearchRole;
  time: number | null;
}

/** Candidate rows read back at most per query (each costs one line read and parse). */
const CANDIDATE_BUDGET = 20_000;
const PAGE = 500;
const MIN_TRIGRAM = 3;

/** An FTS5 expression requiring every trigram of every substring (3+ characters; others checked later). */
export function trigramExpression(substrings: readonly string[]): string | null {
  const grams = new Set<string>();
  for (const s of substrings) {
    const chars = Array.from(s.toLowerCase());
    for (let i = 0; i + MIN_TRIGRAM <= chars.length; i++) grams.add(chars.slice(i, i + MIN_TRIGRAM).join(''));
  }
  if (grams.size === 0) return null;
  return [...grams].map((g) => `"${g.replace(/"/g, '""')}"`).join(' AND ');
}

/** The entries on the path from the file's current leaf to its root (pi: leaf = last entry; h3: last `leaf` entry). */
function activePath(db: SearchDatabase, f: FileInfo): Set<string> {
  const parents = new Map<string, string | null>();
  for (const r of db.prepare<[number], { entry_id: string | null; parent_id: string | null }>('SELECT entry_id, parent_id FROM entries WHERE file = ? ORDER BY line').iterate(f.id)) {
    if (r.entry_id) parents.set(r.entry_id, r.parent_id);
  }
  const on = new Set<string>();
  let at = f.has_leaf ? f.leaf_target : f.last_id;
  while (at && parents.has(at) && !on.has(at)) {
    on.add(at);
    at = parents.get(at) ?? null;
  }
  return on;
}

function filterSql(q: SearchQuery): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const f = q.filters;
  if (f.roles.length) {
    where.push(`e.role IN (${f.roles.map(() => '?').join(', ')})`);
    params.push(...f.roles);
  }
  if (f.after !== null) {
    where.push('e.time >= ?');
    params.push(f.after);
  }
  if (f.before !== null) {
    where.push('e.time < ?');
    params.push(f.before);
  }
  if (f.tools.length) {
    where.push(`(${f.tools.map(() => "e.tools LIKE ? ESCAPE '\\'").join(' OR ')})`);
    params.push(...f.tools.map((t) => `% ${t.replace(/[\\%_]/g, '\\$&')} %`));
  }
  return { where, params };
}

function sessionHit(f: FileInfo): SearchHit {
  const label = f.name || f.cwd || f.path;
  return {
    sessionId: f.session_id,
    path: f.path,
    cwd: f.cwd,
    sessionName: f.name,
    entryId: null,
    line: 1,
    role: 'session',
    time: null,
    field: 'session',
    snippet: label,
    match: [0, 0],
  };
}

export function runQuery(db: SearchDatabase, q: SearchQuery, opts: QueryOptions): QueryResult {
  const files = db.prepare<[], FileInfo>('SELECT id, path, session_id, cwd, name, ino, last_id, leaf_target, has_leaf FROM files').all()
    .filter((f) => !opts.paths || opts.paths.has(f.path))
    .filter((f) => q.filters.projects.length === 0 || q.filters.projects.some((p) => f.cwd.toLowerCase().includes(p)));
  const byId = new Map(files.map((f) => [f.id, f]));
  const hits: SearchHit[] = [];
  const noEntryFilter = !q.regex && q.filters.roles.length + q.filters.tools.length + q.filters.files.length === 0 && q.filters.after === null && q.filters.before === null && !q.filters.activeBranch;

  // Files grouped by which terms their own fields meet (usually one or two groups).
  const groups = new Map<string, { met: boolean[]; files: FileInfo[] }>();
  for (const f of files) {
    const met = termsMetBySession(q, { id: f.session_id, path: f.path, cwd: f.cwd, name: f.name });
    if (q.terms.length > 0 && met.every(Boolean) && noEntryFilter) {
      hits.push(sessionHit(f));
      continue;
    }
    const key = met.map((m) => (m ? 1 : 0)).join('');
    const g = groups.get(key);
    if (g) g.files.push(f);
    else groups.set(key, { met, files: [f] });
  }

  const { where, params } = filterSql(q);
  const textExpr = (met: boolean[]): string | null => trigramExpression(requiredSubstrings(q, met));
  const pathExpr = trigramExpression(q.filters.files);
  const readers = new Map<number, SyncLineReader>();
  const branches = new Map<number, Set<string>>();
  const fileNeedles = q.filters.files.map((p) => p.toLowerCase());
  let budget = CANDIDATE_BUDGET;
  let more = false;

  try {
    for (const { met, files: groupFiles } of groups.values()) {
      if (hits.length > opts.limit) break;
      const inGroup = new Set(groupFiles.map((f) => f.id));
      const expr = textExpr(met);
      const clauses = [...where];
      const args: unknown[] = [...params];
      let from = 'entries e';
      if (expr) {
        from = 'fts_text t JOIN entries e ON e.rowid = t.rowid';
        clauses.unshift('fts_text MATCH ?');
        args.unshift(expr);
      }
      if (pathExpr) {
        clauses.push('e.rowid IN (SELECT rowid FROM fts_paths WHERE fts_paths MATCH ?)');
        args.push(pathExpr);
      }
      if (groupFiles.length < files.length) {
        clauses.push(`e.file IN (${groupFiles.map((f) => f.id).join(',')})`);
      }
      // Rows in index order (sessions are indexed newest first), paged by rowid: a page costs the
      // same however deep it is (bm25 ranking re-scored every match per page: 200 ms at 50k matches).
      clauses.push('e.rowid > ?');
      const sql = `SELECT e.rowid, e.file, e.entry_id, e.line, e.offset, e.length, e.role, e.time FROM ${from} WHERE ${clauses.join(' AND ')} ORDER BY e.rowid LIMIT ?`;
      const stmt = db.prepare<unknown[], Candidate>(sql);
      for (let after = 0; hits.length <= opts.limit; ) {
        const page = stmt.all(...args, after, PAGE);
        if (page.length > 0) after = page[page.length - 1]!.rowid;
        for (const c of page) {
          if (hits.length > opts.limit) break;
          if (budget-- <= 0) {
            more = true;
            break;
          }
          const f = byId.get(c.file);
          if (!f || !inGroup.has(c.file)) continue;
          const hit = checkCandidate(q, met, f, c, readers, fileNeedles);
          if (!hit) continue;
          if (q.filters.activeBranch) {
            let on = branches.get(f.id);
            if (!on) branches.set(f.id, (on = activePath(db, f)));
            if (!hit.entryId || !on.has(hit.entryId)) continue;
          }
          hits.push(hit);
        }
        if (page.length < PAGE || budget <= 0) break;
      }
      if (budget <= 0) break;
    }
  } finally {
    for (const r of readers.values()) r.close();
  }
  if (hits.length > opts.limit) {
    hits.length = opts.limit;
    more = true;
  }
  return { hits, more };
}

function checkCandidate(
  q: SearchQuery,
  met: boolean[],
  f: FileInfo,
  c: Candidate,
  readers: Map<number, SyncLineReader>,
  fileNeedles: readonly string[],
): SearchHit | null {
  let reader = readers.get(f.id);
  if (!reader) readers.set(f.id, (reader = new SyncLineReader(f.path, f.ino, 60_000)));
  let raw: unknown;
  try {
    raw = JSON.parse(reader.readText(c.offset, c.length).replace(/\r$/, ''));
  } catch {
    return null; // the file changed since it was indexed: the next sync re-reads it
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const fields = searchFields(raw as Record<string, unknown>);
  if (fileNeedles.length) {
    const paths = fields.paths.toLowerCase();
    if (!fileNeedles.every((p) => paths.includes(p))) return null;
  }
  const m = matchEntry(q, met, fields.text, fields.thinking);
  if (!m) return null;
  const source = m.field === 'text' ? fields.text : fields.thinking;
  const snip: Snippet = makeSnippet(source, m.start, m.end);
  return {
    sessionId: f.session_id,
    path: f.path,
    cwd: f.cwd,
    sessionName: f.name,
    entryId: c.entry_id,
    line: c.line,
    role: c.role,
    time: c.time,
    field: m.field,
    snippet: snip.text,
    match: snip.match,
  };
}
