/** What the graph shows on screen, read from the DOM (the e2e tests' and the benchmark's measure). */
import type { Page } from 'playwright-core';

export interface FitFacts {
  /** Drawn nodes inside the pane. */
  drawn: number;
  kinds: string[];
  tipsShown: number;
  tipsTotal: number;
  compactionsShown: number;
  compactionsTotal: number;
  /** Text labels on the drawn nodes, and those ≥ 11 px on screen. */
  labels: number;
  readable: number;
  underOverview: string[];
  outside: string[];
}

/** Opens a session through the palette (keyboard only). */
export async function openByPalette(page: Page, sessionId: string): Promise<void> {
  await page.waitForSelector('[data-testid="session-row"]');
  await page.keyboard.press('Control+k');
  await page.keyboard.type(sessionId);
  await page.waitForSelector('[data-testid="palette-item"][data-kind="session"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${sessionId}"]`);
}

export function fitFacts(page: Page): Promise<FitFacts> {
  return page.evaluate(() => {
    const pane = document.querySelector('[data-testid="graph-canvas"]')!.getBoundingClientRect();
    const overview = document.querySelector('[data-testid="graph-overview"]');
    const ov = overview?.getBoundingClientRect();
    const hit = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const inside = (r: DOMRect) =>
      r.right > pane.left && r.left < pane.right && r.bottom > pane.top && r.top < pane.bottom;
    const nodes = [...document.querySelectorAll<HTMLElement>('.react-flow__node')].filter((n) =>
      inside(n.getBoundingClientRect()),
    );
    const num = (n: HTMLElement, key: string) => Number(n.getAttribute(key) ?? 0);
    let tipsShown = 0;
    let compactionsShown = 0;
    let labels = 0;
    let readable = 0;
    const underOverview: string[] = [];
    const outside: string[] = [];
    const kinds = new Set<string>();
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
        outside.push(n.dataset.id ?? '?');
      for (const el of n.querySelectorAll<HTMLElement>('.node-title, .node-preview')) {
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
