import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanLines, SyncLineReader } from '../../electron/storage/line-scan';

interface Seen {
  text: string;
  line: number;
  offset: number;
  complete: boolean;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'canopy-scan-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** What scanLines must report for `bytes`, computed the plain way. */
function expected(bytes: Buffer, firstLine = 1, base = 0): Seen[] {
  const out: Seen[] = [];
  let from = 0;
  let line = firstLine;
  for (;;) {
    const nl = bytes.indexOf(10, from);
    if (nl === -1) break;
    out.push({ text: bytes.toString('utf8', from, nl), line: line++, offset: base + from, complete: true });
    from = nl + 1;
  }
  if (from < bytes.length) out.push({ text: bytes.toString('utf8', from), line, offset: base + from, complete: false });
  return out;
}

async function scan(
  path: string,
  opts: Parameters<typeof scanLines>[2] = {},
): Promise<{ seen: Seen[]; result: Awaited<ReturnType<typeof scanLines>> }> {
  const seen: Seen[] = [];
  const result = await scanLines(
    path,
    (b, start, end, line, offset, complete) => {
      seen.push({ text: b.toString('utf8', start, end), line, offset, complete });
    },
    opts,
  );
  return { seen, result };
}

describe('scanLines', () => {
  const content = Buffer.from(
    ['{"a":1}', '', 'ünïcødé ✓ line', 'x'.repeat(300), '\r', 'crlf\r', '{"b":2}', 'tail without newline'].join('\n'),
  );

  it.each([1, 2, 3, 7, 64, 1024, 1024 * 1024])(
    'reports every line with its number and offset (chunks of %i bytes)',
    async (chunkSize) => {
      const path = join(dir, 's.jsonl');
      writeFileSync(path, content);
      const { seen, result } = await scan(path, { chunkSize });
      expect(seen).toEqual(expected(content));
      const lastNl = content.lastIndexOf(10);
      expect(result.endOffset).toBe(lastNl + 1);
      expect(result.pendingBytes).toBe(content.length - lastNl - 1);
      expect(result.nextLine).toBe(expected(content).length);
    },
  );

  it('starts at an offset with a given line number', async () => {
    const path = join(dir, 's.jsonl');
    writeFileSync(path, content);
    const from = content.indexOf(10) + 1;
    const { seen } = await scan(path, { chunkSize: 5, fromOffset: from, firstLine: 2 });
    expect(seen).toEqual(expected(content.subarray(from), 2, from));
  });

  it('reads lines appended while it runs (it reads until the file has no more bytes)', async () => {
    const path = join(dir, 's.jsonl');
    const first = Buffer.from(Array.from({ length: 50 }, (_, i) => `{"n":${i}}\n`).join(''));
    writeFileSync(path, first);
    const added = Buffer.from('{"late":true}\n');
    let appended = false;
    const seen: string[] = [];
    await scanLines(
      path,
      (b, start, end) => {
        seen.push(b.toString('utf8', start, end));
        if (!appended && seen.length === 10) {
          appendFileSync(path, added);
          appended = true;
        }
      },
      { chunkSize: 16 },
    );
    expect(seen).toEqual([...expected(first).map((s) => s.text), '{"late":true}']);
  });

  it('stops between chunks when aborted, with the abort reason', async () => {
    const path = join(dir, 's.jsonl');
    writeFileSync(path, Buffer.from('line\n'.repeat(1000)));
    const controller = new AbortController();
    let lines = 0;
    const run = scanLines(
      path,
      () => {
        if (++lines === 100) controller.abort(new Error('stop here'));
      },
      { chunkSize: 64, signal: controller.signal },
    );
    await expect(run).rejects.toThrow('stop here');
    expect(lines).toBeLessThan(1000);
  });

  it('reports progress per chunk up to the file size', async () => {
    const path = join(dir, 's.jsonl');
    writeFileSync(path, content);
    const progress: Array<[number, number]> = [];
    await scan(path, { chunkSize: 16, onProgress: (read, total) => progress.push([read, total]) });
    expect(progress.length).toBe(Math.ceil(content.length / 16));
    expect(progress[progress.length - 1]).toEqual([content.length, content.length]);
    for (let i = 1; i < progress.length; i++) expect(progress[i]![0]).toBeGreaterThan(progress[i - 1]![0]);
  });
});

describe('scanLines pause', () => {
  it('waits at a turn while paused and reads on, every line once, when released', async () => {
    const path = join(dir, 'long.jsonl');
    const lines = Array.from({ length: 4000 }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(200)}"}`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    let release: () => void = () => undefined;
    let hold: Promise<void> | null = new Promise((r) => (release = r));
    let seen = 0;
    const scan = scanLines(path, () => void seen++, { chunkSize: 16 * 1024, sliceMs: 0, pause: () => hold });
    await new Promise((r) => setTimeout(r, 30));
    const atPause = seen;
    expect(atPause).toBeGreaterThan(0);
    expect(atPause).toBeLessThan(lines.length);
    await new Promise((r) => setTimeout(r, 30));
    expect(seen).toBe(atPause);
    hold = null;
    release();
    await scan;
    expect(seen).toBe(lines.length);
  });
});

describe('SyncLineReader', () => {
  it('reads any range exactly, and a file rewritten in place anew', async () => {
    const path = join(dir, 'lines.jsonl');
    const bytes = Buffer.from(
      Array.from({ length: 20_000 }, (_, i) => `{"i":${i},"t":"${'é'.repeat(i % 40)}"}\n`).join(''),
    );
    writeFileSync(path, bytes);
    const reader = new SyncLineReader(path, statSync(path).ino);
    try {
      let seed = 5;
      for (let k = 0; k < 300; k++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        const offset = seed % (bytes.length - 600);
        const length = 1 + ((seed >>> 20) % 500);
        expect(reader.readBytes(offset, length).equals(bytes.subarray(offset, offset + length))).toBe(true);
      }
      // Rewritten in place (same inode): the next read sees the new bytes.
      reader.readBytes(0, 10);
      const changed = Buffer.from(bytes.toString('latin1').replace(/"i"/g, '"j"'), 'latin1');
      writeFileSync(path, changed);
      await new Promise((r) => setImmediate(r));
      expect(reader.readBytes(0, 100).equals(changed.subarray(0, 100))).toBe(true);
    } finally {
      reader.close();
    }
  });
});
