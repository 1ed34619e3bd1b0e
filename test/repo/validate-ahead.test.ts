import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonLineValidator, VERDICT_CHUNK as CHUNK } from '../../electron/core';
import { lineSpans } from '../fixtures/line-spans';
import { LiveSession } from '../../electron/repo/live';
import { validateAhead } from '../../electron/repo/validate-ahead';
import { scanLines } from '../../electron/storage/line-scan';

const pause = new Int32Array(new SharedArrayBuffer(4));

const dir = mkdtempSync(join(tmpdir(), 'canopy-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A session of ~5 MiB: long and short lines, some bad (cut short, a repeated id, bad JSON), some CRLF. */
function writeSession(path: string): { offset: number; length: number }[] {
  const texts = [
    JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' }),
  ];
  let parent: string | null = null;
  for (let i = 0; i < 600; i++) {
    const content = i % 6 === 0 ? `big ${'y'.repeat(50_000 + i)}` : `short ${i} "q" \\ é`;
    const id = `e${i}`;
    let text = JSON.stringify({
      type: 'message',
      id,
      parentId: parent,
      timestamp: '2026-01-01T00:00:01.000Z',
      message: { role: i % 2 ? 'assistant' : 'user', content },
    });
    parent = id;
    if (i % 41 === 5) text = text.slice(0, -1);
    if (i % 53 === 7) text = text.replace('"parentId"', '"id"');
    if (i % 59 === 9) text = text.replace('"message"', '"message":1,"x"');
    if (i % 67 === 0) text += '\r';
    texts.push(text);
  }
  writeFileSync(path, `${texts.join('\n')}\n`);
  return lineSpans(texts);
}

describe('validation ahead, on a helper thread', () => {
  const path = join(dir, 'big.jsonl');
  const lines = writeSession(path);

  it('reads chunks ahead and judges each line inside them as the validator does', async () => {
    const { ino, size } = statSync(path);
    expect(size).toBeGreaterThan(3 * CHUNK);
    const ahead = validateAhead(path, { ino, start: 0, size }, 0)!;
    expect(ahead).not.toBeNull();
    // The helper starts in tens of ms: the scan waits until it took chunk 1 (else it reads alone).
    for (let t = 0; t < 2000 && !ahead.helperTook(1); t++) Atomics.wait(pause, 0, 0, 5);
    const bytes = readFileSync(path);
    const validator = new JsonLineValidator();
    const got: { line: number; verdict: number; valid: boolean; crosses: boolean; chunk: number }[] = [];
    await scanLines(
      path,
      (b, start, end, line, offset) => {
        const length = end > start && b[end - 1] === 0x0d ? end - start - 1 : end - start;
        got.push({
          line,
          verdict: ahead.verdict(offset, length),
          valid: validator.valid(bytes, offset, offset + length),
          crosses: Math.floor(offset / CHUNK) !== Math.floor((offset + length) / CHUNK),
          chunk: Math.floor(offset / CHUNK),
        });
      },
      { share: () => ahead.share },
    );
    ahead.close();
    await ahead.settled;
    expect(got.length).toBe(lines.length);
    for (const g of got) {
      if (g.crosses) expect(g.verdict, `line ${g.line}`).toBe(-1);
      else if (g.verdict !== -1) expect(g.verdict, `line ${g.line}`).toBe(g.valid ? 1 : 0);
    }
    const known = got.filter((g) => g.verdict !== -1);
    expect(known.length).toBeGreaterThan(50); // at least chunk 1's lines
    expect(known.some((g) => g.verdict === 0)).toBe(true);
    // Chunk 1 was the helper's before the scan began, and it is in a slot of its own (not the
    // memory's first): every line inside it was judged there.
    const inChunk1 = got.filter((g) => g.chunk === 1 && !g.crosses);
    expect(inChunk1.length).toBeGreaterThan(50);
    for (const g of inChunk1) expect(g.verdict, `line ${g.line}`).not.toBe(-1);
  });

  it('reads nothing when the file is another one than the indexer opened', async () => {
    const { ino, size } = statSync(path);
    const ahead = validateAhead(path, { ino: ino + 1, start: 0, size }, 0)!;
    await ahead.settled; // the helper ends at once
    expect(ahead.helperTook(0)).toBe(false);
    const { buf, n } = ahead.share.take(0);
    expect(n).toBe(-1); // read here
    expect(buf.length).toBe(CHUNK + 1);
    ahead.close();
  });

  it('indexes the same session, issues included, with or without it', async () => {
    const alone = (await LiveSession.open(path, { verify: 'parse', aheadFromBytes: Infinity })).session;
    const helped = (await LiveSession.open(path, { verify: 'parse', aheadFromBytes: 0 })).session;
    expect(helped.issues).toEqual(alone.issues);
    expect(alone.issues.length).toBeGreaterThan(20);
    expect(helped.entries.map((e) => e.id)).toEqual(alone.entries.map((e) => e.id));
  });
});
