/** The graph at real size (issue 36): rows for the 100 MiB session's fit, zoom and pan (bench/render-graph.mjs). */
import type { FitFacts } from './graph-facts.mjs';

export interface GraphCase {
  fit: FitFacts;
  zoomedToLevel: number;
  zoomP95: number;
  panP95: number;
  maxFrame: number;
}

type Row = string[];
const dash = ['–', '–', '–', '–', '–', '–', '–'];

/** One row per target of the issue: click → first frame (from the click case), fit, frames. */
export function graphRows(
  g: GraphCase,
  click: { firstNode: number } | undefined,
  rows: Row[],
  ms: (x: number | undefined) => string,
): void {
  const f = g.fit;
  const readable = f.labels > 0 ? (100 * f.readable) / f.labels : 100;
  const ok = (b: boolean) => (b ? 'met' : 'NOT met');
  if (click)
    rows.push([
      'graph: click → first frame, 100 MiB session',
      ms(click.firstNode),
      ...dash,
      `(target ≤ 500 ms: ${ok(click.firstNode <= 500)})`,
    ]);
  rows.push([
    'graph: fit at 1280×800, 100 MiB session',
    `${f.drawn} nodes`,
    ...dash,
    `tips ${f.tipsShown}/${f.tipsTotal}, compactions ${f.compactionsShown}/${f.compactionsTotal} accounted for; ${readable.toFixed(1)} % of ${f.labels} labels ≥ 11 px; ${f.underOverview.length} nodes under the overview (targets: all, ≥ 95 %, 10–400 nodes, 0: ${ok(f.tipsShown === f.tipsTotal && f.compactionsShown === f.compactionsTotal && readable >= 95 && f.drawn >= 10 && f.drawn <= 400 && f.underOverview.length === 0)})`,
  ]);
  rows.push([
    'graph: zoom and pan frames p95, 100 MiB session',
    `${ms(g.zoomP95)} zoom, ${ms(g.panP95)} pan`,
    ...dash,
    `max ${ms(g.maxFrame)}; zoomed in to level ${g.zoomedToLevel} and back (target p95 ≤ 16 ms: ${ok(Math.max(g.zoomP95, g.panP95) <= 16)})`,
  ]);
}
