import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { parseSessionText } from '../../electron/core';
import { BLOCK_ENTRIES } from '../../electron/search/indexer';
import { SearchService } from '../../electron/search/search-service';
import { assistant, header, projectDirName, tempDir, user, writeSession } from '../repo/helpers';
import { Rng } from '../fixtures/corpus/rng';

type Rec = Record<string, unknown>;

const WORDS = [
  'alpha',
  'build',
  'config',
  'delta',
  'error',
  'file',
  'graph',
  'index',
  'json',
  'kernel',
  'lint',
  'merge',
  'node',
  'patch',
  'query',
];

/** A long session (several index blocks) of seeded filler text, ids `<prefix>N`. */
function longSession(r: Rng, sid: string, prefix: string, count: number): Rec[] {
  const lines: Rec[] = [header(sid, '/p')];
  let parent: string | null = null;
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${i}`;
    const text = Array.from({ length: 30 }, () => r.pick(WORDS)).join(' ');
    lines.push(i % 2 === 0 ? user(id, parent, text) : assistant(id, parent, text));
    parent = id;
  }
  return lines;
}

function setText(e: Rec, text: string): void {
  const msg = e.message as Rec;
  if (typeof msg.content === 'string') msg.content = text;
  else (msg.content as Rec[])[0]!.text = text;
}

describe('search index blocks and lazy verification', () => {
  it('finds a phrase planted in many entries at exactly those entries, a limit at a time', async () => {
    const root = await tempDir('canopy-search-root-');
    const cache = await tempDir('canopy-search-cache-');
    const r = new Rng(99);
    const files: string[] = [];
    const planted = new Set<string>();
    for (let s = 0; s < 3; s++) {
      // More entries than a block holds: hits and misses share blocks, and span several.
      const lines = longSession(r, `sess${s}`, `s${s}e`, BLOCK_ENTRIES + 150);
      for (let k = 0; k < 12; k++) {
        const i = 1 + r.int(0, lines.length - 2);
        setText(lines[i]!, `before the\nplanted  marker\tphrase after`);
        planted.add(lines[i]!.id as string);
      }
      // Its words in neighbouring entries of one block, never together: a block match, no entry match.
      setText(lines[3]!, 'only planted here');
      setText(lines[4]!, 'and marker phrase there');
      planted.delete(lines[3]!.id as string);
      planted.delete(lines[4]!.id as string);
      files.push(await writeSession(join(root, projectDirName('/p')), `s${s}.jsonl`, lines));
    }
    const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await service.update(files);

    const all = await service.query('"planted marker phrase"', { limit: 1000 });
    expect(new Set(all.hits.map((h) => h.entryId))).toEqual(planted);
    expect(all.hits).toHaveLength(planted.size);
    expect(all.cursor).toBeNull();
    const hit = all.hits[0]!;
    expect(hit.snippet.slice(hit.match[0], hit.match[1])).toBe('planted marker phrase');

    // A limit stops verification early: that many hits, each a planted entry, and `more` said.
    const some = await service.query('"planted marker phrase"', { limit: 5 });
    expect(some.hits).toHaveLength(5);
    expect(some.cursor).not.toBeNull();
    expect(some.hits.every((h) => planted.has(h.entryId!))).toBe(true);
    expect(some.hits.map((h) => h.entryId)).toEqual(all.hits.slice(0, 5).map((h) => h.entryId));

    // Words must meet in one entry: the two neighbours that hold them apart are no hits.
    expect((await service.query('phrase planted', { limit: 1000 })).hits).toHaveLength(planted.size);
    expect((await service.query('"marker phrase there"')).hits.map((h) => h.entryId)).toEqual(['s0e3', 's1e3', 's2e3']);
    service.close();
  });

  it('gives v1 entries the ids the session view derives from their lines', async () => {
    const root = await tempDir('canopy-search-root-');
    const cache = await tempDir('canopy-search-cache-');
    const { version: _, ...v1Header } = header('v1sess', '/p');
    const body = (role: string, text: string): Rec => ({
      type: 'message',
      timestamp: '2026-01-05T10:00:00.000Z',
      message: { role, content: text, timestamp: 0 },
    });
    const file = await writeSession(join(root, projectDirName('/p')), 'v1.jsonl', [
      v1Header,
      body('user', 'first question'),
      '',
      body('assistant', 'an answer with needle'),
      body('user', 'needle again'),
    ]);
    const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await service.update([file]);
    const parsed = parseSessionText(await readFile(file, 'utf8'));
    expect(parsed.migrated).toBe(true);
    const idAt = new Map(parsed.entries.map((e) => [e.line, e.id]));
    const hits = (await service.query('needle')).hits;
    expect(hits.map((h) => h.line).sort()).toEqual([4, 5]);
    for (const h of hits) expect(h.entryId).toBe(idAt.get(h.line));
    // The ids chain as the migration chains them: the last entry's path holds every entry.
    expect((await service.query('needle branch:active')).hits).toHaveLength(2);
    service.close();
  });

  it('a first build is a bulk load that ends as a normal index another process reuses', async () => {
    const root = await tempDir('canopy-search-root-');
    const cache = await tempDir('canopy-search-cache-');
    const file = await writeSession(join(root, projectDirName('/p')), 'b.jsonl', [
      header('bulk', '/p'),
      user('u1', null, 'bulk loaded words'),
    ]);
    const first = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await first.update([file]);
    expect((await first.query('loaded')).hits).toHaveLength(1);
    first.close();
    const db = new Database(first.indexPath, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    db.close();
    const second = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    expect(await second.syncFile(file)).toMatchObject({ kind: 'unchanged' });
    expect(second.getStatus().rebuilt).toBeNull();
    expect((await second.query('loaded')).hits).toHaveLength(1);
    second.close();
  });

  it('an index left mid bulk load (schema version cleared) is rebuilt', async () => {
    const root = await tempDir('canopy-search-root-');
    const cache = await tempDir('canopy-search-cache-');
    const file = await writeSession(join(root, projectDirName('/p')), 'c.jsonl', [
      header('crash', '/p'),
      user('u1', null, 'crash words'),
    ]);
    const first = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await first.update([file]);
    first.close();
    const db = new Database(first.indexPath);
    db.pragma('user_version = 0');
    db.close();
    const second = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await second.update([file]);
    expect(second.getStatus().rebuilt).toMatch(/schema version 0/);
    expect((await second.query('crash')).hits).toHaveLength(1);
    second.close();
  });
});
