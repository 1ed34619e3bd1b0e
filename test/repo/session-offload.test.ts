/**
 * Context views built in a worker thread (serve and the app): the same answer as built in process,
 * for every leaf and profile and for the errors; a worker past its time limit is ended and the next
 * call gets a new one. That a long path no longer holds the loop is a scale test
 * (test/scale/session-offload-loop.test.ts).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/app-services';
import { dispatch } from '../../electron/ipc/dispatch';
import { EncodedJson } from '../../electron/repo/encoded-json';
import { SessionOffload } from '../../electron/repo/session-offload';
import { SessionService } from '../../electron/repo/session-service';
import { SessionCatalog } from '../../electron/repo/catalog';
import type { ContextViewDto } from '../../electron/shared/context-dto';
import type { SessionGraphWireDto } from '../../electron/shared/entry-nodes';
import { header, projectDirName, sampleRoot, tempDir, user, writeSession } from './helpers';

const BRANCHED = '019c0000-0000-7000-8000-000000000001';
const H3 = '019c0000-0000-7000-8000-000000000002';
const LONG = '019c0000-0000-7000-8000-0000000000aa';

const running: AppServices[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

function both(root: string) {
  const here = createAppServices({ roots: [root], transport: 'http', watch: false });
  const worker = createAppServices({ roots: [root], transport: 'http', watch: false, offload: true });
  running.push(here, worker);
  return { here: here.handlers, worker: worker.handlers };
}

/** What a transport sends: the worker's bytes parsed, or the value as is. */
function sent(answer: { ok: boolean; data?: unknown; error?: unknown }): unknown {
  return answer.ok && answer.data instanceof EncodedJson ? { ok: true, data: answer.data.value() } : answer;
}

/** A chain of `n` entries. */
async function longRoot(n: number): Promise<string> {
  const root = await tempDir('canopy-offload-');
  const lines = [header(LONG, '/long')];
  for (let i = 0; i < n; i++) lines.push(user(`e${i}`, i ? `e${i - 1}` : null, `step ${i} of a long run`));
  await writeSession(join(root, projectDirName('/long')), 'long.jsonl', lines);
  return root;
}

describe('context views in a worker thread', () => {
  it('answers as the in-process view does, for each leaf, profile and error', async () => {
    const { root } = await sampleRoot();
    const { here, worker } = both(root);
    await here['sessions.list']({});
    await worker['sessions.list']({});
    const cases: unknown[] = [
      { sessionId: BRANCHED },
      { sessionId: BRANCHED, leafId: 'a2' },
      { sessionId: BRANCHED, leafId: null },
      { sessionId: H3 },
      { sessionId: H3, profile: 'ca' },
      { sessionId: BRANCHED, leafId: 'no-such-entry' },
      { sessionId: 'no-such-session' },
    ];
    let offloaded = 0;
    for (const args of cases) {
      const a = await dispatch(here, 'session.context', args);
      const b = await dispatch(worker, 'session.context', args);
      if (b.ok) {
        expect(b.data).toBeInstanceOf(EncodedJson);
        offloaded++;
      }
      expect(sent(b)).toEqual(JSON.parse(JSON.stringify(a)));
    }
    expect(offloaded).toBeGreaterThanOrEqual(5);
  }, 60_000);

  it('answers a big session’s graph (session.open from the index alone) as the in-process graph does', async () => {
    const { root } = await sampleRoot();
    // Every file is "big" here: the graph comes from the index alone, built in the worker.
    const catalog = new SessionCatalog({ roots: [root], lazyAboveBytes: 0 });
    await catalog.list();
    const offload = new SessionOffload();
    const here = new SessionService(catalog);
    const worker = new SessionService(catalog, offload);
    const cases: [string, ('ca' | 'h3')?, (string | null)?][] = [
      [BRANCHED],
      [BRANCHED, undefined, 'a2'],
      [BRANCHED, undefined, null],
      [H3],
      [H3, 'ca'],
    ];
    for (const [id, profile, leaf] of cases) {
      const a = await here.graph(id, profile, leaf);
      const b = await worker.graph(id, profile, leaf);
      expect(b).toBeInstanceOf(EncodedJson);
      const graph = (b as unknown as EncodedJson<SessionGraphWireDto>).value();
      expect(graph.pending).toBe(true);
      expect(graph).toEqual(JSON.parse(JSON.stringify(a)));
    }
    await expect(worker.graph('no-such-session')).rejects.toMatchObject({ code: 'not_found' });
    await offload.close();
  }, 60_000);

  it('a context past its time limit ends the worker; the next call gets a new one', async () => {
    // A 1 ms limit: the worker cannot even start within it, so the task is always stopped, however
    // fast or loaded the machine is (a slower machine only stops it more surely).
    const root = await longRoot(2_000);
    const services = createAppServices({ roots: [root], transport: 'http', watch: false });
    running.push(services);
    await services.handlers['sessions.list']({});
    const lost: string[] = [];
    const slow = new SessionOffload({ timeoutMs: 1, onWorkerLost: (w) => lost.push(w) });
    await expect(new SessionService(services.catalog, slow).context(LONG)).rejects.toMatchObject({
      code: 'io',
      message: expect.stringMatching(/longer than 1 ms/),
    });
    expect(lost).toHaveLength(1);
    await slow.close();
    const offload = new SessionOffload();
    const again = new SessionService(services.catalog, offload);
    const view = ((await again.context(LONG)) as unknown as EncodedJson<ContextViewDto>).value();
    expect(view.contextEntryIds).toHaveLength(2_000);
    await offload.close();
  }, 60_000);
});
