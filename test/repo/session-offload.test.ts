/**
 * Context views built in a worker thread (serve and the app): the same answer as built in process,
 * for every leaf and profile and for the errors; a long path's context no longer holds the loop
 * that answers requests; a worker past its time limit is ended and the next call gets a new one.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/app-services';
import { dispatch } from '../../electron/ipc/dispatch';
import { answerBytes } from '../../electron/ipc/serve-http';
import { EncodedJson } from '../../electron/repo/encoded-json';
import { SessionOffload } from '../../electron/repo/session-offload';
import { SessionService } from '../../electron/repo/session-service';
import { SessionCatalog } from '../../electron/repo/catalog';
import type { ContextViewDto } from '../../electron/shared/context-dto';
import type { SessionGraphWireDto } from '../../electron/shared/entry-nodes';
import { longestGap } from './loop-gap';
import { header, projectDirName, sampleRoot, tempDir, user, writeSession } from './helpers';

const BRANCHED = '019c0000-0000-7000-8000-000000000001';
const H3 = '019c0000-0000-7000-8000-000000000002';
const LONG = '019c0000-0000-7000-8000-0000000000aa';

const running: AppServices[] = [];
afterEach(() => {
  for (const s of running.splice(0)) s.close();
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

/** A chain of `n` entries: its context is seconds of work on one thread. */
async function longRoot(n: number): Promise<string> {
  const root = await tempDir('canopy-offload-');
  const lines = [header(LONG, '/long')];
  for (let i = 0; i < n; i++) lines.push(user(`e${i}`, i ? `e${i - 1}` : null, `step ${i} of a long run`));
  await writeSession(join(root, projectDirName('/long')), 'long.jsonl', lines);
  return root;
}

/** Both services over a chain of `n` entries, listed and opened once. */
async function bothOpen(n: number) {
  const { here, worker } = both(await longRoot(n));
  await here['sessions.list']({});
  await worker['sessions.list']({});
  await here['session.open']({ sessionId: LONG });
  await worker['session.open']({ sessionId: LONG });
  return { here, worker };
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

  it('a long path’s context holds the worker, not this thread', async () => {
    const { here, worker } = await bothOpen(150_000);
    // Offloaded first: the in-process run's garbage would be collected during the other one.
    const inWorker = await longestGap(() => dispatch(worker, 'session.context', { sessionId: LONG }));
    const inProcess = await longestGap(() => dispatch(here, 'session.context', { sessionId: LONG }));
    console.log(
      `150,000-entry context: longest gap of this thread in process ${inProcess.gap.toFixed(0)} ms, offloaded ${inWorker.gap.toFixed(0)} ms`,
    );
    const view = (sent(inWorker.value) as { data: ContextViewDto }).data;
    expect(view.contextEntryIds).toHaveLength(150_000);
    expect(inProcess.gap).toBeGreaterThan(300);
    expect(inWorker.gap).toBeLessThan(250);
  }, 120_000);

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

  it('a long session’s graph holds the worker, not this thread', async () => {
    // Indexed once (this thread's pass gives the loop a turn every 25 ms), then the graph alone, at
    // another leaf, and the body serve sends.
    const { here, worker } = await bothOpen(300_000);
    const served = async (handlers: typeof here) => {
      const answer = await dispatch(handlers, 'session.open', { sessionId: LONG, leafId: 'e299998' });
      return { answer, body: answerBytes(answer) };
    };
    const inWorker = await longestGap(() => served(worker));
    const inProcess = await longestGap(() => served(here));
    console.log(
      `300,000-entry graph: longest gap of this thread in process ${inProcess.gap.toFixed(0)} ms, offloaded ${inWorker.gap.toFixed(0)} ms`,
    );
    const graph = (sent(inWorker.value.answer) as { data: SessionGraphWireDto }).data;
    expect(graph.pathIds).toHaveLength(299_999);
    expect(inWorker.value.body.equals(inProcess.value.body)).toBe(true);
    expect(inWorker.gap).toBeLessThan(inProcess.gap / 2);
  }, 120_000);

  it('a context past its time limit ends the worker; the next call gets a new one', async () => {
    const root = await longRoot(100_000);
    const services = createAppServices({ roots: [root], transport: 'http', watch: false });
    running.push(services);
    await services.handlers['sessions.list']({});
    const lost: string[] = [];
    const slow = new SessionService(
      services.catalog,
      new SessionOffload({ timeoutMs: 50, onWorkerLost: (w) => lost.push(w) }),
    );
    await expect(slow.context(LONG)).rejects.toMatchObject({
      code: 'io',
      message: expect.stringMatching(/longer than 50 ms/),
    });
    expect(lost).toHaveLength(1);
    const offload = new SessionOffload();
    const again = new SessionService(services.catalog, offload);
    const view = ((await again.context(LONG)) as unknown as EncodedJson<ContextViewDto>).value();
    expect(view.contextEntryIds).toHaveLength(100_000);
    await offload.close();
  }, 120_000);
});
