import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchSessionRoots, type WatchBatch } from '../../electron/storage/watch';
import { tempDir } from './tmp';

function collector() {
  const batches: WatchBatch[] = [];
  const waitFor = async (pred: (all: WatchBatch[]) => boolean, ms = 5000): Promise<void> => {
    const until = Date.now() + ms;
    while (!pred(batches)) {
      if (Date.now() > until) throw new Error(`timed out; got ${JSON.stringify(batches)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const files = () => new Set(batches.flatMap((b) => b.files));
  const dirs = () => new Set(batches.flatMap((b) => b.dirs));
  return { batches, waitFor, files, dirs, push: (b: WatchBatch) => batches.push(b) };
}

for (const recursive of [false, true]) {
  describe(`watchSessionRoots (${recursive ? 'recursive' : 'per directory'})`, () => {
    it('reports new and appended .jsonl files in existing and new project dirs, debounced', async () => {
      const root = await tempDir();
      await mkdir(join(root, '--p--'));
      const c = collector();
      const stop = watchSessionRoots([root, join(root, 'missing')], c.push, { debounceMs: 50, recursive });
      try {
        await stop.ready;
        const a = join(root, '--p--', 'a.jsonl');
        await writeFile(a, '{"type":"session"}\n');
        for (let i = 0; i < 10; i++) await appendFile(a, `{"i":${i}}\n`);
        await writeFile(join(root, '--p--', 'ignored.txt'), 'x');
        await c.waitFor(() => c.files().has(a));
        // Eleven writes within the debounce window arrive as few batches, not one per write.
        expect(c.batches.length).toBeLessThan(5);

        await mkdir(join(root, '--q--'));
        if (!recursive) await c.waitFor(() => c.dirs().has(join(root, '--q--')));
        else await new Promise((r) => setTimeout(r, 200));
        const b = join(root, '--q--', 'b.jsonl');
        await writeFile(b, '{"type":"session"}\n');
        await c.waitFor(() => c.files().has(b));
        expect([...c.files()].every((f) => f.endsWith('.jsonl'))).toBe(true);
      } finally {
        stop();
      }
    });

    it('delivers a lone append at once (leading edge) and coalesces the burst after it', async () => {
      const root = await tempDir();
      await mkdir(join(root, '--p--'));
      const a = join(root, '--p--', 'a.jsonl');
      await writeFile(a, '{"type":"session"}\n');
      const c = collector();
      const stop = watchSessionRoots([root], c.push, { debounceMs: 400, recursive });
      try {
        await stop.ready;
        await new Promise((r) => setTimeout(r, 100));
        const t0 = Date.now();
        await appendFile(a, '{"i":0}\n');
        await c.waitFor(() => c.files().has(a));
        // A trailing 400 ms debounce could not have delivered it this soon.
        expect(Date.now() - t0).toBeLessThan(300);
        const n = c.batches.length;
        for (let i = 1; i <= 10; i++) await appendFile(a, `{"i":${i}}\n`);
        await new Promise((r) => setTimeout(r, 700));
        expect(c.batches.length - n).toBeGreaterThanOrEqual(1);
        expect(c.batches.length - n).toBeLessThanOrEqual(2);
      } finally {
        stop();
      }
    });

    it('delivers nothing after close', async () => {
      const root = await tempDir();
      await mkdir(join(root, '--p--'));
      const c = collector();
      const stop = watchSessionRoots([root], c.push, { debounceMs: 30, recursive });
      await stop.ready;
      await writeFile(join(root, '--p--', 'a.jsonl'), 'x\n');
      stop();
      await new Promise((r) => setTimeout(r, 200));
      expect(c.batches).toEqual([]);
    });
  });
}
