import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../electron/threads/pool';

/** A worker in plain JS (eval): the pool's protocol, with tasks that echo, spin, die or sum moved bytes. */
const SCRIPT = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, task }) => {
  if (task.op === 'echo') return parentPort.postMessage({ id, ok: true, value: task.value });
  if (task.op === 'spin') { const end = Date.now() + task.ms; while (Date.now() < end); return parentPort.postMessage({ id, ok: true, value: 'spun' }); }
  if (task.op === 'die') process.exit(3);
  if (task.op === 'throw') return parentPort.postMessage({ id, ok: false, error: { message: 'bad task' } });
  if (task.op === 'crash') setImmediate(() => { throw new Error('boom'); });
  if (task.op === 'sum') { const b = new Uint8Array(task.buffer); let s = 0; for (const x of b) s += x; const out = new Float64Array([s]); return parentPort.postMessage({ id, ok: true, value: out.buffer }, [out.buffer]); }
});
`;

const pools: WorkerPool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});

function pool(opts: { size?: number; timeoutMs?: number } = {}): WorkerPool {
  const lost: string[] = [];
  const p = new WorkerPool({ script: SCRIPT, eval: true, ...opts, onWorkerLost: (r) => lost.push(r) });
  pools.push(p);
  return p;
}

describe('WorkerPool', () => {
  it('runs tasks on at most `size` workers, queueing the rest', async () => {
    const p = pool({ size: 2 });
    const results = await Promise.all([1, 2, 3, 4, 5].map((value) => p.run({ op: 'echo', value })));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(p.workers).toBeLessThanOrEqual(2);
  });

  it('a task past its time limit is stopped with an error; the next task is answered by a new worker', async () => {
    const p = pool({ size: 1 });
    // The spin ends on the wall clock, so however loaded the machine is, only the limit ends it sooner.
    const started = Date.now();
    await expect(p.run({ op: 'spin', ms: 20_000 }, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'io' });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await p.run({ op: 'echo', value: 'next' })).toBe('next');
  });

  it('a cancelled task ends at once (running or queued)', async () => {
    const p = pool({ size: 1 });
    const ac = new AbortController();
    const running = p.run({ op: 'spin', ms: 20_000 }, { signal: ac.signal });
    const queued = p.run({ op: 'echo', value: 'q' }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    await expect(running).rejects.toMatchObject({ code: 'cancelled' });
    await expect(queued).rejects.toMatchObject({ code: 'cancelled' });
    expect(await p.run({ op: 'echo', value: 'after' })).toBe('after');
  });

  it('a worker that dies or crashes answers its task with an error and is replaced; the process lives', async () => {
    const p = pool({ size: 1 });
    await expect(p.run({ op: 'die' })).rejects.toMatchObject({ code: 'internal' });
    await expect(p.run({ op: 'crash' })).rejects.toMatchObject({
      code: 'internal',
      message: expect.stringContaining('boom') as string,
    });
    await expect(p.run({ op: 'throw' })).rejects.toMatchObject({ message: 'bad task' });
    expect(await p.run({ op: 'echo', value: 'alive' })).toBe('alive');
  });

  it('moves buffers both ways (typed-array columns are transferred, not copied)', async () => {
    const p = pool();
    const bytes = new Uint8Array(1 << 20).fill(2);
    const out = await p.run<ArrayBuffer>({ op: 'sum', buffer: bytes.buffer }, { transfer: [bytes.buffer] });
    expect(bytes.byteLength).toBe(0); // moved away
    expect(new Float64Array(out)[0]).toBe(2 * (1 << 20));
  });

  it('the calling loop keeps its timers on time while a worker spins', async () => {
    const p = pool();
    const SPIN_MS = 600;
    const spinning = p.run({ op: 'spin', ms: SPIN_MS });
    const lags: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await new Promise((r) => setTimeout(r, 10));
      lags.push(performance.now() - t - 10);
    }
    await spinning;
    lags.sort((a, b) => a - b);
    // Spun on this thread, one timer would wait the whole spin (a wall-clock span, load or not).
    expect(lags[Math.floor(lags.length * 0.95)]!).toBeLessThan(SPIN_MS / 2);
  });
});
