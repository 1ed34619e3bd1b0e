import type { EntryNodeDto, KeepRecordDto, SessionRowDto, SessionSummaryDto } from '../../lib/shared';
import { sessionTitle } from '../../model/session-title';
import { parseRankQuery, rankSession, type RankHit, type RankMark } from '../../model/session-rank';
import { sessionDoc, titleField } from '../../model/session-doc';
import { fuzzyScore, queryWords } from './fuzzy';
import type { CommandAction } from '../../commands/registry';

export type PaletteItem =
  | { kind: 'action'; key: string; action: CommandAction; title: string; score: number }
  | {
      kind: 'session';
      key: string;
      sessionId: string;
      title: string;
      detail: string;
      score: number;
      /** The match in the title, and one elsewhere (id, cwd, tag, …), for highlights. */
      titleMark?: RankMark;
      otherMark?: RankMark;
    }
  | { kind: 'entry'; key: string; entryId: string; title: string; detail: string; score: number };

export interface PaletteSources {
  actions: readonly CommandAction[];
  isEnabled(action: CommandAction): boolean;
  sessions: readonly SessionRowDto[];
  summaries: Readonly<Record<string, SessionSummaryDto>>;
  /** Canopy's names, tags, pins and notes by session id. */
  keep?: Readonly<Record<string, KeepRecordDto>>;
  /** The open session's entries (empty when none is open). */
  entries: readonly EntryNodeDto[];
  labels?: Readonly<Record<string, string>>;
}

export interface PaletteResult {
  actions: PaletteItem[];
  sessions: PaletteItem[];
  entries: PaletteItem[];
}

export const PALETTE_LIMITS = { sessions: 40, entries: 40 };

/** Keeps the best `limit` by score (stable for equal scores: the source order). */
function top<T extends { score: number }>(items: T[], limit: number): T[] {
  return items.sort((a, b) => b.score - a.score).slice(0, limit);
}

/**
 * What the palette shows for a query: enabled actions, sessions (over names, first messages,
 * ids and cwd) and entries of the open session (over previews, ids, kinds and labels), best first.
 * An empty query lists every enabled action and the most recent sessions.
 */
export function paletteItems(query: string, src: PaletteSources, limits = PALETTE_LIMITS): PaletteResult {
  const words = queryWords(query);
  const actions: PaletteItem[] = [];
  for (const action of src.actions) {
    if (!src.isEnabled(action)) continue;
    const score =
      words.length === 0
        ? 0
        : fuzzyScore(words, `${action.title} ${action.group} ${action.keywords ?? ''} ${action.id}`.toLowerCase());
    if (score !== null) actions.push({ kind: 'action', key: `a:${action.id}`, action, title: action.title, score });
  }

  const sessions = words.length === 0 ? recentSessions(src, limits.sessions) : rankedSessions(query, src, limits);

  const entries: PaletteItem[] = [];
  if (words.length > 0) {
    for (const e of src.entries) {
      if (e.type === 'leaf') continue;
      const kind = e.role ?? e.type;
      const label = src.labels?.[e.id];
      const s = fuzzyScore(
        words,
        `${e.preview} ${e.id} ${kind} ${label ?? ''} ${e.toolNames?.join(' ') ?? ''}`.toLowerCase(),
      );
      if (s === null) continue;
      entries.push({
        kind: 'entry',
        key: `e:${e.id}`,
        entryId: e.id,
        title: e.preview || `(${kind})`,
        detail: `${kind} · ${e.id}${label ? ` · #${label}` : ''}`,
        score: s,
      });
    }
  }
  return {
    actions: words.length === 0 ? actions : top(actions, actions.length),
    sessions,
    entries: top(entries, limits.entries),
  };
}

/** With no query: the most recent sessions (a few). */
function recentSessions(src: PaletteSources, limit: number): PaletteItem[] {
  const recent = [...src.sessions].sort((a, b) =>
    b.modifiedAt > a.modifiedAt ? 1 : b.modifiedAt < a.modifiedAt ? -1 : 0,
  );
  return recent.slice(0, Math.min(8, limit)).map((row) => sessionItem(row, src, null, 0));
}

/**
 * Sessions ranked as the list filter ranks them (pi's /resume: whole hits in names, then in ids,
 * text and cwd, then scattered over names and cwd), most recent first on a tie.
 */
function rankedSessions(query: string, src: PaletteSources, limits: typeof PALETTE_LIMITS): PaletteItem[] {
  const parsed = parseRankQuery(query);
  const hits: Array<{ row: SessionRowDto; hit: RankHit }> = [];
  for (const row of src.sessions) {
    const hit = rankSession(
      sessionDoc(row, src.summaries[row.sessionId] ?? row.summary, src.keep?.[row.sessionId]),
      parsed,
    );
    if (hit) hits.push({ row, hit });
  }
  hits.sort(
    (a, b) =>
      a.hit.score - b.hit.score ||
      (b.row.modifiedAt > a.row.modifiedAt ? 1 : b.row.modifiedAt < a.row.modifiedAt ? -1 : 0),
  );
  // On the actions' scale (fuzzy.ts: 100–120 a word at the start of a title, 60–100 elsewhere, ≤ 50
  // scattered), a little below it: an action named by the words typed comes before a session that
  // holds them, and groups order by their best.
  const words = Math.max(1, parsed.tokens.length);
  return hits
    .slice(0, limits.sessions)
    .map(({ row, hit }) => sessionItem(row, src, hit, (hit.tier === 2 ? 30 : hit.tier === 1 ? 75 : 100) * words));
}

function sessionItem(row: SessionRowDto, src: PaletteSources, hit: RankHit | null, score: number): PaletteItem {
  const summary = src.summaries[row.sessionId] ?? row.summary;
  const keep = src.keep?.[row.sessionId];
  const shows = titleField(summary, keep);
  const titleMark = hit?.marks.find((m) => m.field === shows);
  const otherMark = hit?.marks.find((m) => m.field !== shows);
  return {
    kind: 'session',
    key: `s:${row.sessionId}`,
    sessionId: row.sessionId,
    title: keep?.name || sessionTitle(row, summary),
    detail: row.cwd,
    score,
    ...(titleMark ? { titleMark } : {}),
    ...(otherMark ? { otherMark } : {}),
  };
}
