/**
 * Two branches' entries as turns (a user message and what followed it), aligned where both sides
 * asked the same thing. PURE.
 */
import type { CompareEntryDto, CompareRowDto, CompareTurnDto } from '../../shared/compare-dto';
import type { Entry } from '../types';
import { contentText, previewEntry } from './entry-preview';

const isRec = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A user message's whole text (text blocks joined), or null for any other entry. */
export function userPrompt(e: Entry): string | null {
  if (e.type !== 'message') return null;
  const m = e.raw.message;
  if (!isRec(m) || m.role !== 'user') return null;
  return contentText(m.content);
}

export function compareEntry(e: Entry): CompareEntryDto {
  return { id: e.id, type: e.type, ...previewEntry(e) };
}

/** The entries as turns: a new turn at each user message; entries before the first one are a turn without a prompt. */
export function turnsOf(entries: readonly Entry[]): CompareTurnDto[] {
  const turns: CompareTurnDto[] = [];
  for (const e of entries) {
    const prompt = userPrompt(e);
    if (prompt !== null || turns.length === 0) turns.push({ prompt, entries: [] });
    turns[turns.length - 1]!.entries.push(compareEntry(e));
  }
  return turns;
}

/** What a turn answered, for telling a same prompt answered the same way from one answered otherwise. */
function replyKey(t: CompareTurnDto): string {
  return t.entries
    .slice(t.prompt === null ? 0 : 1)
    .map((e) => `${e.type}:${e.role ?? ''}:${e.preview}`)
    .join('\n');
}

/** Above this many table cells (16 MB) turns are paired in order instead of by their common prompts. */
export const MAX_LCS_CELLS = 4_000_000;

/**
 * Rows for the side-by-side view: the longest common sequence of prompts pairs turns that asked the
 * same thing; between two such pairs the remaining turns of each side are paired in order (another
 * prompt in the same place), the rest stand alone.
 */
export function alignTurns(a: readonly CompareTurnDto[], b: readonly CompareTurnDto[]): CompareRowDto[] {
  const key = (t: CompareTurnDto) => (t.prompt === null ? '\u0000' : t.prompt.trim());
  const ka = a.map(key);
  const kb = b.map(key);
  const n = a.length;
  const m = b.length;
  const rows: CompareRowDto[] = [];
  const same = (i: number, j: number) => {
    rows.push({ a: i, b: j, samePrompt: true, divergent: replyKey(a[i]!) !== replyKey(b[j]!) });
  };
  let i = 0;
  let j = 0;
  const flush = (ei: number, ej: number) => {
    while (i < ei || j < ej) {
      const ai = i < ei ? i++ : null;
      const bj = j < ej ? j++ : null;
      rows.push({ a: ai, b: bj, samePrompt: false, divergent: true });
    }
  };
  if ((n + 1) * (m + 1) > MAX_LCS_CELLS) {
    // Too many turns for the table: pair them in order (a row is "same" when its prompts are).
    for (; i < n && j < m; i++, j++) {
      if (ka[i] === kb[j]) same(i, j);
      else rows.push({ a: i, b: j, samePrompt: false, divergent: true });
    }
    flush(n, m);
    return rows;
  }
  // lcs[i * w + j]: the longest common prompt sequence of a[i..] and b[j..].
  const w = m + 1;
  const lcs = new Int32Array((n + 1) * w);
  for (let x = n - 1; x >= 0; x--)
    for (let y = m - 1; y >= 0; y--)
      lcs[x * w + y] =
        ka[x] === kb[y] ? lcs[(x + 1) * w + y + 1]! + 1 : Math.max(lcs[(x + 1) * w + y]!, lcs[x * w + y + 1]!);
  while (i < n && j < m) {
    if (ka[i] === kb[j]) {
      same(i++, j++);
      continue;
    }
    // Skip along the side that keeps the longest common sequence, then pair what was skipped.
    let ei = i;
    let ej = j;
    while (ei < n && ej < m && ka[ei] !== kb[ej]) {
      if (lcs[(ei + 1) * w + ej]! >= lcs[ei * w + ej + 1]!) ei++;
      else ej++;
    }
    // No prompt left in common: pair the rest of both sides.
    if (ei === n || ej === m) break;
    flush(ei, ej);
  }
  flush(n, m);
  return rows;
}

/** Index of the first divergent row, or null. */
export function firstDivergence(rows: readonly CompareRowDto[]): number | null {
  const k = rows.findIndex((r) => r.divergent);
  return k < 0 ? null : k;
}
