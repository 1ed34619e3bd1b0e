/**
 * session.open packs an indexed session's parents from the index's parent column
 * (core indexedParents) instead of a map of every id: the packed nodes must be exactly those the
 * id lookup gives, on every corpus file and on hand-made parent cases; duplicate ids (where the
 * column holds the last entry of an id, the wire the first) keep the lookup.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedParents, isIndexedEntry, type Entry } from '../../electron/core';
import { openIndexed } from '../../electron/repo/session-file';
import { indexPreview } from '../../electron/repo/session-bodies';
import { packNodes } from '../../electron/shared/entry-nodes';
import { buildCorpus, type CorpusFile } from '../fixtures/corpus/build';
import { entry, header, jsonl, user } from '../core/helpers';

let root: string;
let corpus: CorpusFile[];
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'canopy-parents-'));
  corpus = await buildCorpus(join(root, 'sessions'), { perWriter: 12 });
}, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Both packings of a file's entries; null for a file that is not indexed. */
async function both(path: string): Promise<{ fast: unknown; slow: unknown; used: boolean } | null> {
  const s = await openIndexed(path).catch(() => null);
  if (!s || s.fatal) return null;
  const entries: Entry[] = s.entries;
  if (!entries.some(isIndexedEntry)) return null;
  const previews = entries.map(indexPreview);
  const parents = indexedParents(entries);
  return {
    fast: packNodes(entries, previews, undefined, parents ?? undefined),
    slow: packNodes(entries, previews),
    used: parents !== null,
  };
}

describe('packed parents from the index = parents looked up by id', () => {
  it('on every corpus file', async () => {
    let fast = 0;
    for (const file of corpus) {
      const r = await both(file.path);
      if (!r) continue;
      expect(r.fast, file.name).toEqual(r.slow);
      if (r.used) fast++;
    }
    expect(fast).toBeGreaterThan(corpus.length / 2);
  }, 120_000);

  it.each([
    [
      'a parent on a later line, a missing parent, an empty parent',
      [
        entry('message', 'b', 'a', { message: { role: 'user', content: 'x' } }),
        user('a', null),
        user('c', 'gone'),
        user('d', ''),
        user('e', 'b'),
      ],
      true,
    ],
    ['a duplicate id', [user('a', null), user('b', 'a'), user('a', 'b'), user('c', 'a')], false],
  ] as const)('%s', async (name, entries, used) => {
    const path = join(root, `${name.replace(/\W+/g, '-')}.jsonl`);
    writeFileSync(path, jsonl([header(), ...entries]));
    const r = await both(path);
    expect(r?.used).toBe(used);
    expect(r!.fast).toEqual(r!.slow);
  });
});
