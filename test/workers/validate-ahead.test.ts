import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonLineValidator, VERDICT_CHUNK as CHUNK } from '../../electron/core';
import { lineSpans } from '../fixtures/line-spans';
import { LiveSession } from '../../electron/repo/live';
import { validateAhead } from '../../electron/repo/validate-ahead';

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

  it('reads the file itself and vouches for each line inside a chunk as the validator judges it', async () => {
    const stat = statSync(path);
    expect(stat.size).toBeGreaterThan(3 * CHUNK);
    const ahead = validateAhead(path, { ino: stat.ino, size: stat.size }, 0, 0)!;
    expect(ahead).not.toBeNull();
    await ahead.settled; // asked nothing yet: the helper validates every chunk, from the last to the first, then ends
    const bytes = readFileSync(path);
    const validator = new JsonLineValidator();
    let known = 0;
    let bad = 0;
    lines.forEach((l, i) => {
      const v = ahead.verdict(l.offset, l.length);
      const crosses = Math.floor(l.offset / CHUNK) !== Math.floor((l.offset + l.length) / CHUNK);
      if (crosses) return expect(v, `line ${i + 1}`).toBe(-1);
      const valid = validator.valid(bytes, l.offset, l.offset + l.length);
      expect(v, `line ${i + 1}`).toBe(valid ? 1 : 0);
      known++;
      if (!valid) bad++;
    });
    ahead.close();
    expect(known).toBeGreaterThan(500);
    expect(bad).toBeGreaterThan(20);
  });

  it('vouches for nothing when the file is another one than the indexer opened', async () => {
    const stat = statSync(path);
    const ahead = validateAhead(path, { ino: stat.ino + 1, size: stat.size }, 0, 0)!;
    await ahead.settled;
    expect(lines.every((l) => ahead.verdict(l.offset, l.length) === -1)).toBe(true);
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
