/**
 * The byte stage of search: the files the index does not hold are read directly, with the same
 * hits the index gives (words, phrases, names, filters, branch:active, regexes), while the first
 * build runs (staged) and when the index cannot be used at all (every file read, said so).
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchService } from '../../electron/search/search-service';
import { listSessions } from '../../electron/repo/sessions';
import { buildCorpus } from '../fixtures/corpus/build';
import { Rng } from '../fixtures/corpus/rng';
import { tempDir } from '../repo/helpers';

type Rec = Record<string, unknown>;

let paths: string[];
let queries: string[];
const services: SearchService[] = [];

function service(cache: string, root: string): SearchService {
  const s = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
  services.push(s);
  return s;
}

/** Every hit of a query over every page, as comparable keys. */
async function every(s: SearchService, text: string): Promise<{ keys: string[]; fallback: string | null }> {
  const keys: string[] = [];
  let fallback: string | null = null;
  for (let cursor: string | undefined; ;) {
    const page = await s.query(text, { limit: 97, paths: new Set(paths), ...(cursor ? { cursor } : {}) });
    expect(page.stopped).toBeNull();
    fallback ??= page.fallback;
    keys.push(...page.hits.map((h) => `${h.path}:${h.line} ${h.entryId} ${h.field} ${h.snippet} ${h.match}`));
    if (!page.cursor) return { keys: keys.sort(), fallback };
    cursor = page.cursor;
  }
}

/** Words and phrases taken from the corpus's own user messages (seeded), and its session names. */
async function corpusQueries(files: readonly string[]): Promise<string[]> {
  const texts: string[] = [];
  const names: string[] = [];
  for (const f of files) {
    for (const line of (await readFile(f, 'utf8')).split('\n')) {
      let v: Rec | null;
      try {
        v = JSON.parse(line) as Rec | null;
      } catch {
        continue;
      }
      if (typeof v !== 'object' || v === null) continue;
      if (v.type === 'session_info' && typeof v.name === 'string' && v.name.trim()) names.push(v.name.trim());
      const m = v.message as Rec | undefined;
      if (v.type !== 'message' || m?.role !== 'user') continue;
      const c = m.content;
      const t = typeof c === 'string' ? c : Array.isArray(c) ? c.map((b: Rec) => b.text ?? '').join(' ') : '';
      if (t.length > 20 && t.length < 2000) texts.push(t);
    }
  }
  const r = new Rng(7);
  const out: string[] = [];
  for (let i = 0; i < 10; i++) {
    const words = r
      .pick(texts)
      .split(/\s+/)
      .filter((w) => /^[A-Za-z]{4,}$/.test(w));
    if (words.length < 3) continue;
    const k = r.int(0, words.length - 2);
    out.push(words[k]!, `"${words[k]} ${words[k + 1] ?? ''}"`.replace(' "', '"'));
  }
  const w = out[0]!;
  out.push(
    `${w} role:assistant`,
    `${w} branch:active`,
    'role:user',
    'tool:bash',
    'branch:active role:user',
    `project:alpha ${w}`,
    're:\\b[a-z]+ing\\b',
    ...names.slice(0, 2).map((n) => `"${n}"`),
    // A phrase its path alone meets (in no line of the file): a session hit.
    `"${files[0]!.split(/[/\\]/).slice(-2).join('/')}"`,
  );
  return out;
}

let corpusDir: string;

beforeAll(async () => {
  // Not tempDir: that one is emptied after each test, and the corpus serves both.
  corpusDir = await mkdtemp(join(tmpdir(), 'canopy-bytes-root-'));
  const root = corpusDir;
  await buildCorpus(join(root, 'sessions'), { perWriter: 2 });
  const listing = await listSessions([join(root, 'sessions')]);
  paths = listing.sessions.map((s) => s.path);
  queries = await corpusQueries(paths);
}, 120_000);

afterAll(async () => {
  for (const s of services) s.close();
  await rm(corpusDir, { recursive: true, force: true });
});

describe('search without the index', () => {
  it('reads every file when the index cannot be used: the same hits, and says so', async () => {
    const root = join(paths[0]!, '..', '..');
    const full = service(await tempDir('canopy-bytes-full-'), root);
    await full.update(paths);
    const brokenCache = await tempDir('canopy-bytes-broken-');
    // A folder where the index file would be: it cannot be opened, and is left alone.
    await mkdir(join(brokenCache, 'search-index.sqlite', 'keep'), { recursive: true });
    const broken = service(brokenCache, root);
    await broken.update(paths);
    let found = 0;
    for (const q of queries) {
      const a = await every(full, q);
      const b = await every(broken, q);
      expect(b.keys, q).toEqual(a.keys);
      expect(a.fallback).toBeNull();
      expect(b.fallback).toMatch(/search index cannot be used .*: searched the files directly$/);
      found += a.keys.length;
    }
    // The queries find things (a byte stage that found nothing would agree with an empty index).
    expect(found).toBeGreaterThan(100);
  }, 120_000);

  it('while the first build runs, files it has not reached are read: complete results', async () => {
    const root = join(paths[0]!, '..', '..');
    const full = service(await tempDir('canopy-bytes-full-'), root);
    await full.update(paths);
    const partial = service(await tempDir('canopy-bytes-part-'), root);
    // Half the files indexed, as a first build leaves them midway.
    await partial.update(paths.filter((_, i) => i % 2 === 0));
    let found = 0;
    for (const q of queries) {
      const a = await every(full, q);
      const b = await every(partial, q);
      expect(b.keys, q).toEqual(a.keys);
      expect(b.fallback).toBeNull();
      found += a.keys.length;
    }
    expect(found).toBeGreaterThan(100);
  }, 120_000);
});
