/**
 * The index's distinct words (its `terms` table), held in memory per connection for widening a
 * query's words (search/rules/word-tokens.ts). A row is a batch of terms, one a line (a row per
 * term cost twice the terms' own size). Rows are only ever added, so each query reads just the rows
 * added since the last one: a term committed with its block is always known to the query that can
 * see the block. Terms are kept as FTS5 folds them (search/rules/fts-terms.ts), so the list read
 * from FTS5's own vocabulary after a first build and the one split word by word on appends agree.
 */
import { ftsTerm } from './rules/fts-terms';
import { LONG_WORD, MAX_TERM_CHARS, type TermSource } from './rules/word-tokens';
import type { SearchDatabase } from './storage/search-db';

interface Held {
  /** In the list's order; a set, as the list may hold a term twice (two processes added it at once). */
  terms: Set<string>;
  lastRowid: number;
  /** Widened words already asked for, while no term was added. */
  asked: Map<string, string[] | null>;
}

const held = new WeakMap<SearchDatabase, Held>();

/** Characters of terms per row written from the vocabulary (a row is read whole). */
const ROW_CHARS = 65_536;

/** The held terms of `db`, brought up to date with its rows. */
function heldOf(db: SearchDatabase): Held {
  let h = held.get(db);
  if (!h) held.set(db, (h = { terms: new Set(), lastRowid: 0, asked: new Map() }));
  const added = db
    .prepare<[number], { rowid: number; list: string }>('SELECT rowid, list FROM terms WHERE rowid > ? ORDER BY rowid')
    .all(h.lastRowid);
  if (added.length > 0) {
    for (const r of added) for (const t of r.list.split('\n')) h.terms.add(t);
    h.lastRowid = added[added.length - 1]!.rowid;
    h.asked.clear();
  }
  return h;
}

/** Writes `fresh` (terms not held yet) as rows, and holds them. In the caller's write transaction. */
function write(db: SearchDatabase, h: Held, fresh: string[]): void {
  const insert = db.prepare<[string]>('INSERT INTO terms (list) VALUES (?)');
  for (let i = 0; i < fresh.length;) {
    let chars = 0;
    let j = i;
    while (j < fresh.length && chars < ROW_CHARS) chars += fresh[j++]!.length + 1;
    h.lastRowid = Number(insert.run(fresh.slice(i, j).join('\n')).lastInsertRowid);
    i = j;
  }
  for (const t of fresh) h.terms.add(t);
  h.asked.clear();
}

/**
 * Lists the words (of one block, lowercased, repeats expected) not listed yet. The caller holds the
 * write lock, so the rows read here are all there are and the new row follows them.
 */
export function listTerms(db: SearchDatabase, words: Iterable<string>): void {
  const h = heldOf(db);
  const fresh = new Set<string>();
  for (const w of words) {
    if (h.terms.has(w)) continue;
    const t = ftsTerm(w);
    if (!h.terms.has(t)) fresh.add(t);
  }
  if (fresh.size > 0) write(db, h, [...fresh]);
}

/** The FTS5 index's vocabulary (each term and its block count), as a temporary table of `db`; its name. */
export function wordVocab(db: SearchDatabase): string {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_vocab USING fts5vocab(main, 'fts_text', 'row')");
  return 'temp.fts_vocab';
}

/**
 * Lists every term of the FTS5 index not listed yet, read once from its vocabulary (what a bulk
 * load does instead of listTerms per block: FTS5 has split the words already). Words too long to
 * list, and the long-word mark, are left out as blockTerms leaves them. Returns how many were new.
 */
export function listVocabTerms(db: SearchDatabase): number {
  const h = heldOf(db);
  const vocab = wordVocab(db);
  const fresh: string[] = [];
  for (const t of db.prepare<[], string>(`SELECT term FROM ${vocab}`).pluck().all()) {
    if (t.length <= MAX_TERM_CHARS && t !== LONG_WORD && !h.terms.has(t)) fresh.push(t);
  }
  write(db, h, fresh);
  return fresh.length;
}

/** Forgets the held terms of `db` (rows it wrote were rolled back): read again on next use. */
export function forgetTerms(db: SearchDatabase): void {
  held.delete(db);
}

/** The term list of `db`, brought up to date. */
export function termList(db: SearchDatabase): TermSource {
  const { terms, asked } = heldOf(db);
  return {
    matching(word, where, max) {
      const key = `${where}:${max}:${word}`;
      const known = asked.get(key);
      if (known !== undefined) return known;
      // Terms are held as FTS5 folds them: the word is folded alike (`ς` is listed as `σ`).
      const w = ftsTerm(word);
      const out: string[] = [];
      let found: string[] | null = out;
      for (const t of terms) {
        if (where === 'in' ? !t.includes(w) : where === 'end' ? !t.endsWith(w) : !t.startsWith(w)) continue;
        if (out.length === max) {
          found = null;
          break;
        }
        out.push(t);
      }
      if (asked.size > 1000) asked.clear();
      asked.set(key, found);
      return found;
    },
  };
}
