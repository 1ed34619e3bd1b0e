/**
 * The session list's filter, per keystroke, on N sessions in memory (the renderer's own code:
 * the list's own typing memo over buildSidebarRows, pi's ranking): each prefix of a few queries typed one letter at a time,
 * grouped by project. The first keystroke also lower-cases every session's fields once (cached).
 */
import { sidebarRowsWhileTyping } from '../renderer/src/features/sessions/rows';
import { syntheticList } from '../test/fixtures/synthetic-list';

/** ms of each keystroke of each query: the first keystroke (cold caches) apart from the rest. */
export function filterKeystrokes(n: number): Record<string, unknown> {
  const { list, summaries } = syntheticList(n);
  const queries = ['zebrafish', 'auth token', 'proj 12', 'named'];
  const times: number[] = [];
  let first = 0;
  let shown = 0;
  const build = sidebarRowsWhileTyping();
  for (const q of queries) {
    for (let k = 1; k <= q.length; k++) {
      const t0 = performance.now();
      const rows = build(list, summaries, { query: q.slice(0, k), sort: 'modified', collapsed: {} });
      const ms = performance.now() - t0;
      if (times.length === 0 && first === 0) first = ms;
      else times.push(ms);
      if (k === q.length && q === 'zebrafish') shown = rows.filter((r) => r.kind === 'session').length;
    }
  }
  times.sort((a, b) => a - b);
  return {
    ms: times[Math.floor(times.length / 2)],
    maxMs: times[times.length - 1],
    firstMs: first,
    keystrokes: times.length + 1,
    sessions: n,
    zebrafishHits: shown,
  };
}
