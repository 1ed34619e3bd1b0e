/**
 * Graph-node previews for an indexed session come from one sequential pass over the file; they
 * must equal previewEntry over the eagerly parsed entries, and follow appends (a provisional last
 * line replaced by its complete version included).
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSessionFile } from '../../bench/generate';
import { previewEntry } from '../../electron/core/rules/entry-preview';
import { LiveSession } from '../../electron/repo/live';
import { parseFileEagerly } from '../../electron/repo/session-file';
import { SessionBodies } from '../../electron/repo/session-bodies';
import type { ParsedSession } from '../../electron/core';

/** One SessionBodies per file, as its open session in a store keeps it. */
const bodies = new Map<string, SessionBodies>();
function entryPreviews(path: string, s: ParsedSession) {
  let b = bodies.get(path);
  if (!b) bodies.set(path, (b = new SessionBodies(path)));
  return b.previews(s);
}

const root = mkdtempSync(join(tmpdir(), 'canopy-previews-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function expectSamePreviews(path: string, live: LiveSession): Promise<void> {
  const eager = await parseFileEagerly(path);
  const got = await entryPreviews(path, live.session);
  expect(got).toEqual(eager.entries.map((e) => previewEntry(e)));
}

describe('entryPreviews', () => {
  it('equal previewEntry on the eager parse, and extend with appended entries', async () => {
    const path = join(root, 'gen.jsonl');
    writeSessionFile(path, { targetBytes: 400_000, seed: 3, scale: 0.2 });
    // Odd lines between entries: blank, junk, CRLF, a line H3 rejects but CA keeps.
    appendFileSync(
      path,
      [
        '',
        'junk',
        '{"type":"message","id":"crlf","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"crlf"}}\r',
        '{"type":"message","id":"nots","parentId":"crlf","message":{"role":"assistant","content":[{"type":"text","text":"no timestamp"}]}}',
        '',
      ].join('\n'),
    );
    const live = await LiveSession.open(path);
    await expectSamePreviews(path, live);

    appendFileSync(
      path,
      '{"type":"message","id":"late","parentId":"nots","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"part',
    );
    await live.refresh();
    await expectSamePreviews(path, live);
    appendFileSync(path, 'ial no more"}}\n');
    await live.refresh();
    await expectSamePreviews(path, live);
    const last = (await entryPreviews(path, live.session)).at(-1);
    expect(last?.preview).toBe('partial no more');
    live.close();
  });

  it('concurrent calls give the same list once', async () => {
    const path = join(root, 'small.jsonl');
    writeFileSync(
      path,
      [
        '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}',
        '{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"one"}}',
        '{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"two"}}',
        '',
      ].join('\n'),
    );
    const live = await LiveSession.open(path);
    const [x, y] = await Promise.all([entryPreviews(path, live.session), entryPreviews(path, live.session)]);
    expect(x.map((p) => p.preview)).toEqual(['one', 'two']);
    expect(y).toEqual(x);
    live.close();
  });
});
