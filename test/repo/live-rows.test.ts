/**
 * New and changed files reach every background pass through the catalog's row changes (one
 * subscription, app-services.ts): a session that appears while the app runs is searchable and
 * scanned by the secret radar without a new listing, and the store report is made again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/app-services';
import { assistant, header, jsonl, projectDirName, tempDir, user } from './helpers';

let app: AppServices | undefined;
afterEach(() => app?.close());

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a session that appears while the app runs', () => {
  it('is searchable and radar-scanned, and makes the store report stale, with no listing asked', async () => {
    const root = await tempDir('canopy-live-rows-');
    const dir = join(root, projectDirName('/p'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, '2026-03-01T10-00-00-000Z_old.jsonl'),
      jsonl([header('old', '/p'), user('u1', null, 'hello')]),
    );
    const env = {
      CANOPY_CACHE_DIR: await tempDir('canopy-live-rows-cache-'),
      CANOPY_DATA_DIR: await tempDir('canopy-live-rows-data-'),
    };
    app = createAppServices({ roots: [root], transport: 'http', watch: false, env });
    const h = app.handlers;
    await h['sessions.list']({});
    await Promise.all([app.secrets.idle(), app.search.idle()]);
    await until(async () => ((await h['store.report']({})).state === 'done' ? true : undefined), 'a first report');

    const token = `ghp_${'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4'}`;
    const path = join(dir, '2026-03-01T11-00-00-000Z_fresh.jsonl');
    writeFileSync(
      path,
      jsonl([
        header('fresh', '/p'),
        user('f1', null, 'zanzibarquokka please'),
        assistant('f2', 'f1', `token ${token}`),
      ]),
    );
    await app.catalog.followChanges([path]);
    const hits = await until(async () => {
      // The passes are asked directly: the channels list first, which would hand them the new file too.
      const r = await app!.search.query('zanzibarquokka');
      return r.hits.length > 0 ? r.hits : undefined;
    }, 'the new session found');
    expect(hits[0]!.sessionId).toBe('fresh');
    const found = await until(async () => (await app!.secrets.counts())['fresh'], 'the new session scanned');
    expect(found).toBeGreaterThan(0);
    expect((await h['store.report']({})).state).toBe('running');
  }, 60_000);
});
