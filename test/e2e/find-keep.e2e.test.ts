/**
 * End to end on 1,500 small sessions, each holding a word of its own: the palette's first answer
 * for a word is the session holding it; the keyboard goes from the filter to an open session;
 * rename, tag, pin, trash and restore round trips leave every session file byte for byte as it was.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSmallStore, type SmallSession } from '../fixtures/small-store';
import { HAVE_CHROMIUM, startHarness, type Harness } from './harness';

const COUNT = 1500;

/** sha256 of every .jsonl file under `dir`, by path. */
function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.jsonl')) continue;
    const path = join(e.parentPath, e.name);
    out[path] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

describe.skipIf(!HAVE_CHROMIUM)('find and keep sessions in Chromium', () => {
  let h: Harness;
  let store: SmallSession[];
  let before: Record<string, string>;
  const row = (id: string) => `[data-testid="session-row"][data-session-id="${id}"]`;

  beforeAll(async () => {
    h = await startHarness({ perWriter: 1 });
    store = writeSmallStore(h.sessionsDir, COUNT);
    before = hashTree(h.sessionsDir);
    await h.page.goto(h.server.url);
    await h.page.waitForSelector('[data-testid="session-row"]');
  });
  afterAll(async () => {
    await h?.close();
  });

  const palette = async (text: string) => {
    await h.page.keyboard.press('Control+K');
    await h.page.waitForSelector('[data-testid="palette-input"]');
    await h.page.keyboard.type(text);
  };

  it("the palette's first answer for a planted word is the session holding it, the word marked", async () => {
    const { page } = h;
    for (const i of [5, 777, 1499]) {
      await palette(store[i]!.word);
      const first = await page.waitForSelector(`[data-testid="palette-item"][data-id="${store[i]!.id}"]`);
      const items = await page.$$('[data-testid="palette-item"]');
      expect(await items[0]!.getAttribute('data-id')).toBe(store[i]!.id);
      expect(await first.$eval('mark', (m) => m.textContent)).toBe(store[i]!.word);
      await page.keyboard.press('Escape');
    }
  });

  it('keyboard only: filter, ↓ moves a visible cursor, Enter opens that session', async () => {
    const { page } = h;
    await page.keyboard.press('/');
    await page.keyboard.type('"module 123"');
    // 123, then 1230…1239: the cursor starts on the first, ↓ moves it to the second.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 11);
    await page.keyboard.press('ArrowDown');
    const cursor = await page.waitForSelector('.virtual-row.cursor [data-testid="session-row"]');
    const id = (await cursor.getAttribute('data-session-id'))!;
    const rows = await page.$$eval('[data-testid="session-row"]', (els) =>
      els.map((e) => e.getAttribute('data-session-id')),
    );
    expect(rows.indexOf(id)).toBe(1);
    expect(await cursor.evaluate((e) => getComputedStyle(e).boxShadow)).not.toBe('none');
    expect(await cursor.$eval('mark', (m) => m.textContent)).toBe('module 123');
    await h.shot('find-keep-01-filter-cursor');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${id}"]`);
  });

  it('a pi session_info name hit is marked in the title, word by word', async () => {
    const { page } = h;
    await page.fill('[data-testid="session-filter"]', 'named session 57');
    const title = await page.waitForSelector(`${row(store[57]!.id)} [data-testid="session-title"]:has(mark)`);
    expect(await title.$$eval('mark', (ms) => ms.map((m) => m.textContent))).toEqual(['named', 'session', '57']);
  });

  it('rename, tag and pin from the keyboard: kept by Canopy, found by the filter; no session file written', async () => {
    const { page } = h;
    const s = store[123]!;
    await page.fill('[data-testid="session-filter"]', s.word);
    await page.click(row(s.id));
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${s.id}"]`);
    await page.keyboard.press('F2');
    await page.waitForSelector('[data-testid="keep-name"]:focus');
    await page.keyboard.type('Zanzibar release');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ship, urgent');
    await h.shot('find-keep-02-keep-dialog');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="keep-dialog"]', { state: 'detached' });
    await palette('pin unpin');
    await page.keyboard.press('Enter');
    await page.fill('[data-testid="session-filter"]', 'zanzibar');
    const found = await page.waitForSelector(row(s.id));
    expect(await found.$eval('[data-testid="session-title"] mark', (m) => m.textContent)).toBe('Zanzibar');
    expect(await found.$$eval('[data-testid="tag-pill"]', (els) => els.map((e) => e.textContent))).toEqual([
      '#ship',
      '#urgent',
    ]);
    await found.waitForSelector('[data-testid="pin-marker"]');
    await page.fill('[data-testid="session-filter"]', '');
    await page.selectOption('[data-testid="session-only"]', 'pinned');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length === 1);
    await page.selectOption('[data-testid="session-only"]', 'tag:urgent');
    await page.waitForSelector(row(s.id));
    await page.selectOption('[data-testid="session-only"]', '');
    const kept = await h.call<Record<string, { name: string; tags: string[]; pinned: boolean }>>('keep.get', {});
    expect(kept[s.id]).toMatchObject({ name: 'Zanzibar release', tags: ['ship', 'urgent'], pinned: true });
    expect(hashTree(h.sessionsDir)).toEqual(before);
  });

  it('trash a session with its fork (previewed), then restore both; every file as it was', async () => {
    const { page } = h;
    const fork = store.find((x) => x.parentId)!;
    const parent = store.find((x) => x.id === fork.parentId)!;
    await page.fill('[data-testid="session-filter"]', parent.word);
    await page.click(row(parent.id));
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${parent.id}"]`);
    await palette('move this session to the trash');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="keep-trash"]:focus');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="trash-preview"] li').length === 2);
    await h.shot('find-keep-03-trash-preview');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="keep-dialog"]', { state: 'detached' });
    await page.fill('[data-testid="session-filter"]', '');
    await page.waitForSelector(row(parent.id), { state: 'detached' });
    expect(Object.keys(hashTree(h.sessionsDir))).not.toContain(parent.path);
    expect(Object.keys(hashTree(h.sessionsDir))).not.toContain(fork.path);

    await palette('trash restore');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="trash-restore"]:focus');
    await h.shot('find-keep-04-trash-restore');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.querySelector('[data-testid="trash-restore"]'));
    await h.shot('find-keep-04b-restored');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="trash-dialog"]', { state: 'detached' });
    await page.fill('[data-testid="session-filter"]', parent.word);
    await page.waitForSelector(row(parent.id));
    expect(hashTree(h.sessionsDir)).toEqual(before);
  });

  it('looks right dark and light', async () => {
    const { page } = h;
    await page.fill('[data-testid="session-filter"]', 'module 12');
    await page.waitForSelector('[data-testid="session-row"] mark');
    await page.emulateMedia({ colorScheme: 'dark' });
    await h.shot('find-keep-05-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await h.shot('find-keep-06-light');
    expect(h.pageErrors).toEqual([]);
  });
});
