/**
 * The search index on a store, in a fresh process (prints one JSON line):
 *   search ROOT   build the index of every session under ROOT (newest first) in a temp cache
 *                 folder, the first hit found while building, index size against the searchable
 *                 text, 50 random phrases and 10 `re:` queries on the built index (in process),
 *                 and how soon an appended line is found.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { SearchService, type QueryArgs } from '../electron/search';
import { listSessions } from '../electron/repo/sessions';
import { Rng } from '../test/fixtures/corpus/rng';

/** The corpus's seeded PRNG: the same draws on every run. */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

/** CPU time of this process since `from` (process.cpuUsage()), in ms. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(from);
  return (c.user + c.system) / 1000;
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] ?? 0;
}

/** Three consecutive prose words (3+ letters each) from a random line of a random session: a phrase that exists. */
function phrasesFrom(paths: string[], n: number, r: () => number): string[] {
  const out: string[] = [];
  for (let tries = 0; out.length < n && tries < n * 50; tries++) {
    const lines = readFileSync(paths[Math.floor(r() * paths.length)]!, 'utf8').split('\n');
    const line = lines[1 + Math.floor(r() * (lines.length - 2))] ?? '';
    // Runs of words between spaces (JSON keys have none; a `\n` escape is not a word boundary here).
    const runs = line.match(/(?<= )[a-z]{3,}(?: [a-z]{3,}){2,}(?=[ ,.?!:])/g);
    if (!runs) continue;
    const words = runs[Math.floor(r() * runs.length)]!.split(' ');
    const at = Math.floor(r() * (words.length - 2));
    out.push(words.slice(at, at + 3).join(' '));
  }
  return out;
}

/**
 * The app's path: one background pass over the listed sessions, newest first, while the panel asks
 * for a phrase of the newest sessions every 100 ms until it shows a hit.
 */
async function buildAsked(
  service: SearchService,
  paths: string[],
  probe: string,
): Promise<{ buildMs: number; firstHitMs: number | null }> {
  const t0 = performance.now();
  let firstHitMs: number | null = null;
  let building = true;
  const listed = new Set(paths);
  const pass = service.update(paths).finally(() => (building = false));
  while (building && firstHitMs === null) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    // With the listed paths, as the app asks: files the pass has not reached are read directly.
    const page = await service.query(`"${probe}"`, { limit: 1, paths: listed });
    if (page.hits.length > 0) firstHitMs = performance.now() - t0;
  }
  await pass;
  return { buildMs: performance.now() - t0, firstHitMs };
}

/** Every session under `root`, newest first (the order the app indexes them in). */
/**
 * Every hit of `text` counted page by page to its end, as the CLI pages: from its first page, or on
 * from `cursor` (null: nothing left); `onPage` is told after each page.
 */
async function hitsToEnd(
  service: SearchService,
  text: string,
  opts: Omit<QueryArgs, 'cursor'>,
  cursor?: string | null,
  onPage?: () => void,
): Promise<number> {
  let hits = 0;
  for (let at = cursor; at !== null;) {
    const page = await service.query(text, { ...opts, ...(at ? { cursor: at } : {}) });
    hits += page.hits.length;
    onPage?.();
    at = page.cursor;
  }
  return hits;
}

async function newestFirst(root: string): Promise<string[]> {
  const listing = await listSessions([root]);
  return [...listing.sessions].sort((a, b) => (a.modifiedAt < b.modifiedAt ? 1 : -1)).map((s) => s.path);
}

/** The probe phrase, drawn first from the newest twentieth: every mode then draws the same phrases after it. */
function probeOf(paths: string[], r: () => number): string {
  return phrasesFrom(paths.slice(0, Math.max(1, Math.floor(paths.length / 20))), 1, r)[0] ?? 'the';
}

/** The folder of an index an earlier search run kept (CANOPY_BENCH_SEARCH_CACHE), which `mode` needs. */
function keptIndex(mode: string): string {
  const cache = process.env.CANOPY_BENCH_SEARCH_CACHE;
  if (!cache) throw new Error(`${mode} needs CANOPY_BENCH_SEARCH_CACHE (an index an earlier search run kept)`);
  return cache;
}

