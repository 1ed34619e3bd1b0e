/**
 * The index's distinct words (its `terms` table), held in memory per connection for widening a
 * query's words (core/search/word-tokens.ts). Rows are only ever added, so each query reads just
 * the rows added since the last one: a term committed with its block is always known to the query
 * that can see the block.
 */
import type { TermSource } from '../../core';
import type { SearchDatabase } from '../../storage/search-db';

interface Held {
  /** In the list's order; a set, as the list may hold a term twice (two processes added it at once). */
  terms: Set<string>;
  lastRowid: number;
  /** Widened words already asked for, while no term was added. */
  asked: Map<string, string[] | null>;
}

const held = new WeakMap<SearchDatabase, Held>();

/** The term list of `db`, brought up to date. */
export function termList(db: SearchDatabase): TermSource {
  let h = held.get(db);
  if (!h) held.set(db, (h = { terms: new Set(), lastRowid: 0, asked: new Map() }));
  const added = db
    .prepare<[number], { rowid: number; term: string }>('SELECT rowid, term FROM terms WHERE rowid > ? ORDER BY rowid')
    .all(h.lastRowid);
  if (added.length > 0) {
    for (const r of added) h.terms.add(r.term);
    h.lastRowid = added[added.length - 1]!.rowid;
    h.asked.clear();
  }
  const { terms, asked } = h;
  return {
    matching(word, where, max) {
      const key = `${where}:${max}:${word}`;
      const known = asked.get(key);
      if (known !== undefined) return known;
      const out: string[] = [];
      let found: string[] | null = out;
      for (const t of terms) {
        if (where === 'in' ? !t.includes(word) : where === 'end' ? !t.endsWith(word) : !t.startsWith(word)) continue;
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
