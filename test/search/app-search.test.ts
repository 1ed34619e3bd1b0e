import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppServices } from '../../electron/app-services';
import { dispatch } from '../../electron/ipc/dispatch';
import { assistant, hashTree, sampleRoot, tempDir } from '../repo/helpers';

const BRANCHED = '019c0000-0000-7000-8000-000000000001';

describe('search through the handlers', () => {
  it('indexes after listing, answers with catalog ids, follows appends, reports progress; bad input is an error value', async () => {
    const { root, files } = await sampleRoot();
    const before = await hashTree(root);
    const services = createAppServices({ roots: [root], transport: 'http', watch: false });
    // The service reads CANOPY_CACHE_DIR (set for every test run): the index is never under the root.
    expect(services.search.status().indexPath?.startsWith(root)).toBe(false);
    const progress: boolean[] = [];
    services.bus.subscribe((event, payload) => {
      if (event === 'search.progress') progress.push((payload as { indexing: boolean }).indexing);
    });
    await services.handlers['sessions.list']({});
    await services.search.idle();
    expect(progress.at(-1)).toBe(false);
    const r = await services.handlers['search.query']({ query: '"second answer"' });
    expect(r.hits.map((h) => [h.sessionId, h.entryId, h.line, h.fileName])).toEqual([
      [BRANCHED, 'a2', 5, files.branched!.split('/').pop()],
    ]);
    expect(r.status).toMatchObject({ indexing: false, done: 2, total: 2 });

    await appendFile(files.branched!, `${JSON.stringify(assistant('a9', 'a3', 'brand new words'))}\n`);
    // The catalog's row change (as a watcher batch brings it) is what search follows.
    await services.catalog.followChanges([files.branched!]);
    await services.search.idle();
    await expect
      .poll(async () => (await services.handlers['search.query']({ query: 'brand new' })).hits.map((h) => h.entryId), {
        interval: 20,
        timeout: 50_000, // a state, not a speed: the ceiling only stops a hang
      })
      .toEqual(['a9']);

    const bad = await dispatch(services.handlers, 'search.query', { query: 're:(' });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringMatching(/not a valid regular expression/) },
    });
    expect(await dispatch(services.handlers, 'search.query', { query: 'x', limit: 0 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect(await dispatch(services.handlers, 'search.query', { query: 'x', extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    // A cursor is an opaque id of a live query: a malformed or unknown one is refused with a reason.
    for (const cursor of ['x'.repeat(65), 'a/b', 7]) {
      expect(await dispatch(services.handlers, 'search.query', { query: 'x', cursor })).toMatchObject({
        ok: false,
        error: { code: 'invalid_argument', message: expect.stringMatching(/cursor/) },
      });
    }
    expect(await dispatch(services.handlers, 'search.query', { query: 'x', cursor: 'unknown' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringMatching(/unknown or expired.*run the query again/) },
    });
    const first = await services.handlers['search.query']({ query: 'answer', limit: 1 });
    expect(first.hits).toHaveLength(1);
    const next = await services.handlers['search.query']({ query: 'answer', limit: 1, cursor: first.cursor! });
    expect(next.hits[0]).not.toEqual(first.hits[0]);
    await services.close();
    // Nothing of Canopy's was written under the root (only the test's own append changed a file).
    expect([...(await hashTree(root)).keys()].sort()).toEqual([...before.keys()].sort());
  });

  it("an entry whose numeric timestamp is past Date's range is found, with no time (it failed the whole query)", async () => {
    const { root, files } = await sampleRoot();
    const services = createAppServices({ roots: [root], transport: 'http', watch: false });
    const odd = (id: string, parent: string, timestamp: number): string =>
      `${JSON.stringify({ ...assistant(id, parent, `odd clock ${id}`), timestamp })}\n`;
    await appendFile(files.branched!, odd('t1', 'a3', 1e300) + odd('t2', 't1', 8.65e15) + odd('t3', 't2', -1e16));
    await services.handlers['sessions.list']({});
    await services.search.idle();
    const r = await services.handlers['search.query']({ query: '"odd clock"' });
    expect(r.hits.map((h) => [h.entryId, h.time])).toEqual([
      ['t1', null],
      ['t2', null],
      ['t3', null],
    ]);
    await services.close();
  });

  it('an index that cannot be opened: the app still answers every hit, read from the files, and its status says so', async () => {
    const { root, files } = await sampleRoot();
    const cache = await tempDir('canopy-app-cache-');
    await mkdir(join(cache, 'search-index.sqlite', 'keep'), { recursive: true });
    const services = createAppServices({
      roots: [root],
      transport: 'http',
      watch: false,
      env: { ...process.env, CANOPY_CACHE_DIR: cache },
    });
    await services.handlers['sessions.list']({});
    await services.search.idle();
    const r = await services.handlers['search.query']({ query: '"second answer"' });
    expect(r.hits.map((h) => [h.sessionId, h.entryId, h.line, h.fileName])).toEqual([
      [BRANCHED, 'a2', 5, files.branched!.split('/').pop()],
    ]);
    expect(r.status.error).toMatch(/^the search index cannot be used .*: searched the files directly$/);
    await services.secrets.idle(); // the radar writes its cache into the same folder
    await services.close();
  });
});
