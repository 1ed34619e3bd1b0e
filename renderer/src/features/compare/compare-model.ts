/** What the compare feature computes without drawing: the leaves one can pick, and the divergent rows. */
import type { CompareDto, CompareRowDto, EntryNodeDto, LineageDto } from '../../lib/shared';

/** One leaf the picker offers: an entry of the open session, or another session of the family at its current leaf. */
export interface Candidate {
  key: string;
  sessionId: string;
  /** Absent: the session's current leaf. */
  leafId?: string;
  kind: 'selected' | 'leaf' | 'tip' | 'fork' | 'parent' | 'picked';
  title: string;
  detail: string;
}

/** Entries that only point at others: never a branch tip, never a reason another entry is not one. */
const POINTERS = new Set(['leaf', 'label']);

/** The open session's branch tips: entries no other entry continues (labels and leaf records aside). */
export function branchTips(entries: readonly EntryNodeDto[]): EntryNodeDto[] {
  const continued = new Set<string>();
  for (const e of entries) if (!POINTERS.has(e.type) && e.parentId) continued.add(e.parentId);
  return entries.filter((e) => !POINTERS.has(e.type) && !continued.has(e.id));
}

const short = (id: string) => (id.length > 10 ? `${id.slice(0, 8)}…` : id);

/**
 * The picker's rows: the selected entry, the current leaf, every branch tip of the open session, then
 * the family's other sessions (parent, forks) at their current leaves. Each leaf appears once.
 */
export function candidatesOf(
  sessionId: string,
  entries: readonly EntryNodeDto[],
  leafId: string | null,
  selectedId: string | null,
  lineage: LineageDto | null,
  /** What a tip or a family session is (model/branch-label.ts, sessionLabel): else its preview or role. */
  labels: { tip?(entryId: string): string; session?(sessionId: string): string | null } = {},
): Candidate[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const add = (id: string, kind: Candidate['kind']) => {
    const e = byId.get(id);
    if (!e || seen.has(id)) return;
    seen.add(id);
    const detail = (kind === 'tip' && labels.tip?.(id)) || e.preview || e.type;
    out.push({ key: `${sessionId}:${id}`, sessionId, leafId: id, kind, title: short(id), detail });
  };
  if (selectedId) add(selectedId, 'selected');
  if (leafId) add(leafId, 'leaf');
  for (const t of branchTips(entries)) add(t.id, 'tip');
  const links = [
    ...(lineage?.parent ? [{ link: lineage.parent, kind: 'parent' as const }] : []),
    ...(lineage?.children ?? []).map((link) => ({ link, kind: 'fork' as const })),
  ];
  for (const { link, kind } of links)
    out.push({
      key: `${link.sessionId}:`,
      sessionId: link.sessionId,
      kind,
      title: link.fileName,
      detail:
        labels.session?.(link.sessionId) ??
        (kind === 'parent'
          ? 'the session this one was forked from, at its leaf'
          : 'a fork of this session, at its leaf'),
    });
  return out;
}

/**
 * The picker as it opens. Side A picked before (and still offered or not) with another entry
 * selected now: A stays, B is the selection — so "select a node, open, Esc, select another, open,
 * Enter" compares two nodes of the graph. Otherwise A is the selection (or the leaf), B open.
 */
export function openingPicks(
  candidates: readonly Candidate[],
  lastA: Candidate | null,
): { list: Candidate[]; a: Candidate | null; b: Candidate | null; cursor: number } {
  const first = candidates[0] ?? null;
  if (lastA && first && lastA.key !== first.key) {
    const offered = candidates.find((c) => c.key === lastA.key);
    const list = offered ? [...candidates] : [{ ...lastA, kind: 'picked' as const }, ...candidates];
    return { list, a: offered ?? list[0]!, b: first, cursor: list.indexOf(first) };
  }
  return { list: [...candidates], a: first, b: null, cursor: Math.min(1, Math.max(0, candidates.length - 1)) };
}

/** Indexes of the rows that diverge, in order (the view steps through them). */
export function divergentRows(rows: readonly CompareRowDto[]): number[] {
  const out: number[] = [];
  rows.forEach((r, k) => {
    if (r.divergent) out.push(k);
  });
  return out;
}

/** The comparison with its sides swapped (rows' a/b too), so swapping needs no second request. */
export function swapped(c: CompareDto): CompareDto {
  return {
    ...c,
    sides: [c.sides[1], c.sides[0]],
    rows: c.rows.map((r) => ({ ...r, a: r.b, b: r.a })),
  };
}

/** The next (dir 1) or previous (dir -1) divergent row from `at`; `at` itself when there is none. */
export function stepDivergence(rows: readonly CompareRowDto[], at: number | null, dir: 1 | -1): number | null {
  const list = divergentRows(rows);
  if (list.length === 0) return null;
  if (at === null) return dir === 1 ? list[0]! : list[list.length - 1]!;
  const next = dir === 1 ? list.find((k) => k > at) : [...list].reverse().find((k) => k < at);
  return next ?? at;
}
