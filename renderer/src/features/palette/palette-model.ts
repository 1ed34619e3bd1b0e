import type { EntryNodeDto, SessionRowDto, SessionSummaryDto } from '../../lib/shared';
import { sessionTitle } from '../../model/session-title';
import { fuzzyScore, queryWords } from './fuzzy';
import type { CommandAction } from '../../commands/registry';

export type PaletteItem =
  | { kind: 'action'; key: string; action: CommandAction; title: string; score: number }
  | { kind: 'session'; key: string; sessionId: string; title: string; detail: string; score: number }
  | { kind: 'entry'; key: string; entryId: string; title: string; detail: string; score: number };

export interface PaletteSources {
  actions: readonly CommandAction[];
  isEnabled(action: CommandAction): boolean;
  sessions: readonly SessionRowDto[];
  summaries: Readonly<Record<string, SessionSummaryDto>>;
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

  const sessions: PaletteItem[] = [];
  const recent =
    words.length === 0
      ? [...src.sessions].sort((a, b) => (b.modifiedAt > a.modifiedAt ? 1 : b.modifiedAt < a.modifiedAt ? -1 : 0))
      : src.sessions;
  for (const row of recent) {
    const summary = src.summaries[row.sessionId] ?? row.summary;
    const title = sessionTitle(row, summary);
    let score = 0;
    if (words.length > 0) {
      const hay =
        `${summary?.name ?? ''} ${summary?.firstMessage ?? ''} ${row.sessionId} ${row.cwd} ${row.fileName}`.toLowerCase();
      const s = fuzzyScore(words, hay);
      if (s === null) continue;
      score = s;
    }
    sessions.push({
      kind: 'session',
      key: `s:${row.sessionId}`,
      sessionId: row.sessionId,
      title,
      detail: row.cwd,
      score,
    });
    if (words.length === 0 && sessions.length >= Math.min(8, limits.sessions)) break;
  }

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
    sessions: words.length === 0 ? sessions : top(sessions, limits.sessions),
    entries: top(entries, limits.entries),
  };
}
