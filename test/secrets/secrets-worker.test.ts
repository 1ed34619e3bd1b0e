/**
 * The app's secret radar runs in a worker thread: the same findings and counts as in process, its
 * status as events, the same cache file, and a scan that waits while a session opens here.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenGate } from '../../electron/threads/open-gate';
import { SecretsClient } from '../../electron/secrets/secrets-client';
import { SecretsService, type SecretsStatus } from '../../electron/secrets/secrets-service';
import { writePlantedSession } from '../fixtures/secrets/session';
import { tempDir } from '../repo/helpers';

const open: SecretsClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('the secret radar in a worker thread', () => {
  it('finds what the in-process radar finds, reporting its progress', async () => {
    const root = await tempDir('canopy-secrets-w-root-');
    const s = await writePlantedSession(join(root, '--work-proj--'));
    const local = new SecretsService({ roots: [root], env: { CANOPY_CACHE_DIR: await tempDir('canopy-sw-a-') } });
    const seen: SecretsStatus[] = [];
    const worker = new SecretsClient({
      roots: [root],
      env: { CANOPY_CACHE_DIR: await tempDir('canopy-sw-b-') },
      onStatus: (st) => seen.push(st),
    });
    open.push(worker);
    await local.update([s.path]);
    await worker.listed([s.path]);
    const a = (await local.secretsOf(s.path))!;
    const b = (await worker.secretsOf(s.path))!;
    expect(b.findings.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
    expect(await worker.counts()).toEqual(await local.counts());
    expect(seen.at(-1)).toMatchObject({ scanning: false, done: 1, total: 1 });
    expect(worker.getStatus()).toEqual(seen.at(-1));
  }, 60_000);

  it('waits while a session opens in this thread', async () => {
    const root = await tempDir('canopy-secrets-w-root-');
    const s = await writePlantedSession(join(root, '--work-proj--'));
    const gate = new OpenGate();
    const worker = new SecretsClient({ roots: [root], env: { CANOPY_CACHE_DIR: await tempDir('canopy-sw-c-') }, gate });
    open.push(worker);
    let done: () => void = () => undefined;
    const opening = gate.during(new Promise<void>((r) => (done = r)));
    let scanned = false;
    const pass = worker.listed([s.path]).then(() => (scanned = true));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(scanned).toBe(false);
    done();
    await opening;
    await pass;
    expect((await worker.secretsOf(s.path))?.findings.length).toBeGreaterThan(0);
  }, 60_000);
});
