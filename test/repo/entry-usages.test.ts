/**
 * The cost ledgers of an indexed session come from usage facts gathered in the previews' one pass
 * over the file; they must equal the ledgers read entry by entry from the eagerly parsed file, with
 * odd usage records (toolResult usage, malformed records, usage entries) and appended lines.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSessionFile } from '../../bench/generate';
import { ledgerOf } from '../../electron/core';
import { LiveSession } from '../../electron/repo/live';
import { parseFileEagerly } from '../../electron/repo/session-file';
import { SessionBodies } from '../../electron/repo/session-bodies';
import type { ParsedSession } from '../../electron/core';

const entryUsages = (path: string, s: ParsedSession) => new SessionBodies(path).usageOf(s);

const root = mkdtempSync(join(tmpdir(), 'canopy-usages-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const usage = (n: number, total: unknown = n / 1000) => ({
  input: n,
  output: 2 * n,
  cacheRead: 3 * n,
  cacheWrite: 4,
  cost: { total },
});
const line = (o: object) => `${JSON.stringify(o)}\n`;

async function expectSameLedger(path: string, live: LiveSession): Promise<ReturnType<typeof ledgerOf>> {
  const eager = await parseFileEagerly(path);
  const usageOf = await entryUsages(path, live.session);
  const fromPass = ledgerOf(live.session.entries, usageOf);
  expect(fromPass).toEqual(ledgerOf(eager.entries));
  expect(fromPass.records.assistant).toBeGreaterThan(0);
  return fromPass;
}

describe('entryUsages', () => {
  it('gives the ledgers that reading every body gives, and follows appends', async () => {
    const path = join(root, 'gen.jsonl');
    writeSessionFile(path, { targetBytes: 300_000, seed: 5, scale: 0.2 });
    const live = await LiveSession.open(path);
    await expectSameLedger(path, live);

    const ts = '2026-02-01T00:00:00.000Z';
    appendFileSync(
      path,
      [
        line({
          type: 'message',
          id: 'tr',
          parentId: null,
          timestamp: ts,
          message: { role: 'toolResult', toolCallId: 'x', content: [], usage: usage(7) },
        }),
        line({
          type: 'message',
          id: 'bad',
          parentId: 'tr',
          timestamp: ts,
          message: { role: 'assistant', content: [], usage: usage(9, 'free') },
        }),
        line({ type: 'usage', id: 'u1', parentId: 'bad', timestamp: ts, usage: usage(11) }),
        line({
          type: 'compaction',
          id: 'c1',
          parentId: 'u1',
          timestamp: ts,
          summary: 's',
          firstKeptEntryId: 'tr',
          tokensBefore: 1,
          usage: usage(13),
        }),
        'junk\n',
        line({
          type: 'message',
          id: 'ok',
          parentId: 'c1',
          timestamp: ts,
          message: { role: 'assistant', content: [], usage: usage(17) },
        }),
      ].join(''),
    );
    await live.refresh();
    const after = await expectSameLedger(path, live);
    expect(after.records.usage).toBe(1);
    expect(after.records.toolResult).toBeGreaterThan(0);
    live.close();
  });

  it('answers from the pass: no body is read again (the file may even be gone)', async () => {
    const path = join(root, 'gone.jsonl');
    writeSessionFile(path, { targetBytes: 200_000, seed: 8, scale: 0.2 });
    const eager = await parseFileEagerly(path);
    const live = await LiveSession.open(path);
    const usageOf = await entryUsages(path, live.session);
    live.close();
    // Reading any body now fails (BodyError): every answer must come from the facts of the pass.
    rmSync(path);
    expect(ledgerOf(live.session.entries, usageOf)).toEqual(ledgerOf(eager.entries));
  });
});
