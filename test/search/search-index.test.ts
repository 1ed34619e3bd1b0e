import { appendFile, readFile, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SearchService } from '../../electron/search/search-service';
import { isInside, searchCacheDir, throwawayCacheDir } from '../../electron/storage/cache-dir';
import { createAppServices } from '../../electron/app-services';
import Database from 'better-sqlite3';
import { tmpdir, userInfo } from 'node:os';
import {
  assistant,
  entry,
  hashTree,
  header,
  jsonl,
  projectDirName,
  tempDir,
  user,
  writeSession,
} from '../repo/helpers';
import { Rng } from '../fixtures/corpus/rng';

type Rec = Record<string, unknown>;

/** The corpus's seeded PRNG: the same draws on every run. */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

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
  'route',
  'shell',
  'token',
  'vite',
  'write',
];

function sentence(r: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
}

/** Sessions of mixed entries: user/assistant text, tool calls and results, bash runs, summaries. */
function corpusSession(r: () => number, sid: string, cwd: string, count: number): Rec[] {
  const lines: Rec[] = [header(sid, cwd)];
  let parent: string | null = null;
  for (let i = 0; i < count; i++) {
    const id = `${sid.slice(0, 4)}e${i}`;
    const kind = i % 5;
    let e: Rec;
    if (kind === 0) e = user(id, parent, sentence(r, 12));
    else if (kind === 1) e = assistant(id, parent, sentence(r, 20));
    else if (kind === 2) {
      e = assistant(id, parent, '');
      (e.message as Rec).content = [
        { type: 'toolCall', id: `t${i}`, name: 'read', arguments: { path: `src/${WORDS[i % WORDS.length]}.ts` } },
      ];
    } else if (kind === 3) {
      e = entry('message', id, parent, {
        message: {
          role: 'toolResult',
          toolCallId: `t${i - 1}`,
          toolName: 'read',
          content: [{ type: 'text', text: sentence(r, 30) }],
          isError: false,
          timestamp: 0,
        },
      });
    } else
      e = entry('message', id, parent, {
        message: {
          role: 'bashExecution',
          command: `npm run ${WORDS[i % WORDS.length]}`,
          output: sentence(r, 8),
          exitCode: 0,
          timestamp: 0,
        },
      });
    lines.push(e);
    parent = id;
  }
  return lines;
}

async function setup(): Promise<{
  root: string;
  cache: string;
  service: SearchService;
  files: string[];
  sessions: Rec[][];
}> {
  const root = await tempDir('canopy-search-root-');
  const cache = await tempDir('canopy-search-cache-');
  const r = rng(42);
  const files: string[] = [];
  const sessions: Rec[][] = [];
  for (let s = 0; s < 6; s++) {
    const sid = `${String(s).padStart(4, '0')}aaaa-0000-7000-8000-00000000000${s}`;
    const cwd = s < 3 ? '/home/alice/canopy' : '/srv/other';
    const lines = corpusSession(r, sid, cwd, 40);
    sessions.push(lines);
    files.push(await writeSession(join(root, projectDirName(cwd)), `s${s}.jsonl`, lines));
  }
  const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
  return { root, cache, service, files, sessions };
}

function textOf(e: Rec): Rec {
  return (e.message as Rec).content as Rec;
}