async function search(root: string): Promise<Record<string, unknown>> {
  // CANOPY_BENCH_SEARCH_CACHE: keep the built index there and reuse it (query work without a rebuild).
  const kept = process.env.CANOPY_BENCH_SEARCH_CACHE;
  const cache = kept ?? mkdtempSync(join(tmpdir(), 'canopy-bench-search-'));
  try {
    const paths = await newestFirst(root);
    const r = rng(20260101);
    const probe = probeOf(paths, r);
    let bytes = 0;
    let textChars = 0;
    const service = new SearchService({
      roots: [root],
      env: { CANOPY_CACHE_DIR: cache },
      onSynced: (s) => {
        bytes += s.bytes;
        textChars += s.textChars;
      },
    });
    const { buildMs, firstHitMs } = await buildAsked(service, paths, probe);

    const phrases = phrasesFrom(paths, 50, r);
    const phraseMs: number[] = [];
    let phraseHits = 0;
    for (const p of phrases) {
      const q0 = performance.now();
      phraseHits += (await service.query(`"${p}"`, { limit: 50 })).hits.length > 0 ? 1 : 0;
      phraseMs.push(performance.now() - q0);
    }
    // Every hit of each phrase, paged as the CLI pages (issue 37: complete p95 ≤ 0.3× a byte search too).
    const completeMs: number[] = [];
    let completeHits = 0;
    for (const p of phrases) {
      const q0 = performance.now();
      completeHits += await hitsToEnd(service, `"${p}"`, { limit: 50 });
      completeMs.push(performance.now() - q0);
    }
    // The app's first page: it answers what it holds after 150 ms (once it has a hit), as the panel asks.
    const appFirstMs: number[] = [];
    for (const p of phrases) {
      const q0 = performance.now();
      await service.query(`"${p}"`, { limit: 100, earlyMs: 150 });
      appFirstMs.push(performance.now() - q0);
    }
    const regexMs: number[] = [];
    for (const p of phrases.slice(0, 10)) {
      const [a, b] = p.split(' ');
      const q0 = performance.now();
      await service.query(`re:${a}\\s+${b!.slice(0, 2)}\\w*`, { limit: 50 });
      regexMs.push(performance.now() - q0);
    }

    const literalFree = await regexWithoutLiteral(service, paths);

    // Awaited before the append is timed: the two overlapped (246–472 ms measured for what takes 48–73 ms alone).
    const bytes2 = await byteStage(root, paths, phrases.slice(0, 5));

    // An appended line: written, then the index updated and queried until it is found.
    const target = paths[0]!;
    const before = statSync(target).size;
    const marker = `appendmarker${Date.now().toString(36)}`;
    const w0 = performance.now();
    appendFileSync(
      target,
      `${JSON.stringify({ type: 'message', id: marker, parentId: null, timestamp: new Date().toISOString(), message: { role: 'user', content: marker, timestamp: Date.now() } })}\n`,
    );
    let found = false;
    for (let i = 0; i < 100 && !found; i++) {
      await service.syncFile(target);
      found = (await service.query(marker, { limit: 1 })).hits.length > 0;
    }
    const appendMs = performance.now() - w0;
    // The store is a cached benchmark input: put the file back as it was.
    truncateSync(target, before);
    service.close();
    const file = service.indexPath;
    const indexBytes = statSync(file).size;
    return {
      ok: true,
      ms: buildMs,
      sessions: paths.length,
      bytes,
      textChars,
      indexBytes,
      firstHitMs,
      phraseP95: p95(phraseMs),
      phraseMax: Math.max(...phraseMs),
      completeP95: p95(completeMs),
      completeHits,
      appFirstP95: p95(appFirstMs),
      phrases: phrases.length,
      phraseHits,
      regexP95: p95(regexMs),
      appendMs: found ? appendMs : null,
      ...bytes2,
      ...literalFree,
      rssMB: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    if (!kept) rmSync(cache, { recursive: true, force: true });
  }
}

/**
 * Complete results before the index holds anything (its first build just started, or it cannot be
 * used): every hit of a few phrases read from the files (the byte stage), against a bare byte
 * search of the same files for the same phrase (read each whole, Buffer.indexOf), both warm.
 */
async function byteStage(root: string, paths: string[], phrases: string[]): Promise<Record<string, unknown>> {
  const cache = mkdtempSync(join(tmpdir(), 'canopy-bench-bytes-'));
  const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
  const scope = new Set(paths);
  let stageMs = 0;
  let bareMs = 0;
  // CPU time beside wall time: on a machine shared with other work, wall time is noisy.
  let stageCpuMs = 0;
  let bareCpuMs = 0;
  let hits = 0;
  let bareFiles = 0;
  try {
    for (const p of phrases) {
      const b0 = performance.now();
      const bc = process.cpuUsage();
      for (const path of paths) if (readFileSync(path).indexOf(p) >= 0) bareFiles++;
      bareMs += performance.now() - b0;
      bareCpuMs += cpuMs(bc);
      const s0 = performance.now();
      const sc = process.cpuUsage();
      hits += await hitsToEnd(service, `"${p}"`, { limit: 5000, paths: scope });
      stageMs += performance.now() - s0;
      stageCpuMs += cpuMs(sc);
    }
  } finally {
    service.close();
    rmSync(cache, { recursive: true, force: true });
  }
  return {
    byteStageMs: stageMs,
    byteBareMs: bareMs,
    byteStageCpuMs: stageCpuMs,
    byteBareCpuMs: bareCpuMs,
    byteStageHits: hits,
    byteBareFiles: bareFiles,
    byteStagePhrases: phrases.length,
  };
}

/**
 * A `re:` with no literal the index can narrow by (issue 23: ≤ 1.2× a regex scan): every hit, paged,
 * against a regex scan of the same files (each read whole as UTF-8, the pattern, case-insensitive as
 * `re:` is, tested on every line).
 */
async function regexWithoutLiteral(service: SearchService, paths: string[]): Promise<Record<string, number>> {
  const source = '[0-9]{3}[a-z]{2}[0-9]';
  const re = new RegExp(source, 'i');
  const s0 = performance.now();
  const sc = process.cpuUsage();
  let scanLines = 0;
  for (const path of paths) for (const line of readFileSync(path, 'utf8').split('\n')) if (re.test(line)) scanLines++;
  const scanMs = performance.now() - s0;
  const scanCpuMs = cpuMs(sc);
  const q0 = performance.now();
  const qc = process.cpuUsage();
  let firstPageMs = 0;
  const hits = await hitsToEnd(service, `re:${source}`, { limit: 5000 }, undefined, () => {
    firstPageMs ||= performance.now() - q0;
  });
  return {
    regexAllMs: performance.now() - q0,
    regexAllCpuMs: cpuMs(qc),
    regexScanCpuMs: scanCpuMs,
    regexFirstPageMs: firstPageMs,
    regexAllHits: hits,
    regexScanMs: scanMs,
    regexScanLines: scanLines,
  };
}

/** The same 50 phrases and 10 `re:` queries on an index kept by an earlier run, each query's time (profiling). */
async function queries(root: string): Promise<Record<string, unknown>> {
  const cache = keptIndex('queries');
  const paths = await newestFirst(root);
  const r = rng(20260101);
  probeOf(paths, r);
  const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
  await service.update(paths);
  const phrases = phrasesFrom(paths, 50, r);
  const texts = [
    ...phrases.map((p) => `"${p}"`),
    ...phrases.slice(0, 10).map((p) => {
      const [a, b] = p.split(' ');
      return `re:${a}\\s+${b!.slice(0, 2)}\\w*`;
    }),
  ];
  // CPU time beside wall time: on a machine shared with other work, wall time is noisy.
  const out: { q: string; ms: number; cpuMs: number; hits: number; more: boolean; allMs?: number; all?: number }[] = [];
  for (let round = 0; round < Number(process.env.ROUNDS ?? 1); round++) {
    for (const q of texts) {
      const q0 = performance.now();
      const c0 = process.cpuUsage();
      const a = await service.query(q, { limit: 50 });
      const c = process.cpuUsage(c0);
      // COMPLETE=1: every hit too, paged as the CLI pages (the search mode's complete p95).
      const all = process.env.COMPLETE ? a.hits.length + (await hitsToEnd(service, q, { limit: 50 }, a.cursor)) : 0;
      const allMs = process.env.COMPLETE ? Math.round(performance.now() - q0) : 0;
      out.push({
        q,
        ms: Math.round(performance.now() - q0),
        cpuMs: Math.round((c.user + c.system) / 1000),
        hits: a.hits.length,
        more: a.cursor !== null,
        ...(process.env.COMPLETE ? { allMs, all } : {}),
      });
    }
  }
  service.close();
  const ms = out.map((o) => o.ms);
  return { ok: true, phraseP95: p95(ms.slice(-60, -10)), regexP95: p95(ms.slice(-10)), queries: out };
}

/** The build alone (`build ROOT`), and what each table of the index holds (profiling the build). */
async function buildOnly(root: string): Promise<Record<string, unknown>> {
  // CANOPY_BENCH_SEARCH_CACHE: the index is built there and kept (to study it, or query it after).
  const kept = process.env.CANOPY_BENCH_SEARCH_CACHE;
  const cache = kept ?? mkdtempSync(join(tmpdir(), 'canopy-bench-build-'));
  try {
    const paths = await newestFirst(root);
    let textChars = 0;
    const service = new SearchService({
      roots: [root],
      env: { CANOPY_CACHE_DIR: cache },
      onSynced: (s) => (textChars += s.textChars),
    });
    const probe = probeOf(paths, rng(20260101));
    const { buildMs: ms, firstHitMs } = await buildAsked(service, paths, probe);
    service.close();
    const db = new Database(service.indexPath, { readonly: true });
    const tables = db
      .prepare<[], { name: string; bytes: number }>(
        'SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC',
      )
      .all();
    db.close();
    const indexBytes = statSync(service.indexPath).size;
    return {
      ok: true,
      ms,
      firstHitMs,
      sessions: paths.length,
      textChars,
      indexBytes,
      ratio: indexBytes / textChars,
      tables: Object.fromEntries(tables.map((t) => [t.name, +(t.bytes / textChars).toFixed(3)])),
    };
  } finally {
    if (!kept) rmSync(cache, { recursive: true, force: true });
  }
}

/** The `re:` with no literal alone, on an index kept by an earlier run (`regex ROOT`, CANOPY_BENCH_SEARCH_CACHE). */
async function regexOnly(root: string): Promise<Record<string, unknown>> {
  const cache = keptIndex('regex');
  const paths = await newestFirst(root);
  const service = new SearchService({ roots: [root], env: { CANOPY_CACHE_DIR: cache } });
  await service.update(paths);
  const out = await regexWithoutLiteral(service, paths);
  service.close();
  return { ok: true, ...out, ratio: out.regexAllMs! / out.regexScanMs! };
}

/** The byte stage alone (no index built): `bytes ROOT`. */
async function bytesOnly(root: string): Promise<Record<string, unknown>> {
  const paths = await newestFirst(root);
  const r = rng(20260101);
  probeOf(paths, r);
  return { ok: true, ...(await byteStage(root, paths, phrasesFrom(paths, 50, r).slice(0, 5))) };
}

const [cmd, arg] = process.argv.slice(2);
const run =
  cmd === 'build' && arg
    ? buildOnly(arg)
    : cmd === 'bytes' && arg
      ? bytesOnly(arg)
      : cmd === 'regex' && arg
        ? regexOnly(arg)
        : cmd === 'search' && arg
          ? search(arg)
          : cmd === 'queries' && arg
            ? queries(arg)
            : Promise.reject(new Error('usage: child-search search|queries|regex|bytes|build ROOT'));
run
  .then((out) => process.stdout.write(`${JSON.stringify(out)}\n`))
  .catch((err: unknown) =>
    process.stdout.write(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`),
  );
