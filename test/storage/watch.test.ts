import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchSessionRoots, type WatchBatch } from '../../electron/storage/watch';
import { tempDir } from './tmp';

// What fs events deliver, in real time. The batch timing (leading edge, coalescing, close) is
// tested on a fake clock in watch-batch.test.ts: asserting it here made this file flaky on a busy
// machine (a write that takes longer than leadingMs is legitimately delivered in two batches).
function collector() {
  const batches: WatchBatch[] = [];
  const waitFor = async (pred: () => boolean, ms = 10_000): Promise<void> => {
    const until = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > until) throw new Error(`timed out; got ${JSON.stringify(batches)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const files = () => new Set(batches.flatMap((b) => b.files));
  const dirs = () => new Set(batches.flatMap((b) => b.dirs));
  return { batches, waitFor, files, dirs, push: (b: WatchBatch) => batches.push(b) };
}

/** Appends to `file` until the watcher reports it: a file written just after its directory was
 * made may be missed by a watcher still being set up (the catalog rescans reported dirs for that). */
async function appendUntilSeen(c: ReturnType<typeof collector>, file: string): Promise<void> {
  for (let attempt = 0; attempt < 50 && !c.files().has(file); attempt++) {
    await appendFile(file, `{"attempt":${attempt}}\n`);
    await c.waitFor(() => c.files().has(file), 200).catch(() => undefined);
  }
  expect(c.files().has(file)).toBe(true);
}

for (const recursive of [false, true]) {
  describe(`watchSessionRoots (${recursive ? 'recursive' : 'per directory'})`, () => {
    it('reports new and appended .jsonl files in existing and new project dirs, and only them', async () => {
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

        await mkdir(join(root, '--q--'));
        await c.waitFor(() => c.dirs().has(join(root, '--q--')));
        await appendUntilSeen(c, join(root, '--q--', 'b.jsonl'));
        expect([...c.files()].every((f) => f.endsWith('.jsonl'))).toBe(true);
      } finally {
        stop();
      }
    });

    it('delivers nothing after close', async () => {
      const root = await tempDir();
      await mkdir(join(root, '--p--'));
      const a = join(root, '--p--', 'a.jsonl');
      const c = collector();
      const stop = watchSessionRoots([root], c.push, { debounceMs: 30, recursive });
      await stop.ready;
      await writeFile(a, 'x\n');
      await c.waitFor(() => c.files().has(a));
      stop();
      const seen = c.batches.length;
      await appendFile(a, 'y\n');
      await writeFile(join(root, '--p--', 'b.jsonl'), 'z\n');
      await mkdir(join(root, '--r--'));
      await new Promise((r) => setTimeout(r, 300)); // no event to wait for: proving an absence
      expect(c.batches.length).toBe(seen);
    });
  });
}
