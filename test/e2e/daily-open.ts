/** The daily session written under a watching harness's root and opened in its page on the transcript tab. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAILY_ID, dailySessionText } from './daily-session';
import type { Harness } from './harness';

/** Returns the session file's path (appended to by the live tests). */
export async function openDaily(h: Harness): Promise<string> {
  const page = h.page;
  await h.services.watching;
  const dir = join(h.sessionsDir, '--home-you-projects-daily--');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `2026-03-02T09-00-00-000Z_${DAILY_ID}.jsonl`);
  writeFileSync(file, dailySessionText());
  await page.goto(h.server.url);
  await page.waitForSelector(`[data-testid="session-row"][data-session-id="${DAILY_ID}"]`, { timeout: 30_000 });
  await page.click(`[data-testid="session-row"][data-session-id="${DAILY_ID}"]`);
  await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${DAILY_ID}"]`);
  await page.click('[data-testid="tab-transcript"]');
  await page.waitForSelector('[data-testid="transcript-row"][data-entry-id="a4"]');
  return file;
}
