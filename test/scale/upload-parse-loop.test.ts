/** A 64 MB upload is parsed in a worker: the loop that answers requests keeps its timers meanwhile. */
import { afterEach, describe, expect, it } from 'vitest';
import { BodyParser } from '../../electron/ipc/body-parser';

const parsers: BodyParser[] = [];
afterEach(async () => {
  for (const p of parsers.splice(0)) await p.close();
});

describe('request bodies at scale', () => {
  it('the loop keeps its timers on time while a 64 MB upload is parsed', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'a.jsonl', text: '{"type":"message"}\n'.repeat(3_500_000) }));
    // The baseline: how long parsing it here holds this loop, measured in this run (load slows both).
    const t0 = performance.now();
    JSON.parse(body.toString('utf8'));
    const here = performance.now() - t0;
    const parser = new BodyParser({ workers: 2, timeoutMs: 600_000, log: () => {} });
    parsers.push(parser);
    const parsing = parser.parse(body);
    const lags: number[] = [];
    let done = false;
    void parsing.then(() => (done = true));
    while (!done) {
      const t = performance.now();
      await new Promise((r) => setTimeout(r, 5));
      lags.push(performance.now() - t - 5);
    }
    expect((await parsing).ok).toBe(true);
    lags.sort((a, b) => a - b);
    expect(lags.length).toBeGreaterThan(3);
    expect(lags[Math.floor(lags.length * 0.95)]!).toBeLessThan(here / 2);
  });
});
