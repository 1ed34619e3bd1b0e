import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineTooLongError, readFirstLine, readLines, readRange, type StoredLine } from '../../electron/storage/read';
import { tempDir } from './tmp';

async function collect(path: string, opts: Parameters<typeof readLines>[1] = {}): Promise<StoredLine[]> {
  const out: StoredLine[] = [];
  for await (const line of readLines(path, opts)) out.push(line);
  return out;
}

/** Independent reference: split the bytes on '\n' in one go. */
function referenceLines(bytes: Buffer): StoredLine[] {
  const out: StoredLine[] = [];
  let start = 0;
  let line = 1;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    let textEnd = end;
    if (textEnd > start && bytes[textEnd - 1] === 0x0d) textEnd -= 1;
    out.push({
      line: line++,
      text: bytes.toString('utf8', start, textEnd),
      complete: nl !== -1,
      offset: start,
      length: end - start,
    });
    if (nl === -1) break;
    start = nl + 1;
  }
  return out;
}

describe('readLines', () => {
  it('matches a whole-buffer split for any content and any chunk size', async () => {
    const dir = await tempDir();
    const path = join(dir, 'f.jsonl');
    const piece = fc.constantFrom('a', '{"x":1}', '\n', '\r\n', '\r', ' ', 'é', '😀', '日本', '\n\n');
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 40 }),
        fc.integer({ min: 1, max: 17 }),
        async (pieces, chunkSize) => {
          const bytes = Buffer.from(pieces.join(''), 'utf8');
          await writeFile(path, bytes);
          expect(await collect(path, { chunkSize })).toEqual(referenceLines(bytes));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('splits multi-byte characters across chunk boundaries without damage', async () => {
    const dir = await tempDir();
    const path = join(dir, 'u.jsonl');
    const text = '{"t":"😀日本é"}\n{"t":"ü"}\n';
    await writeFile(path, text);
    for (let chunkSize = 1; chunkSize <= 8; chunkSize++) {
      const lines = await collect(path, { chunkSize });
      expect(lines.map((l) => l.text)).toEqual(['{"t":"😀日本é"}', '{"t":"ü"}']);
      expect(lines.map((l) => JSON.parse(l.text).t)).toEqual(['😀日本é', 'ü']);
    }
  });

  it('strips one CR before LF but keeps byte lengths exact', async () => {
    const dir = await tempDir();
    const path = join(dir, 'crlf.jsonl');
    await writeFile(path, '{"a":1}\r\n\r\n{"b":2}\r\n');
    const lines = await collect(path, { chunkSize: 3 });
    expect(lines).toEqual([
      { line: 1, text: '{"a":1}', complete: true, offset: 0, length: 8 },
      { line: 2, text: '', complete: true, offset: 9, length: 1 },
      { line: 3, text: '{"b":2}', complete: true, offset: 11, length: 8 },
    ]);
  });

  it('counts blank lines and marks a final line without newline incomplete', async () => {
    const dir = await tempDir();
    const path = join(dir, 'blank.jsonl');
    await writeFile(path, '\nA\n\n  \nB');
    const lines = await collect(path, { chunkSize: 2 });
    expect(lines.map((l) => [l.line, l.text, l.complete])).toEqual([
      [1, '', true],
      [2, 'A', true],
      [3, '', true],
      [4, '  ', true],
      [5, 'B', false],
    ]);
  });

  it('yields nothing for an empty file and one blank line for "\\n"', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'empty'), '');
    await writeFile(join(dir, 'nl'), '\n');
    expect(await collect(join(dir, 'empty'))).toEqual([]);
    expect(await collect(join(dir, 'nl'))).toEqual([{ line: 1, text: '', complete: true, offset: 0, length: 0 }]);
  });

  it('reads lines longer than 1 MiB whole, with the default and with small chunks', async () => {
    const dir = await tempDir();
    const path = join(dir, 'big.jsonl');
    const big = JSON.stringify({ type: 'message', blob: 'x'.repeat(3 * 1024 * 1024 + 17) });
    await writeFile(path, `{"type":"session"}\n${big}\n{"tail":true}`);
    for (const chunkSize of [undefined, 4096]) {
      const lines = await collect(path, { chunkSize });
      expect(lines).toHaveLength(3);
      expect(lines[1]!.text).toBe(big);
      expect(lines[1]!.offset).toBe(19);
      expect(lines[1]!.length).toBe(Buffer.byteLength(big));
      expect(lines[2]).toEqual({
        line: 3,
        text: '{"tail":true}',
        complete: false,
        offset: 19 + big.length + 1,
        length: 13,
      });
    }
  });

  it('starts at a byte offset with a given line number', async () => {
    const dir = await tempDir();
    const path = join(dir, 'off.jsonl');
    await writeFile(path, 'one\ntwo\nthree\n');
    expect(await collect(path, { fromOffset: 4, firstLine: 2, chunkSize: 3 })).toEqual([
      { line: 2, text: 'two', complete: true, offset: 4, length: 3 },
      { line: 3, text: 'three', complete: true, offset: 8, length: 5 },
    ]);
  });

  it.runIf(existsSync('/proc/self/fd'))(
    'closes the file when the consumer stops early (Linux: counts open fds)',
    async () => {
      const dir = await tempDir();
      const path = join(dir, 'stop.jsonl');
      await writeFile(path, 'a\nb\nc\n');
      const openFds = (): number => readdirSync('/proc/self/fd').length;
      const before = openFds();
      for (let i = 0; i < 50; i++) {
        for await (const line of readLines(path)) {
          expect(line.text).toBe('a');
          break;
        }
      }
      expect(openFds() - before).toBeLessThan(5);
    },
  );

  it('rejects for a missing file', async () => {
    const dir = await tempDir();
    await expect(collect(join(dir, 'nope'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readFirstLine', () => {
  it('returns the first line, its completeness, or null for an empty file', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a'), '{"type":"session"}\r\nrest\n');
    await writeFile(join(dir, 'b'), '{"type":"session"}');
    await writeFile(join(dir, 'c'), '');
    await writeFile(join(dir, 'd'), '\nsecond\n');
    expect(await readFirstLine(join(dir, 'a'), { chunkSize: 3 })).toEqual({
      text: '{"type":"session"}',
      complete: true,
      length: 19,
    });
    expect(await readFirstLine(join(dir, 'b'), { chunkSize: 5 })).toEqual({
      text: '{"type":"session"}',
      complete: false,
      length: 18,
    });
    expect(await readFirstLine(join(dir, 'c'))).toBeNull();
    expect(await readFirstLine(join(dir, 'd'))).toEqual({ text: '', complete: true, length: 0 });
  });

  it('gives up past maxBytes instead of reading a huge headerless file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'huge');
    await writeFile(path, 'y'.repeat(200_000));
    await expect(readFirstLine(path, { maxBytes: 10_000 })).rejects.toBeInstanceOf(LineTooLongError);
  });
});

describe('readRange', () => {
  it('reads exact byte ranges and stops at end of file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'r');
    await writeFile(path, 'hello\nworld\n');
    expect((await readRange(path, 6, 5)).toString()).toBe('world');
    expect((await readRange(path, 10, 100)).toString()).toBe('d\n');
  });

  it('re-reads any line from the offsets readLines reports', async () => {
    const dir = await tempDir();
    const path = join(dir, 'idx.jsonl');
    await writeFile(path, '{"a":"é"}\r\n\n{"b":"日本"}\n{"c"');
    for await (const line of readLines(path, { chunkSize: 4 })) {
      const raw = (await readRange(path, line.offset, line.length)).toString('utf8');
      expect(raw.replace(/\r$/, '')).toBe(line.text);
    }
  });
});
