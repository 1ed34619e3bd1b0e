/**
 * A service worker's call limit counts the call's own time: a new worker's start-up is not charged
 * to the call waiting for it (a query failed so on a loaded machine), a call past its limit still
 * ends the worker, and a worker that never starts serving is ended by a start limit of its own.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../electron/threads/service-client';
import { workerScript } from '../../electron/threads/worker-script';

const clients: ServiceClient<object>[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(startMs: number, startLimitMs?: number) {
  const lost: string[] = [];
  const c = new ServiceClient<object>({
    name: 'slow',
    script: workerScript('slow-service', join(__dirname, 'fixtures')),
    workerData: { startMs },
    status: {},
    stopped: (s) => s,
    onWorkerLost: (why) => lost.push(why),
    ...(startLimitMs !== undefined ? { startLimitMs } : {}),
  });
  clients.push(c);
  return { c, lost };
}

describe('ServiceClient time limits', () => {
  it("a new worker's start-up is not charged to the call that waits for it", async () => {
    const { c, lost } = client(1500);
    await expect(c.call('echo', ['hi'], 300)).resolves.toBe('hi');
    expect(lost).toEqual([]);
  });

  it('a call past its own limit ends the worker; the next call gets a new one', async () => {
    const { c, lost } = client(0);
    await expect(c.call('spin', [5000], 300)).rejects.toMatchObject({
      code: 'io',
      message: expect.stringMatching(/ran longer than 300 ms/),
    });
    expect(lost).toHaveLength(1);
    await expect(c.call('echo', [7], 300)).resolves.toBe(7);
  });

  it('a worker that never serves is ended by the start limit', async () => {
    const { c, lost } = client(-1, 1000);
    await expect(c.call('echo', ['hi'], 300)).rejects.toMatchObject({
      code: 'internal',
      message: expect.stringMatching(/did not start within 1000 ms/),
    });
    expect(lost).toHaveLength(1);
  });
});
