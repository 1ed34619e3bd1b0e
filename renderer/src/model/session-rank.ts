/**
 * How a query finds sessions, ranked as pi 1.5's /resume does (session-selector-search.js): every
 * token must match; a token found whole in a name ranks first, found whole in the id, the text or
 * the cwd next, and only then scattered (fuzzy) over a name or the cwd. Text and ids never match
 * scattered: a long message holds almost any letters in order. Pure; the list filter and the
 * palette both rank with it, and each hit says where it matched so the row can highlight it.
 */

/** Which text of a session a token met. */
export type RankField = 'name' | 'piName' | 'tag' | 'note' | 'id' | 'text' | 'cwd';

/** What one session offers a query (any field may be empty). */
export interface RankDoc {
  /** Names: Canopy's own name for it, and pi's `session_info` name. */
  names: ReadonlyArray<{ field: 'name' | 'piName'; text: string }>;
  tags: readonly string[];
  note: string;
  id: string;
  /** The text the row shows (its first message as plain text). */
  text: string;
  cwd: string;
}

/** A match in one field: [start, end) ranges in that field's text, for a highlight. */
export interface RankMark {
  field: RankField;
  /** The field's text the ranges index (a tag's own text for a tag). */
  text: string;
  ranges: Array<[number, number]>;
}

export interface RankHit {
  /** Lower is better (pi's sum over tokens of tier × 1e6 + fuzzy score). */
  score: number;
  /** The worst tier any token needed: 0 whole in a name, 1 whole in id/text/cwd, 2 scattered. */
  tier: 0 | 1 | 2;
  /** The fields the tokens met, one bit each (fieldBit). */
  where: number;
  /** Where to highlight (empty unless asked for). */
  marks: RankMark[];
}

export type RankToken = { kind: 'word' | 'phrase'; value: string };
export type RankQuery = { tokens: RankToken[]; regex: RegExp | null; error?: string };

const TIER_WEIGHT = 1_000_000;