describe('search index', () => {
  it('finds phrases planted in random entries at their entry and nowhere else; session files unchanged', async () => {
    const { root, service, files, sessions } = await setup();
    const r = rng(7);
    const planted: { phrase: string; file: string; entryId: string; line: number }[] = [];
    for (let k = 0; k < 12; k++) {
      const s = Math.floor(r() * sessions.length);
      const idx = 1 + Math.floor(r() * 40);
      const e = sessions[s]![idx]!;
      const phrase = `zq${k}x marker${k}y`;
      const msg = e.message as Rec;
      if (msg.role === 'bashExecution') msg.output = `${msg.output as string} ${phrase}`;
      else if (Array.isArray(msg.content) && (msg.content as Rec[])[0]?.type === 'toolCall')
        ((msg.content as Rec[])[0]!.arguments as Rec).note = phrase;
      else (textOf(e) as unknown as Rec[])[0]!.text = `before ${phrase} after`;
      if (planted.some((p) => p.entryId === e.id)) continue;
      planted.push({ phrase, file: files[s]!, entryId: e.id as string, line: idx + 1 });
    }
    for (let s = 0; s < sessions.length; s++) await writeFile(files[s]!, jsonl(sessions[s]!));
    const before = await hashTree(root);
    await service.update(files);
    for (const p of planted) {
      const a = await service.query(`"${p.phrase}"`);
      expect(a.hits.map((h) => [h.path, h.entryId, h.line])).toEqual([[p.file, p.entryId, p.line]]);
      const hit = a.hits[0]!;
      expect(hit.snippet.slice(hit.match[0], hit.match[1])).toBe(p.phrase);
      // Words in any order, case-insensitive.
      const [w1, w2] = p.phrase.split(' ');
      expect((await service.query(`${w2!.toUpperCase()} ${w1}`)).hits.map((h) => h.entryId)).toEqual([p.entryId]);
    }
    expect((await service.query('"zq0x marker1y"')).hits).toEqual([]);
    expect(await hashTree(root)).toEqual(before);
    service.close();
  });

  it('re: and every filter', async () => {
    const { service, files, sessions } = await setup();
    await service.update(files);
    const count = (q: string) => service.query(q, { limit: 5000 }).then((a) => a.hits);
    // re: against the entries' text (the literal "npm run " narrows the candidates).
    const bash = await count('re:npm run (kernel|query)');
    expect(bash.length).toBeGreaterThan(0);
    expect(bash.every((h) => h.role === 'bash' && /npm run (kernel|query)/.test(h.snippet))).toBe(true);
    const expectedBash = sessions
      .flat()
      .filter((e) => /npm run (kernel|query)/i.test(String((e.message as Rec | undefined)?.command ?? ''))).length;
    expect(bash.length).toBe(expectedBash);

    expect((await count('role:bash npm')).every((h) => h.role === 'bash')).toBe(true);
    expect((await count('role:bash npm')).length).toBe(
      sessions.flat().filter((e) => (e.message as Rec | undefined)?.role === 'bashExecution').length,
    );
    const projects = await count('project:canopy role:user');
    expect(new Set(projects.map((h) => h.cwd))).toEqual(new Set(['/home/alice/canopy']));
    expect(projects.length).toBe(3 * 8);
    const tool = await count('tool:read role:assistant');
    expect(tool.length).toBe(6 * 8);
    const file = await count('file:src/node.ts');
    expect(file.length).toBeGreaterThan(0);
    expect(file.every((h) => h.role === 'assistant' && h.snippet.includes('src/node.ts'))).toBe(true);
    const times = sessions
      .flat()
      .map((e) => e.timestamp as string)
      .filter(Boolean)
      .sort();
    const mid = times[Math.floor(times.length / 2)]!;
    const after = await count(`after:${mid} role:user`);
    expect(after.every((h) => h.time! >= Date.parse(mid))).toBe(true);
    expect(after.length).toBeGreaterThan(0);
    const beforeHits = await count(`before:${mid} role:user`);
    expect(after.length + beforeHits.length).toBe(6 * 8);
    await expect(service.query('re:(')).rejects.toThrow(/not a valid regular expression/);
    service.close();
  });

  it('branch:active keeps only entries on the current path', async () => {
    const root = await tempDir('canopy-search-root-');
    const cache = await tempDir('canopy-search-cache-');
    const file = await writeSession(join(root, projectDirName('/p')), 'b.jsonl', [
      header('bbbb', '/p'),
      user('u1', null, 'shared needle start'),
      assistant('a1', 'u1', 'needle on old branch'),
      assistant('a2', 'u1', 'needle on new branch'),
    ]);
    const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await service.update([file]);
    expect((await service.query('needle')).hits.map((h) => h.entryId).sort()).toEqual(['a1', 'a2', 'u1']);
    expect((await service.query('needle branch:active')).hits.map((h) => h.entryId).sort()).toEqual(['a2', 'u1']);
    service.close();
  });

  it('appends index only the new lines; truncation, replacement and removal are followed', async () => {
    const root = await tempDir('canopy-search-root-');
    const cache = await tempDir('canopy-search-cache-');
    const lines = [header('cccc', '/p'), user('u1', null, 'original words here')];
    const file = await writeSession(join(root, projectDirName('/p')), 'c.jsonl', lines);
    const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
    await service.update([file]);
    expect((await service.query('original')).hits).toHaveLength(1);

    // An append (and a half-written last line, indexed once complete).
    const later = JSON.stringify(assistant('a1', 'u1', 'appended reply'));
    await appendFile(file, `${later.slice(0, 20)}`);
    expect(await service.syncFile(file)).toMatchObject({ kind: 'append', lines: 0 });
    await appendFile(file, `${later.slice(20)}\n`);
    const sync = await service.syncFile(file);
    expect(sync).toMatchObject({ kind: 'append', lines: 1 });
    expect((await service.query('appended reply')).hits.map((h) => [h.entryId, h.line])).toEqual([['a1', 3]]);
    expect((await service.query('original')).hits).toHaveLength(1);

    // Truncated: the rows of lost lines go.
    const text = await readFile(file, 'utf8');
    await truncate(file, text.indexOf('\n', text.indexOf('\n') + 1) + 1);
    expect(await service.syncFile(file)).toMatchObject({ kind: 'full' });
    expect((await service.query('appended')).hits).toEqual([]);
    expect((await service.query('original')).hits).toHaveLength(1);

    // Replaced in place with other content of the same length.
    await writeFile(file, (await readFile(file, 'utf8')).replace('original', 'replaced'));
    expect(await service.syncFile(file)).toMatchObject({ kind: 'full' });
    expect((await service.query('original')).hits).toEqual([]);
    expect((await service.query('replaced')).hits).toHaveLength(1);

    await unlink(file);
    expect(await service.syncFile(file)).toMatchObject({ kind: 'removed' });
    expect((await service.query('replaced')).hits).toEqual([]);
    service.close();
  });

  it("one index, many processes: a search of root A alone never drops root B's rows; a file gone from disk does", async () => {
    const cache = await tempDir('canopy-search-cache-');
    const rootA = await tempDir('canopy-search-a-');
    const rootB = await tempDir('canopy-search-b-');
    const a = await writeSession(join(rootA, projectDirName('/a')), 'a.jsonl', [
      header('aaaa', '/a'),
      user('u1', null, 'words of root alpha'),
    ]);
    const b = await writeSession(join(rootB, projectDirName('/b')), 'b.jsonl', [
      header('bbbb', '/b'),
      user('u1', null, 'words of root beta'),
    ]);
    const app = new SearchService({ roots: [rootA, rootB], env: { CANOPY_CACHE_DIR: cache } });
    await app.update([a, b]);
    const cli = new SearchService({ roots: [rootA], env: { CANOPY_CACHE_DIR: cache } });
    await cli.update([a]);
    expect((await cli.query('words of root', { paths: new Set([a]) })).hits.map((h) => h.path)).toEqual([a]);
    cli.close();
    // The app's next query (and its next pass over its own listing) still finds B, with no rescan.
    expect((await app.query('root beta')).hits.map((h) => h.path)).toEqual([b]);
    await unlink(b);
    await app.update([a]);
    expect((await app.query('words of root')).hits.map((h) => h.path)).toEqual([a]);
    app.close();
  });

  it('a damaged line is skipped and reported; the rest is indexed', async () => {
    const root = await tempDir('canopy-search-root-');
    const cache = await tempDir('canopy-search-cache-');
    const file = await writeSession(join(root, projectDirName('/p')), 'd.jsonl', [
      header('dddd', '/p'),
      '{"type":"message", broken',
      '[1,2]',
      user('u1', null, 'survivor text'),
    ]);
    const problems: { line: number; message: string }[] = [];
    const service = new SearchService({
      roots: [root],
      env: { CANOPY_CACHE_DIR: cache },
      onProblem: (p) => problems.push(p),
    });
    await service.update([file]);
    expect(problems.map((p) => p.line)).toEqual([2, 3]);
    expect(service.getStatus().problems).toBe(2);
    expect((await service.query('survivor')).hits.map((h) => h.line)).toEqual([4]);
    service.close();
  });

  it('a corrupt or old-schema index is rebuilt, never trusted', async () => {
    const { cache, service, files } = await setup();
    await service.update(files);
    const hitsBefore = (await service.query('kernel', { limit: 5000 })).hits.length;
    service.close();
    const indexFile = service.indexPath;
    expect(isInside(indexFile, cache)).toBe(true);
    await writeFile(indexFile, 'this is not a database at all'.repeat(200));
    const again = new SearchService({ roots: [], env: { CANOPY_CACHE_DIR: cache } });
    expect((await again.query('kernel')).hits).toEqual([]);
    expect(again.getStatus().rebuilt).toMatch(/not a database|file is not/);
    await again.update(files);
    expect((await again.query('kernel', { limit: 5000 })).hits.length).toBe(hitsBefore);
    again.close();
  });

  it('an index damaged past its header is rebuilt when a query meets it, and the query answered (it said 0 hits)', async () => {
    const { cache, service, files } = await setup();
    await service.update(files);
    const want = (await service.query('kernel', { limit: 5000 })).hits.map((h) => [h.path, h.line]);
    expect(want.length).toBeGreaterThan(0);
    service.close();
    // The full-text segments turned to noise, the tables around them intact: it opens and syncs, and a query fails.
    const db = new Database(service.indexPath);
    db.unsafeMode(true); // lifts SQLite's defensive mode, which guards shadow tables
    // Cut short, not random: random bytes can read as valid empty pages (0 hits with no error), so
    // the damage must be one SQLite always notices.
    db.prepare('UPDATE fts_text_data SET block = substr(block, 1, 3) WHERE id > 10').run();
    db.close();
    const again = new SearchService({ roots: [], env: { CANOPY_CACHE_DIR: cache } });
    await again.update(files);
    const got = (await again.query('kernel', { limit: 5000 })).hits.map((h) => [h.path, h.line]);
    expect(got).toEqual(want);
    again.close();
  });

  it('never puts the cache inside a session root', async () => {
    const root = await tempDir('canopy-search-root-');
    const home = await tempDir('canopy-home-');
    const inside = join(root, 'cache');
    const dir = searchCacheDir([root], { CANOPY_CACHE_DIR: inside, XDG_CACHE_HOME: join(home, 'xdg') });
    expect(dir).toEqual({ dir: join(home, 'xdg', 'canopy'), relocatedFrom: inside });
    expect(() =>
      searchCacheDir([home], { CANOPY_CACHE_DIR: join(home, 'c'), XDG_CACHE_HOME: join(home, 'xdg') }),
    ).toThrow(/inside the session root/);
  });

  it('an index or cache that would fall inside a root or an opened folder goes to a private temp folder instead', async () => {
    const home = await tempDir('canopy-home-');
    const env = { CANOPY_CACHE_DIR: join(home, 'c'), XDG_CACHE_HOME: join(home, 'xdg') };
    const out = throwawayCacheDir([home], env);
    expect(isInside(out.dir, home)).toBe(false);
    expect(out.dir).toBe(join(tmpdir(), `canopy-cache-${userInfo().username}`));
    expect(out.relocatedFrom).toBe(join(home, 'c'));
    // `canopy serve ~`: the opened folder is kept out like a root, by the app's search and radar.
    const services = createAppServices({ roots: [], openedFolders: [home], transport: 'http', watch: false, env });
    expect(isInside(services.search.status().indexPath!, home)).toBe(false);
    await services.close();
    expect(await hashTree(home)).toEqual(new Map());
  });
});
