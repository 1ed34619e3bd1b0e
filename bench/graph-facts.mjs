// What the graph shows on screen, read from the DOM in Chromium: shared by the e2e tests
// (test/e2e/graph-lod.e2e.test.ts) and the benchmark (bench/render-graph.mjs), so both measure the
// issue's targets the same way. Nodes count when inside the canvas pane; a label (node title or
// preview) is readable when its font size times the canvas zoom is at least 11 px.

/** @param {import('playwright-core').Page} page */
export function fitFacts(page) {
  return page.evaluate(() => {
    const pane = document.querySelector('[data-testid="graph-canvas"]').getBoundingClientRect();
    const overview = document.querySelector('[data-testid="graph-overview"]');
    const ov = overview?.getBoundingClientRect();
    const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const inside = (r) => r.right > pane.left && r.left < pane.right && r.bottom > pane.top && r.top < pane.bottom;
    const nodes = [...document.querySelectorAll('.react-flow__node')].filter((n) => inside(n.getBoundingClientRect()));
    const num = (n, key) => Number(n.getAttribute(key) ?? 0);
    let tipsShown = 0;
    let compactionsShown = 0;
    let labels = 0;
    let readable = 0;
    const underOverview = [];
    const outside = [];
    const kinds = new Set();
    for (const n of nodes) {
      const kind = n.dataset.kind ?? '';
      kinds.add(kind);
      if (kind === 'entry') {
        if (n.dataset.tip === 'true') tipsShown++;
        if (n.dataset.entryKind === 'compaction') compactionsShown++;
      } else {
        tipsShown += num(n, 'data-tips');
        compactionsShown += num(n, 'data-compactions');
      }
      const r = n.getBoundingClientRect();
      if (ov && hit(r, ov)) underOverview.push(n.dataset.id ?? '?');
      if (r.left < pane.left - 1 || r.right > pane.right + 1 || r.top < pane.top - 1 || r.bottom > pane.bottom + 1)
        outside.push(
          `${n.dataset.id} (${[r.left - pane.left, pane.right - r.right, r.top - pane.top, pane.bottom - r.bottom].map(Math.round).join(' ')})`,
        );
      for (const el of n.querySelectorAll('.node-title, .node-preview')) {
        if (!el.textContent?.trim()) continue;
        labels++;
        const size = parseFloat(getComputedStyle(el).fontSize);
        const scale = el.getBoundingClientRect().height / Math.max(1, el.offsetHeight);
        if (size * scale >= 10.95) readable++;
      }
    }
    return {
      drawn: nodes.length,
      kinds: [...kinds],
      tipsShown,
      tipsTotal: Number(overview?.getAttribute('data-tips') ?? -1),
      compactionsShown,
      compactionsTotal: Number(overview?.getAttribute('data-compactions') ?? -1),
      labels,
      readable,
      underOverview,
      outside,
    };
  });
}
