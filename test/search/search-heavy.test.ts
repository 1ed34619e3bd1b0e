/**
 * Screenshots in the search index: image data is cut before a line is parsed and never indexed,
 * the text beside it is; and indexing gives way mid-file while a session opens.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SearchService } from '../../electron/search/search-service';
import { OpenGate } from '../../electron/threads/open-gate';
import { assistant, header, projectDirName, tempDir, user, writeSession } from '../repo/helpers';

type Rec = Record<string, unknown>;

function withImage(e: Rec, data: string): Rec {
  const m = e.message as { content: unknown[] };
  return { ...e, message: { ...m, content: [...m.content, { type: 'image', data, mimeType: 'image/png' }] } };
}

describe('search index and heavy lines', () => {
  it('indexes the text of a screenshot line, never its image data', async () => {
    const root = await tempDir('canopy-search-root-');
    const cache = await tempDir('canopy-search-cache-');
    const data = `${'QUJD'.repeat(40_000)}zebraquagga${'QUJD'.repeat(10)}`;
    const file = await writeSession(join(root, projectDirName('/p')), 's.jsonl', [
      header('sess-img', '/p'),
      withImage(user('u1', null, 'the failing dialog screenshot'), data),
      assistant('a1', 'u1', 'I see the dialog'),
    ]);
    const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await service.update([file]);
    expect((await service.query('"failing dialog"')).hits.map((h) => h.entryId)).toEqual(['u1']);
    expect((await service.query('zebraquagga', { limit: 5000 })).hits).toEqual([]);
    service.close();
  });

  it('pauses a long file mid-scan while a session opens, then indexes all of it', async () => {
    const root = await tempDir('canopy-search-root-');
    const cache = await tempDir('canopy-search-cache-');
    const lines: Rec[] = [header('sess-long', '/p')];
    let parent: string | null = null;
    for (let i = 0; i < 30_000; i++) {
      lines.push(user(`e${i}`, parent, `entry number ${i} with some words to index ${'filler '.repeat(20)}`));
      parent = `e${i}`;
    }
    lines.push(user('last', parent, 'the very last needle'));
    const file = await writeSession(join(root, projectDirName('/p')), 'long.jsonl', lines);
    const synced: string[] = [];
    const gate = new OpenGate();
    const service = new SearchService({
      roots: [root],
      env: { CANOPY_CACHE_DIR: cache },
      onSynced: (r) => synced.push(r.path),
      gate,
    });
    let release: () => void = () => undefined;
    const opening = new Promise<void>((r) => (release = r));
    const pass = service.update([file]);
    // Let the scan start, then hold it as an open would.
    await new Promise((r) => setTimeout(r, 60));
    const held = gate.during(opening);
    await new Promise((r) => setTimeout(r, 400));
    expect(synced).toEqual([]);
    release();
    await held;
    await pass;
    expect(synced).toEqual([file]);
    expect((await service.query('"very last needle"')).hits.map((h) => h.entryId)).toEqual(['last']);
    service.close();
  }, 60_000);
});
