/**
 * The blocks a query's required substrings may be in, asked of the word index piece by piece
 * (search/rules/word-tokens.ts plans each substring), cheapest first: an exact phrase costs under a
 * millisecond, while a prefix query merges every term with the prefix and an OR of many terms
 * advances every one of them for each row (FTS5's OR is linear in its children), so the plan's
 * pieces are run apart and their rowids joined here. A piece may keep more blocks than hold the
 * substring, never fewer: every candidate is checked against its line.
 */
import type Database from 'better-sqlite3';
import { substringPlan, type SubstringPlan, type TailQuery, type TermSource } from './rules/word-tokens';
import type { SearchDatabase } from './storage/search-db';
import { wordVocab } from './term-list';

/** Every block (no narrowing). */
export const EVERY = null;
/** Sorted block rowids, or EVERY. */
export type Rows = number[] | typeof EVERY;

/** Measured on the 10k store: checking a candidate block (read, raw test) ~0.15 ms; a prefix query ~9 µs a term it merges. */
const BLOCK_MS = 0.15;
const PREFIX_TERM_MS = 0.009;
/** A prefix query this cheap is asked without its exact phrases first. */
const CHEAP_PREFIX_MS = 5;
/** Looking up one term's blocks (a longer word ending with a phrase's first word). */
const LOOKUP_MS = 0.02;
/** Asking for one such word followed by the phrase's next words (its positions read). */
const PHRASE_MS = 0.2;
/** The rest of a phrase that leaves at most this many blocks is read as is (cheaper than narrowing it further). */
const FEW_BLOCKS = 64;
/** A word in at most this share (1/RARE_SHARE) of the blocks has few places to compare with. */
const RARE_SHARE = 4;
/** Word positions of a block are below this (a block holds ~16,000 characters; past it two places may share a key, which only adds a candidate). */
const POSITIONS = 2 ** 20;
/** The word index's positions, as a temporary table of this connection. */
const INSTANCES = 'canopy_fts_instances';
/** Terms ORed in one FTS5 query (an OR's cost grows with its children times its rows). */
const GROUP = 8;

const quote = (t: string): string => `"${t}"`;

function union(a: Rows, b: Rows): Rows {
  if (a === EVERY || b === EVERY) return EVERY;
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (out[out.length - 1] !== next) out.push(next);
  }
  return out;
}

function intersect(a: Rows, b: Rows): Rows {
  if (a === EVERY) return b;
  if (b === EVERY) return a;
  const inB = new Set(b);
  return a.filter((r) => inB.has(r));
}

/** What the plan weighs (tests force each way through it). */
export interface CandidateCosts {
  blockMs: number;
  fewBlocks: number;
  /** Terms ending with a phrase's first word asked before all of them are (an estimate of how many a block set holds). */
  sample: number;
}

const COSTS: CandidateCosts = { blockMs: BLOCK_MS, fewBlocks: FEW_BLOCKS, sample: 64 };

class Asker {
  private readonly match;
  private readonly asked = new Map<string, number[]>();
  private blockCount = -1;
  private docs: Database.Statement<[string], number> | null = null;

  constructor(
    private readonly db: SearchDatabase,
    private readonly costs: CandidateCosts,
  ) {
    this.match = db
      .prepare<[string], number>('SELECT rowid FROM fts_text WHERE fts_text MATCH ? ORDER BY rowid')
      .pluck();
  }

  /** The rows of one expression (kept for the query: a plan may ask the same piece twice). */
  rows(expr: string): number[] {
    let rows = this.asked.get(expr);
    if (!rows) this.asked.set(expr, (rows = this.match.all(expr)));
    return rows;
  }

  /** Rows of any of `exprs`, a few per query. */
  anyRows(exprs: readonly string[]): number[] {
    let out: number[] = [];
    for (let i = 0; i < exprs.length; i += GROUP) out = union(out, this.rows(exprs.slice(i, i + GROUP).join(' OR ')))!;
    return out;
  }

  /** How many blocks hold `term` (its vocabulary row: a common word's count costs a quarter of reading its rows). */
  private blocksOf(term: string): number {
    this.docs ??= this.db.prepare<[string], number>(`SELECT doc FROM ${wordVocab(this.db)} WHERE term = ?`).pluck();
    return this.docs.get(term) ?? 0;
  }

  size(rows: Rows): number {
    if (rows !== EVERY) return rows.length;
    if (this.blockCount < 0)
      this.blockCount = this.db.prepare<[], number>('SELECT count(*) FROM blocks').pluck().get()!;
    return this.blockCount;
  }

