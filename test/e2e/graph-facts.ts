/** Opening a session by keyboard; what the graph shows is measured in bench/graph-facts.mjs. */
import type { Page } from 'playwright-core';

/** Opens a session through the palette (keyboard only). */
export async function openByPalette(page: Page, sessionId: string): Promise<void> {
  await page.waitForSelector('[data-testid="session-row"]');
  await page.keyboard.press('Control+k');
  await page.keyboard.type(sessionId);
  await page.waitForSelector('[data-testid="palette-item"][data-kind="session"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${sessionId}"]`);
}

export { fitFacts } from '../../bench/graph-facts.mjs';

/** Waits until the canvas stops moving (a fit's animation, a re-fit when a banner arrives). */
export async function settled(page: Page): Promise<void> {
  let last = '';
  for (let k = 0; k < 40; k++) {
    await page.waitForTimeout(200);
    const now = await page.$eval('.react-flow__viewport', (el) => (el as HTMLElement).style.transform);
    if (now === last) return;
    last = now;
  }
}
