/**
 * Which trigrams a query asks the index for: every trigram of its required substrings, then only
 * the rarest few of them (block counts from FTS5's vocabulary table), as one FTS5 AND expression.
 */
import type { SearchDatabase } from '../../storage/search-db';

const MIN_TRIGRAM = 3;

/** Every trigram of every substring (3+ characters; shorter ones are checked later), lowercased. */
export function trigramsOf(substrings: readonly string[]): string[] {
  const grams = new Set<string>();
  for (const s of substrings) {
    const chars = Array.from(s.toLowerCase());
    for (let i = 0; i + MIN_TRIGRAM <= chars.length; i++) grams.add(chars.slice(i, i + MIN_TRIGRAM).join(''));
  }
  return [...grams];
}

/** An FTS5 expression requiring every one of `grams` (null: none, no prefilter). */
export function trigramExpression(grams: readonly string[]): string | null {
  if (grams.length === 0) return null;
  return grams.map((g) => `"${g.replace(/"/g, '""')}"`).join(' AND ');
}

/**
 * Trigrams ANDed at most. A block of 16,000 characters holds most common trigrams, so past the
 * rarest few the AND costs FTS5 time and removes almost no block (measured on the 10k store: the 8
 * rarest of 26 picked 737 blocks in 3 ms, all 26 picked 691 in 28 ms).
 */
const MAX_TRIGRAMS = 8;
/** Past the rarest two, a trigram in more than this share of all blocks is left out (it filters ~nothing). */
const COMMON_SHARE = 0.9;
/**
 * Trigram → blocks holding it, per connection. Only a heuristic (any subset of the trigrams is a
 * superset filter), so it may be a little stale; it starts over once the index grew by a tenth
 * (counts taken while the first build runs would misjudge the whole index).
 */
const blockCounts = new WeakMap<
  SearchDatabase,
  { count: (gram: string) => number; known: Map<string, number>; blocks: number; top: number }
>();
const GROWTH = 1.1;

/** The few of `grams` in the fewest blocks (all of them when the counts cannot be read). */
export function rarestTrigrams(db: SearchDatabase, grams: readonly string[]): string[] {
  if (grams.length <= 2) return [...grams];
  const top = db.prepare<[], number>('SELECT coalesce(max(rowid), 0) FROM blocks').pluck().get() ?? 0;
  let c = blockCounts.get(db);
  if (!c || top > c.top * GROWTH || top < c.top / GROWTH) {
    try {
      db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_text_vocab USING fts5vocab(main, 'fts_text', 'row')");
      const stmt = db.prepare<[string], number>('SELECT doc FROM temp.fts_text_vocab WHERE term = ?').pluck();
      const blocks = db.prepare<[], number>('SELECT count(*) FROM blocks').pluck().get() ?? 0;
      c = { count: (g) => stmt.get(g) ?? 0, known: new Map(), blocks, top };
    } catch {
      return [...grams];
    }
    blockCounts.set(db, c);
  }
  const { count, known, blocks } = c;
  if (known.size > 100_000) known.clear();
  const scored = grams.map((g) => {
    let n = known.get(g);
    if (n === undefined) known.set(g, (n = count(g)));
    return { g, n };
  });
  scored.sort((a, b) => a.n - b.n);
  return scored.filter((x, i) => i < 2 || (i < MAX_TRIGRAMS && x.n < blocks * COMMON_SHARE)).map((x) => x.g);
}