  /** A tail's rows: its exact phrases, or its prefix query when that costs less than reading what they leave (`cheapOnly`: unless it costs more than a few ms). */
  tail(t: TailQuery, cheapOnly = false): Rows {
    // A prefix merging few terms costs less than its exact phrases save: it is asked alone.
    if (t.prefix && t.prefix.terms * PREFIX_TERM_MS <= CHEAP_PREFIX_MS) return this.rows(t.prefix.expr);
    const exact = t.exact === null ? EVERY : this.rows(t.exact);
    if (!t.prefix || cheapOnly) return exact;
    return this.size(exact) * this.costs.blockMs > t.prefix.terms * PREFIX_TERM_MS ? this.rows(t.prefix.expr) : exact;
  }

  /**
   * Blocks where a term of `glued` stands just before `next`, from the index's word positions
   * (fts5vocab 'instance': a word's every place, without asking a phrase per term, ~50 µs each).
   */
  private adjacent(glued: readonly string[], next: string): number[] {
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${INSTANCES} USING fts5vocab(main, fts_text, 'instance')`);
    // Rows as arrays: a third of the time of rows as objects (tens of thousands of places).
    const at = this.db
      .prepare<[string], [number, number]>(`SELECT doc, offset FROM temp.${INSTANCES} WHERE term = ?`)
      .raw();
    const after = new Set<number>();
    for (const [doc, offset] of at.all(next)) after.add(doc * POSITIONS + offset);
    const found = new Set<number>();
    for (const t of glued)
      for (const [doc, offset] of at.all(t)) if (after.has(doc * POSITIONS + offset + 1)) found.add(doc);
    return [...found].sort((a, b) => a - b);
  }

  /** Blocks where a term of `glued` is followed by `follow` (or, with nothing to follow, that hold one), within `within`. */
  glued(glued: readonly string[], follow: readonly string[], within: Rows): number[] {
    let terms = glued;
    // The next word is in a few blocks (so in few places): the terms' places are compared with its own.
    if (follow.length > 0 && this.blocksOf(follow[0]!) * RARE_SHARE < this.size(EVERY))
      return intersect(this.adjacent(glued, follow[0]!), within)!;
    if (within !== EVERY && follow.length > 0) {
      // Most such terms are rare: only those in a block of `within` are asked with their positions.
      const inWithin = new Set(within);
      const one = this.match;
      const kept = (t: string): boolean => one.all(quote(t)).some((r) => inWithin.has(r));
      // A phrase with a common word costs up to ~0.3 ms: past what reading `within` costs, it is read.
      const most = (within.length * this.costs.blockMs) / PHRASE_MS;
      // Asking every term (~30 µs each: 35 ms for 1,161 ending with "eas") only to read `within`
      // after all: an even sample tells first whether asking them all and their phrases costs more.
      const step = Math.floor(glued.length / this.costs.sample);
      if (step > 1) {
        let sampled = 0;
        for (let k = 0; k < glued.length; k += step) if (kept(glued[k]!)) sampled++;
        const asking = glued.length * LOOKUP_MS + sampled * step * PHRASE_MS;
        if (asking > within.length * this.costs.blockMs) return within;
      }
      terms = glued.filter(kept);
      if (terms.length > most) return within;
    }
    const found = this.anyRows(terms.map((t) => quote([t, ...follow].join(' '))));
    return intersect(found, within)!;
  }

  plan(p: SubstringPlan): Rows {
    if (p.kind === 'any') return this.rows(p.expr);
    const long = this.rows(p.long);
    if (p.glued?.length === 0) return union(this.tail(p.main!), long);
    // The rest of the phrase holds every hit: enough alone when it leaves few blocks. Its prefix
    // query is run unless looking up the longer words ending with the first word costs less.
    let rest = this.tail(p.rest, true);
    const prefixMs = (p.rest.prefix?.terms ?? 0) * PREFIX_TERM_MS;
    if (this.size(rest) > this.costs.fewBlocks && (p.glued === null || prefixMs < p.glued.length * LOOKUP_MS))
      rest = this.tail(p.rest);
    if ((rest !== EVERY && rest.length <= this.costs.fewBlocks) || p.glued === null) return union(rest, long);
    // Longer words ending with the first word: their phrases, unless reading the rest costs less.
    if (this.size(rest) * this.costs.blockMs < p.glued.length * LOOKUP_MS) return union(rest, long);
    const main = p.main ? this.tail(p.main) : [];
    return union(union(main, this.glued(p.glued, p.follow, rest)), long);
  }
}

/** The candidate blocks of a query's required substrings (all of them must be in a block), or EVERY. */
export function candidateBlocks(
  db: SearchDatabase,
  substrings: readonly string[],
  terms: TermSource,
  costs: CandidateCosts = COSTS,
): Rows {
  const ask = new Asker(db, costs);
  let rows: Rows = EVERY;
  for (const s of substrings) {
    const p = substringPlan(s, terms);
    if (p) rows = intersect(rows, ask.plan(p));
    if (rows !== EVERY && rows.length === 0) break;
  }
  return rows;
}
