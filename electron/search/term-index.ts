/**
 * The term list (term-list.ts) grouped by how its terms begin and end, so the terms starting or
 * ending with a word are found among the few sharing its first or last characters: scanning the
 * ~500,000 terms of the 10k store for each of a phrase's ends cost 10–70 ms a query. Terms
 * containing a word are still a scan of the list.
 */
import { ftsTerm } from './rules/fts-terms';
import { type TermSource } from './rules/word-tokens';
import type { SearchDatabase } from './storage/search-db';
import { termList } from './term-list';

/** Every term starts with the empty string: the whole list, in the order its terms were added. */
const ALL = Number.MAX_SAFE_INTEGER;

/** Terms by their first (or last) one and two UTF-16 code units. */
class Buckets {
  private readonly one = new Map<string, string[]>();
  private readonly two = new Map<string, string[]>();

  constructor(private readonly end: boolean) {}

  add(term: string): void {
    const at = (n: number): string => (this.end ? term.slice(-n) : term.slice(0, n));
    push(this.one, at(1), term);
    if (term.length >= 2) push(this.two, at(2), term);
  }

  /** The terms that may start (or end) with `word`. */
  of(word: string): readonly string[] {
    if (word.length === 1) return this.one.get(word) ?? [];
    return this.two.get(this.end ? word.slice(-2) : word.slice(0, 2)) ?? [];
  }
}

function push(map: Map<string, string[]>, key: string, term: string): void {
  const list = map.get(key);
  if (list) list.push(term);
  else map.set(key, [term]);
}

interface Held {
  /** The list as last read (the same array while no term is added). */
  seen: readonly string[];
  starts: Buckets;
  ends: Buckets;
}

const held = new WeakMap<SearchDatabase, Held>();

/** The terms among `candidates` that pass, or null when more than `max` do. */
function upTo(candidates: readonly string[], pass: (t: string) => boolean, max: number): string[] | null {
  const out: string[] = [];
  for (const t of candidates) {
    if (!pass(t)) continue;
    if (out.length === max) return null;
    out.push(t);
  }
  return out;
}

/** The term list of `db`, brought up to date, with fast lookups of the terms starting or ending with a word. */
export function termIndex(db: SearchDatabase): TermSource {
  const list = termList(db);
  const all = list.matching('', 'start', ALL) ?? [];
  let h = held.get(db);
  if (!h || h.seen !== all) {
    // Terms are only ever added, at the end of the list (each once): only those are put in.
    const grew = h && all.length >= h.seen.length && all[h.seen.length - 1] === h.seen[h.seen.length - 1];
    if (!grew) h = { seen: all, starts: new Buckets(false), ends: new Buckets(true) };
    for (let i = grew ? h!.seen.length : 0; i < all.length; i++) {
      h!.starts.add(all[i]!);
      h!.ends.add(all[i]!);
    }
    h!.seen = all;
    held.set(db, h!);
  }
  const { starts, ends } = h!;
  return {
    matching(asked, where, max) {
      // Terms are listed as FTS5 folds them (term-list.ts): the word is folded alike (`ς` as `σ`).
      const word = ftsTerm(asked);
      if (where === 'start') return upTo(starts.of(word), (t) => t.startsWith(word), max);
      if (where === 'end') return upTo(ends.of(word), (t) => t.endsWith(word), max);
      return list.matching(word, where, max);
    },
  };
}