/** pi's query syntax: words, "quoted phrases", or `re:pattern` (case-insensitive). */
export function parseRankQuery(query: string): RankQuery {
  const q = query.trim();
  if (q.startsWith('re:')) {
    const pattern = q.slice(3).trim();
    if (!pattern) return { tokens: [], regex: null, error: 'Empty regex' };
    try {
      return { tokens: [], regex: new RegExp(pattern, 'i') };
    } catch (err) {
      return { tokens: [], regex: null, error: err instanceof Error ? err.message : String(err) };
    }
  }
  const quotes = (q.match(/"/g) ?? []).length;
  if (quotes % 2 === 1) return { tokens: words(q), regex: null };
  const tokens: RankToken[] = [];
  q.split('"').forEach((part, i) => {
    if (i % 2 === 1) {
      const phrase = part.trim().replace(/\s+/g, ' ');
      if (phrase) tokens.push({ kind: 'phrase', value: phrase.toLowerCase() });
    } else tokens.push(...words(part));
  });
  return { tokens, regex: null };
}

function words(text: string): RankToken[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((value) => ({ kind: 'word', value: value.toLowerCase() }));
}

/** pi-tui's fuzzyMatch: every query letter in order; lower score is better; the positions for a highlight. */
export function fuzzyPositions(query: string, textLower: string): { score: number; positions: number[] } | null {
  if (query.length === 0) return { score: 0, positions: [] };
  if (query.length > textLower.length) return null;
  let positions: number[] = [];
  let last = -1;
  for (const ch of query) {
    const i = textLower.indexOf(ch, last + 1);
    if (i < 0) return null;
    positions.push(i);
    last = i;
  }
  let score = scorePositions(textLower, positions);
  for (let at = textLower.indexOf(query); at >= 0; at = textLower.indexOf(query, at + 1)) {
    const run = Array.from({ length: query.length }, (_, k) => at + k);
    const s = scorePositions(textLower, run);
    if (s < score) [score, positions] = [s, run];
  }
  if (query === textLower) score -= 100;
  return { score, positions };
}

/** pi-tui's word boundaries: whitespace, - _ . / : */
function isBoundary(c: number): boolean {
  return c === 32 || c === 45 || c === 95 || c === 46 || c === 47 || c === 58 || c === 9 || c === 10 || c === 13;
}

function scorePositions(text: string, positions: readonly number[]): number {
  let score = 0;
  let last = -1;
  let run = 0;
  for (const i of positions) {
    if (last === i - 1) score -= ++run * 5;
    else {
      run = 0;
      if (last >= 0) score += (i - last - 1) * 2;
    }
    if (i === 0 || isBoundary(text.charCodeAt(i - 1))) score -= 10;
    score += i * 0.1;
    last = i;
  }
  return score;
}

/** Adjacent positions as [start, end) ranges. */
function toRanges(positions: readonly number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const p of positions) {
    const prev = out[out.length - 1];
    if (prev && prev[1] === p) prev[1] = p + 1;
    else out.push([p, p + 1]);
  }
  return out;
}

interface Field {
  field: RankField;
  text: string;
  lower: string;
  /** 0: a name (whole and scattered); 1: text (whole only); 1 and fuzzy: the cwd. */
  tier: 0 | 1;
  fuzzy: boolean;
}

const fieldsCache = new WeakMap<RankDoc, Field[]>();

function fieldsOf(doc: RankDoc): Field[] {
  const known = fieldsCache.get(doc);
  if (known) return known;
  const f = (field: RankField, text: string, tier: 0 | 1, fuzzy: boolean): Field => ({
    field,
    text,
    lower: text.toLowerCase(),
    tier,
    fuzzy,
  });
  const fields = [
    ...doc.names.filter((n) => n.text).map((n) => f(n.field, n.text, 0, true)),
    ...doc.tags.map((t) => f('tag', t, 0, true)),
    f('id', doc.id, 1, false),
    f('text', doc.text, 1, false),
    f('note', doc.note, 1, false),
    f('cwd', doc.cwd, 1, true),
  ].filter((x) => x.text);
  fieldsCache.set(doc, fields);
  return fields;
}

interface TokenHit {
  score: number;
  tier: 0 | 1 | 2;
  f: Field;
  /** A whole hit's start (its end: start + the token's length), else -1 and a scattered one's letters. */
  at: number;
  positions: readonly number[] | null;
}

function tokenHit(fields: readonly Field[], token: RankToken): TokenHit | null {
  const value = token.value;
  // Whole: the first field (names first) that holds it.
  for (const f of fields) {
    const hay = token.kind === 'phrase' ? f.lower.replace(/\s/g, ' ') : f.lower;
    const at = hay.indexOf(value);
    if (at < 0) continue;
    const score = f.tier === 0 ? (fuzzyPositions(value, hay)?.score ?? 0) : 0;
    return { score: f.tier * TIER_WEIGHT + score, tier: f.tier, f, at, positions: null };
  }
  if (token.kind === 'phrase') return null;
  // Scattered over a name or the cwd: the best of them.
  let best: TokenHit | null = null;
  for (const f of fields) {
    if (!f.fuzzy) continue;
    const m = fuzzyPositions(value, f.lower);
    if (m && (!best || m.score < best.score - 2 * TIER_WEIGHT))
      best = { score: 2 * TIER_WEIGHT + m.score, tier: 2, f, at: -1, positions: m.positions };
  }
  return best;
}

const FIELD_BITS: Record<RankField, number> = { name: 1, piName: 2, tag: 4, note: 8, id: 16, text: 32, cwd: 64 };

/** The bit of a field in RankHit.where. */
export function fieldBit(field: RankField): number {
  return FIELD_BITS[field];
}

/** Shared by every hit ranked without marks (never written to). */
const NO_MARKS: RankMark[] = [];

const mark = (f: Field, ranges: Array<[number, number]>): RankMark => ({ field: f.field, text: f.text, ranges });

/**
 * A session against a parsed query: null when it does not match. An empty query matches with
 * score 0. `marks` (where to highlight) only when asked: a list ranks thousands of sessions and
 * draws a few, so it asks again for those it draws.
 */
export function rankSession(doc: RankDoc, query: RankQuery, withMarks = true): RankHit | null {
  if (query.error) return null;
  const fields = fieldsOf(doc);
  if (query.regex) {
    const re = query.regex;
    for (const f of fields) {
      if (f.field === 'tag' || f.field === 'note') continue;
      const m = re.exec(f.text);
      if (!m) continue;
      const tier = f.tier;
      const marks = withMarks ? [mark(f, [[m.index, m.index + m[0].length]])] : NO_MARKS;
      return { score: tier * TIER_WEIGHT, tier, where: FIELD_BITS[f.field], marks };
    }
    return null;
  }
  let score = 0;
  let tier: 0 | 1 | 2 = 0;
  let where = 0;
  const marks: RankMark[] = withMarks ? [] : NO_MARKS;
  for (const token of query.tokens) {
    const hit = tokenHit(fields, token);
    if (!hit) return null;
    score += hit.score;
    if (hit.tier > tier) tier = hit.tier;
    where |= FIELD_BITS[hit.f.field];
    if (!withMarks) continue;
    const ranges: Array<[number, number]> =
      hit.at >= 0 ? [[hit.at, hit.at + token.value.length]] : toRanges(hit.positions ?? []);
    const same = marks.find((m) => m.field === hit.f.field && m.text === hit.f.text);
    if (same) same.ranges.push(...ranges);
    else marks.push(mark(hit.f, ranges));
  }
  for (const m of marks) m.ranges.sort((a, b) => a[0] - b[0]);
  return { score, tier, where, marks };
}

/** The query matches nothing on its own (empty or only spaces): every session, unranked. */
export function isEmptyQuery(q: RankQuery): boolean {
  return !q.error && !q.regex && q.tokens.length === 0;
}

/**
 * Whether every session `next` matches also matches `prev`: `next` only adds letters or words to
 * `prev` (a longer word is whole or scattered only where its start is). Not for phrases or regexes.
 */
export function narrowsFrom(prev: string, next: string): boolean {
  const p = prev.trim();
  return p !== '' && next.startsWith(prev) && !next.includes('"') && !next.trim().startsWith('re:');
}
