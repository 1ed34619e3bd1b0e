/**
 * The store's budget counts what an open session really holds: a one-line session is not a few
 * hundred bytes but its columns' first capacity and its reader's buffer (~200 KB measured), so
 * 10,000 opens of small sessions stay within the budget instead of reaching gigabytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../electron/repo/session-store';
import { header, jsonl, tempDir, user } from '../repo/helpers';

/** The least an open one-line session holds (its typed-array columns alone, engine/entry-store.ts and id-table.ts). */
const SMALL_SESSION_FLOOR = 100 * 1024;

describe('the session store budget', () => {
  it('10,000 opens of small sessions keep the store within its budget, counted in real bytes', async () => {
    const dir = await tempDir('canopy-budget-');
    const budget = 16 * 1024 * 1024;
    const store = new SessionStore({ budgetBytes: budget });
    const files = 10_000;
    let most = 0;
    for (let i = 0; i < files; i++) {
      const path = join(dir, `s${i}.jsonl`);
      writeFileSync(path, jsonl([header(`s${i}`, '/p'), user(`u${i}`, null, 'hi')]));
      await store.with(path, (s) => s.entries.length);
      most = Math.max(most, store.paths().length);
      expect(store.bytes()).toBeLessThanOrEqual(budget);
    }
    // Each counts at least what its columns allocate: no more sessions are kept than that allows.
    expect(most).toBeLessThanOrEqual(Math.ceil(budget / SMALL_SESSION_FLOOR));
    expect(most).toBeGreaterThan(10);
    store.clear();
  }, 120_000);
});
