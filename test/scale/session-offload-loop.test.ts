/**
 * A long session's context and graph, built in the worker thread, no longer hold the loop that
 * answers requests. Each limit is a ratio against the in-process run measured in the same test, so
 * a loaded machine slows both sides and cannot fail it.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/app-services';
import { dispatch } from '../../electron/ipc/dispatch';
import { answerBytes } from '../../electron/ipc/serve-http';
import { EncodedJson } from '../../electron/repo/encoded-json';
import type { ContextViewDto } from '../../electron/shared/context-dto';
import type { SessionGraphWireDto } from '../../electron/shared/entry-nodes';
import { longestGap } from '../repo/loop-gap';
import { header, projectDirName, tempDir, user, writeSession } from '../repo/helpers';

const LONG = '019c0000-0000-7000-8000-0000000000aa';

const running: AppServices[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** What a transport sends: the worker's bytes parsed, or the value as is. */
function sent(answer: { ok: boolean; data?: unknown; error?: unknown }): unknown {
  return answer.ok && answer.data instanceof EncodedJson ? { ok: true, data: answer.data.value() } : answer;
}

/** Both services (in process and offloaded) over a chain of `n` entries, listed and opened once. */
async function bothOpen(n: number) {
  const root = await tempDir('canopy-offload-');
  const lines = [header(LONG, '/long')];
  for (let i = 0; i < n; i++) lines.push(user(`e${i}`, i ? `e${i - 1}` : null, `step ${i} of a long run`));
  await writeSession(join(root, projectDirName('/long')), 'long.jsonl', lines);
  const here = createAppServices({ roots: [root], transport: 'http', watch: false });
  const worker = createAppServices({ roots: [root], transport: 'http', watch: false, offload: true });
  running.push(here, worker);
  for (const s of [here, worker]) {
    await s.handlers['sessions.list']({});
    await s.handlers['session.open']({ sessionId: LONG });
  }
  return { here: here.handlers, worker: worker.handlers };
}

describe('a long session offloaded to the worker thread', () => {
  it('a long path’s context holds the worker, not this thread', async () => {
    const { here, worker } = await bothOpen(150_000);
    // Offloaded first: the in-process run's garbage would be collected during the other one.
    const inWorker = await longestGap(() => dispatch(worker, 'session.context', { sessionId: LONG }));
    const inProcess = await longestGap(() => dispatch(here, 'session.context', { sessionId: LONG }));
    const view = (sent(inWorker.value) as { data: ContextViewDto }).data;
    expect(view.contextEntryIds).toHaveLength(150_000);
    // The baseline is long enough to tell the two apart.
    expect(inProcess.gap).toBeGreaterThan(300);
    expect(inWorker.gap).toBeLessThan(inProcess.gap / 2);
  }, 180_000);

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
    const graph = (sent(inWorker.value.answer) as { data: SessionGraphWireDto }).data;
    expect(graph.pathIds).toHaveLength(299_999);
    expect(inWorker.value.body.equals(inProcess.value.body)).toBe(true);
    expect(inWorker.gap).toBeLessThan(inProcess.gap / 2);
  }, 180_000);
});
