/**
 * `npm run bench [-- --quick] [-- --runs N] [-- --out FILE]`: Canopy against pi's own reader and
 * against bare reads of the same bytes, in the same run, each measurement in a fresh process
 * (peak RSS from process.resourceUsage().maxRSS inside the child). Generated files are cached
 * in $TMPDIR/canopy-bench between runs. Prints one table and writes it as Markdown.
 *
 * Rows:
 *   open N MB     bare 1 MiB streaming read | Canopy index + leaf + context | pi JsonlSessionStorage.open + Session.buildContext
 *                 (notes: the floor of any index, read + line split + envelope scan, against the bare read;
 *                 and, from 100 MB, the app's session.open (the first frame's data, from the index) against the
 *                 CLI's open, then session.previews of the 60 nodes around the leaf)
 *   open 2.6 GiB image-heavy  the same (no pi) on a session that is nearly all base64 screenshots
 *                 (pi #9613; part of `--only open`, or alone with `--only open-images`)
 *   open 4 MB with previews  a file small enough for session.open to send every preview: bodies skimmed
 *                 in the index pass (one read) against the index pass followed by a previews pass (two)
 *   cli 300 MiB   `canopy context` and `canopy tree` (every line validated) against pi's reader
 *                 (`--only cli`)
 *   switch        a 400k-entry session: path + the 50 bodies nearest the leaf, median over 40 branch tips
 *   list 10k      10,000 sessions in 200 projects: Canopy listing | first line of each file | whole files
 *   search 10k    the full-text index of the 10k store (realistic text): build rate against a bare read, first hit
 *                 while building, an appended line found, 50 phrases + 10 re: queries (p95), index size vs text
 *   search3g      the same on a ~3 GB store of 3,000 sessions (only with --only search3g: it takes many minutes)
 *   secrets       the secret radar's first scan of the 1,000-session realistic store against a bare read,
 *                 its rescan with nothing changed, and its findings there (all false positives)
 *   live          `canopy serve` on the 10k store, one session appended 4×/s for 10 s: sessions.list after an
 *                 append vs warm, CPU above idle, the appended row checked, a fork's round trips (only with --only live)
 *   serve         the real `canopy serve` answering app.info (open loop, every 20 ms) while a 1M-entry context, the
 *                 index pass of the 10k store and a catastrophic regex run, alone and together (only with --only serve)
 *   live-render   Chromium on `canopy serve` watching a copy of the 100 MiB session: 40 appends at 4/s, write →
 *                 node drawn and followed (p95), bytes the events carried per append, serve's CPU (live-render.mjs)
 *   layout 100k   the renderer's tree index + filter + chain collapse over a 100k-entry tree, then its level of detail
 *   render        Chromium (bench/render.mjs) on `canopy serve`: a 20k-entry session against a 100-entry
 *                 one (first frame, pan frame times) and against a naive render of all 20k entries (JS heap);
 *                 and a click on the 100 MiB session's sidebar row → its first graph frame (and previews);
 *                 the graph at real size on it (issue 36): fit counts, labels ≥ 11 px, zoom and pan frames
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  closeSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, freemem, release, tmpdir, totalmem, type } from 'node:os';
import { join, resolve } from 'node:path';
import { cachedSession, GENERATOR_VERSION, writeSessionFile } from './generate';
import { graphRows, type GraphCase } from './graph-rows';
import { serveRows } from './serve-rows';
import { storeRows } from './store-rows';
import { liveRenderRows } from './live-render-rows';

const MB = 1024 * 1024;
const repo = resolve(__dirname, '..', '..');
const childCanopy = join(__dirname, 'child-canopy.cjs');
const childBaseline = join(repo, 'bench', 'child-baseline.mjs');
const childPi = join(repo, 'bench', 'child-pi.mjs');
const childRender = join(repo, 'bench', 'render.mjs');
const childSearch = join(__dirname, 'child-search.cjs');
const childSecrets = join(__dirname, 'child-secrets.cjs');
const childLive = join(__dirname, 'child-live.cjs');

interface Measured {
  ok: boolean;
  ms?: number;
  rssMB?: number;
  error?: string;
  [key: string]: unknown;
}

function args(): { quick: boolean; runs: number | null; out: string; only: string[] | null; dir: string } {
  const argv = process.argv.slice(2);
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i === -1 ? undefined : argv[i + 1];
  };
  const only = value('--only');
  return {
    quick: argv.includes('--quick'),
    runs: value('--runs') ? Number(value('--runs')) : null,
    out: value('--out') ?? join(repo, 'out', 'bench', 'results.md'),
    only: only ? only.split(',') : null,
    dir: value('--dir') ?? join(tmpdir(), 'canopy-bench'),
  };
}

function child(script: string, argv: string[], timeoutMs = 15 * 60_000): Measured {
  const r = spawnSync(process.execPath, [script, ...argv], {
    cwd: repo,
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 16 * MB,
  });
  const line = (r.stdout ?? '').trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as Measured;
  } catch {
    const why = r.error?.message ?? (r.stderr ?? '').trim().split('\n').slice(-3).join(' | ');
    return { ok: false, error: `exit ${r.status ?? r.signal}: ${why.slice(0, 200)}` };
  }
}

/** The session id in a generated file's header line. */
function sessionIdOf(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const header = JSON.parse(buf.subarray(0, n).toString('utf8').split('\n')[0]!) as { id: string };
    return header.id;
  } finally {
    closeSync(fd);
  }
}

/** Median run by time (its RSS with it); failures win (a reader that cannot open the file). */
function repeat(runs: number, measure: () => Measured): Measured {
  const all: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    const m = measure();
    if (!m.ok) return m;
    all.push(m);
  }
  all.sort((a, b) => (a.ms ?? 0) - (b.ms ?? 0));
  const mid = all[Math.floor(all.length / 2)]!;
  return {
    ...mid,
    runs: all.length,
    rssMB: median(all.map((m) => m.rssMB ?? 0)),
    minMs: all[0]!.ms,
    all: all.map((m) => m.ms ?? 0),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

const fmtMs = (m: Measured | undefined): string =>
  m?.ok && m.ms !== undefined
    ? m.ms >= 1000
      ? `${(m.ms / 1000).toFixed(2)} s`
      : `${m.ms.toFixed(m.ms < 10 ? 2 : 0)} ms`
    : 'fails';
const fmtMB = (m: Measured | undefined): string => (m?.rssMB !== undefined ? `${m.rssMB.toFixed(0)} MB` : '–');
const ratio = (a: number | undefined, b: number | undefined, target?: string): string => {
  if (a === undefined || b === undefined || !b) return '–';
  const r = a / b;
  return `${r < 0.1 ? r.toFixed(3) : r.toFixed(2)}×${target ? ` (${target})` : ''}`;
};

interface StoreShape {
  /** Entries of session i (most small, some long, like a real store). */
  entries: (i: number) => number;
  scale: number;
  text?: 'realistic';
}

/** The list bench's store: 10,000 small sessions, text from the small vocabulary. */
const SMALL_STORE: StoreShape = { entries: (i) => (i % 50 === 0 ? 400 : 8 + ((i * 7919) % 60)), scale: 0.4 };
/** The same 10,000 sessions with realistic text (search depends on how selective text is). */
const SEARCH_STORE: StoreShape = { ...SMALL_STORE, text: 'realistic' };
/** ~3 GB in 3,000 sessions of ~1 MB, a few of ~12 MB (pi #4122: a 2.6 GB store). */
const SEARCH_STORE_3G: StoreShape = {
  entries: (i) => (i % 50 === 0 ? 3000 : 60 + ((i * 7919) % 300)),
  scale: 1,
  text: 'realistic',
};

/** `sessions` sessions across `projects` project directories (cached by name). */
function cachedStore(dir: string, sessions: number, projects: number, shape: StoreShape = SMALL_STORE): string {
  const suffix = shape === SMALL_STORE ? '' : shape === SEARCH_STORE ? '-text2' : '-3g-text2';
  const root = join(dir, `store-${sessions}-${projects}-v${GENERATOR_VERSION}${suffix}`);
  if (existsSync(join(root, '.complete'))) return root;
  rmSync(root, { recursive: true, force: true });
  const tmp = `${root}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const start = Date.UTC(2025, 5, 1);
  for (let i = 0; i < sessions; i++) {
    const p = i % projects;
    const cwd = `/home/alice/projects/app-${String(p).padStart(3, '0')}`;
    const projectDir = join(tmp, `--home-alice-projects-app-${String(p).padStart(3, '0')}--`);
    if (i < projects) mkdirSync(projectDir, { recursive: true });
    const when = new Date(start + i * 997_000);
    const id = `0198${i.toString(16).padStart(4, '0')}-0000-7000-8000-${i.toString(16).padStart(12, '0')}`;
    const name = `${when.toISOString().replace(/[:.]/g, '-')}_${id}.jsonl`;
    writeSessionFile(join(projectDir, name), {
      targetBytes: 50 * MB,
      maxEntries: shape.entries(i),
      seed: i + 1,
      scale: shape.scale,
      cwd,
      sessionId: id,
      startMs: when.getTime(),
      ...(shape.text ? { text: shape.text } : {}),
    });
  }
  renameSync(tmp, root);
  writeFileSync(join(root, '.complete'), '');
  return root;
}

function dirBytes(root: string): number {
  let total = 0;
  for (const d of readdirSync(root, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const f of readdirSync(join(root, d.name), { withFileTypes: true })) {
      if (f.name.endsWith('.jsonl')) total += statSync(join(root, d.name, f.name)).size;
    }
  }
  return total;
}

function machine(): string {
  const cpu = cpus();
  return `${type()} ${release()}, ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GB RAM (${(freemem() / 1024 ** 3).toFixed(0)} GB free), Node ${process.version}`;
}

function main(): void {
  const a = args();
  const want = (row: string): boolean => !a.only || a.only.includes(row);
  const sizes = a.quick ? [10, 100] : [10, 100, 500, 1024];
  const rows: string[][] = [];
  const notes: string[] = [];
  const log = (text: string): void => void process.stderr.write(`${text}\n`);
  log(`bench: ${machine()}`);
  log(`bench: files in ${a.dir}`);

  /**
   * The app's open (session.open to the first frame's data, then 60 previews) against the CLI's open
   * of the same file, the two alternating run by run: on this shared VM a block of runs of one and
   * then a block of the other drift apart by more than the difference measured.
   */
  const appRow = (label: string, path: string, runs: number): void => {
    log(`bench: open ${label}: the app's graph, alternating with the CLI's open`);
    const apps: Measured[] = [];
    const clis: Measured[] = [];
    for (let k = 0; k < runs; k++) {
      apps.push(child(childCanopy, ['graph', path]));
      clis.push(child(childCanopy, ['open', path]));
    }
    const g = repeat(runs, () => apps.shift()!);
    const cli = repeat(runs, () => clis.shift()!);
    const range = (ms: number[]): string =>
      `${fmtMs({ ok: true, ms: Math.min(...ms) })}–${fmtMs({ ok: true, ms: Math.max(...ms) })}`;
    rows.push([
      `app open ${label} (session.open to the first frame's data) vs the CLI's open, alternating`,
      fmtMs(g),
      fmtMB(g),
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      g.ok && cli.ok
        ? `${ratio(g.ms, cli.ms, '≤ 1.5 vs CLI')} time, ${ratio(g.rssMB, cli.rssMB, '≤ 2 vs CLI')} RSS (CLI ${fmtMs(cli)}, ${fmtMB(cli)}); previews of 60 nodes ${fmtMs({ ok: true, ms: g.previewsMs as number })} (target ≤ 100 ms)`
        : `fails: ${String(g.error ?? cli.error)}`,
    ]);
    if (g.ok && cli.ok)
      notes.push(
        `open ${label} in the app: a ${Number(g.answerMB).toFixed(1)} MB answer; ${runs} alternating runs, app ${range(g.all as number[])}, CLI ${range(cli.all as number[])}`,
      );
  };

  for (const size of sizes) {
    if (!want('open')) break;
    const label = size >= 1024 ? `${size / 1024} GB` : `${size} MB`;
    log(`bench: generating ${label} (cached)…`);
    const { path } = cachedSession(a.dir, `session-${size}mb`, size * MB, size);
    const runs = a.runs ?? (size <= 100 ? 5 : size <= 500 ? 3 : 2);
    child(childBaseline, ['bare', path]); // warm the page cache
    log(`bench: open ${label}: bare read`);
    const bare = repeat(runs, () => child(childBaseline, ['bare', path]));
    log(`bench: open ${label}: canopy`);
    const canopy = repeat(runs, () => child(childCanopy, ['open', path]));
    const least = repeat(runs, () => child(childCanopy, ['floor', path]));
    log(`bench: open ${label}: pi`);
    const pi = repeat(size >= 500 ? 1 : Math.min(runs, 3), () => child(childPi, ['open', path]));
    rows.push([
      `open ${label} to leaf + context (${String(canopy.entries ?? '?')} entries)`,
      fmtMs(canopy),
      fmtMB(canopy),
      pi.ok ? fmtMs(pi) : `fails: ${String(pi.error ?? '').slice(0, 60)}`,
      fmtMB(pi),
      fmtMs(bare),
      fmtMB(bare),
      ratio(canopy.ms, pi.ok ? pi.ms : undefined, size === 500 ? '≤ 0.05' : undefined),
      ratio(canopy.rssMB, pi.ok ? pi.rssMB : undefined, size === 500 ? '≤ 0.10' : undefined),
      ratio(canopy.ms, bare.ms, size === 500 ? '≤ 1.5' : undefined),
    ]);
    if (size >= 100) appRow(label, path, runs);
    if (least.ok)
      notes.push(
        `open ${label}: floor of any index (read + line split + envelope scan of each line, nothing kept) ${fmtMs(least)} = ${ratio(least.ms, bare.ms)} the bare read`,
      );
    if (canopy.indexMs !== undefined)
      notes.push(
        `open ${label}: index ${fmtMs({ ok: true, ms: canopy.indexMs as number })}, then leaf/path/context ${fmtMs({ ok: true, ms: (canopy.ms ?? 0) - (canopy.indexMs as number) })} (path ${String(canopy.pathLength)} entries, ${String(canopy.contextMessages)} context messages)`,
      );
  }

  // The CLI against pi's reader on the same 300 MiB file, same run (issue 22): `canopy context` validates
  // every line as JSON.parse would (verify 'parse'), and `tree` reads as fast as `context`.
  if (want('cli')) {
    log('bench: generating 300 MiB (cached)…');
    const { path } = cachedSession(a.dir, 'session-300mb', 300 * MB, 300);
    const runs = a.runs ?? 3;
    child(childBaseline, ['bare', path]); // warm the page cache
    log('bench: cli 300 MiB: canopy context, canopy tree, pi');
    // Alternating run by run (this shared VM drifts more between blocks of runs than the ratios differ).
    const runsOf: Measured[][] = [[], [], []];
    for (let k = 0; k < runs; k++) {
      runsOf[0]!.push(child(childCanopy, ['cli-context', path]));
      runsOf[1]!.push(child(childCanopy, ['cli-tree', path]));
      runsOf[2]!.push(child(childPi, ['open', path]));
    }
    const [context, tree, pi] = runsOf.map((ms) => repeat(ms.length, () => ms.shift()!)) as [
      Measured,
      Measured,
      Measured,
    ];
    rows.push([
      'canopy context 300 MiB (every line validated) vs pi',
      fmtMs(context),
      fmtMB(context),
      pi.ok ? fmtMs(pi) : `fails: ${String(pi.error ?? '').slice(0, 60)}`,
      fmtMB(pi),
      '–',
      '–',
      ratio(context.ms, pi.ok ? pi.ms : undefined, '≤ 0.25'),
      ratio(context.rssMB, pi.ok ? pi.rssMB : undefined, '≤ 0.20'),
      '–',
    ]);
    rows.push([
      'canopy tree 300 MiB vs canopy context',
      fmtMs(tree),
      fmtMB(tree),
      '–',
      '–',
      '–',
      '–',
      `${ratio(tree.ms, context.ms, '≤ 1.2 vs context')} time`,
      ratio(tree.rssMB, context.rssMB),
      '–',
    ]);
  }

  // pi #9613: a 2.6 GB session, nearly all of it base64 screenshots (user prompts, tool results).
  if (!a.quick && (want('open') || want('open-images'))) {
    const label = '2.6 GiB image-heavy';
    log(`bench: generating the ${label} session (cached; a minute or two the first time)…`);
    const { path } = cachedSession(a.dir, 'session-2600mb-images', Math.round(2.6 * 1024 * MB), 26, { images: true });
    const runs = a.runs ?? 2;
    child(childBaseline, ['bare', path]);
    log(`bench: open ${label}: bare read`);
    const bare = repeat(runs, () => child(childBaseline, ['bare', path]));
    log(`bench: open ${label}: canopy`);
    const canopy = repeat(runs, () => child(childCanopy, ['open', path]));
    rows.push([
      `open ${label} to leaf + context (${String(canopy.entries ?? '?')} entries)`,
      fmtMs(canopy),
      fmtMB(canopy),
      'not run (pi reads a file into one string: at most 512 MiB)',
      '–',
      fmtMs(bare),
      fmtMB(bare),
      '–',
      '–',
      ratio(canopy.ms, bare.ms),
    ]);
    appRow(label, path, runs);
    if (canopy.indexMs !== undefined)
      notes.push(
        `open ${label}: index ${fmtMs({ ok: true, ms: canopy.indexMs as number })}, then leaf/path/context ${fmtMs({ ok: true, ms: (canopy.ms ?? 0) - (canopy.indexMs as number) })} (path ${String(canopy.pathLength)} entries, ${String(canopy.contextMessages)} context messages)`,
      );
  }

  if (want('open-once')) {
    const { path } = cachedSession(a.dir, 'session-4mb', 4 * MB, 4);
    const runs = a.runs ?? 7;
    child(childBaseline, ['bare', path]);
    log('bench: open 4 MB with every preview: one read, then two');
    const once = repeat(runs, () => child(childCanopy, ['previews-once', path]));
    const twice = repeat(runs, () => child(childCanopy, ['previews-twice', path]));
    rows.push([
      `open 4 MB with every preview (${String(once.entries ?? '?')} entries): one read vs index, then a previews pass`,
      fmtMs(once),
      fmtMB(once),
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      once.ok && twice.ok
        ? `${ratio(once.ms, twice.ms, '< 1 vs two reads')} time, ${ratio(once.rssMB, twice.rssMB)} RSS; two reads ${fmtMs(twice)}, ${fmtMB(twice)}`
        : `fails: ${String(once.error ?? twice.error)}`,
    ]);
  }

  if (want('switch')) {
    log('bench: generating the 400k-entry session (cached)…');
    const { path } = cachedSession(a.dir, 'session-400k-entries', 0, 400_000, { maxEntries: 400_000, scale: 0.12 });
    child(childBaseline, ['bare', path]);
    log('bench: switch branches');
    const sw = child(childCanopy, ['switch', path]);
    rows.push([
      `switch branch, ${String(sw.entries ?? '?')}-entry session (path + 50 bodies)`,
      sw.ok ? `${fmtMs(sw)} median, ${fmtMs({ ok: true, ms: sw.maxMs as number })} max` : `fails: ${sw.error}`,
      fmtMB(sw),
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      '(target ≤ 5 ms)',
    ]);
    if (sw.ok) {
      const f = (k: string): string => fmtMs({ ok: true, ms: sw[k] as number });
      notes.push(
        `switch: ${String(sw.switches)} branch tips, longest path ${String(sw.longestPath)} entries; medians: walk ${f('walkMs')}, path ids ${f('idsMs')}, 50 bodies ${f('bodiesMs')}; first walk after opening ${f('firstMs')}`,
      );
    }
  }

  if (want('list')) {
    log('bench: generating the store of 10,000 sessions (cached)…');
    const root = cachedStore(a.dir, 10_000, 200);
    const bytes = dirBytes(root);
    child(childBaseline, ['whole', root]);
    const runs = a.runs ?? 3;
    log('bench: list');
    const list = repeat(runs, () => child(childCanopy, ['list', root]));
    const headers = repeat(runs, () => child(childBaseline, ['headers', root]));
    const whole = repeat(runs, () => child(childBaseline, ['whole', root]));
    rows.push([
      `list ${String(list.sessions ?? '?')} sessions / 200 projects (${(bytes / MB).toFixed(0)} MB)`,
      fmtMs(list),
      fmtMB(list),
      '–',
      '–',
      `headers ${fmtMs(headers)}, whole ${fmtMs(whole)}`,
      `${fmtMB(headers)}, ${fmtMB(whole)}`,
      '–',
      '–',
      `${ratio(list.ms, headers.ms, '≤ 1.5 vs headers')}, ${ratio(list.ms, whole.ms, '≤ 0.5 vs whole')}`,
    ]);
  }

  const searchRows = (label: string, root: string): void => {
    log(`bench: search (index build of the ${label})`);
    const whole = repeat(a.runs ?? 3, () => child(childBaseline, ['whole', root]));
    // pi's own reader over the same store (issue 23: the build ≤ 4× it).
    const piStore = child(childPi, ['store', root], 60 * 60_000);
    const se = child(childSearch, ['search', root], 90 * 60_000);
    const n = (k: string): number => se[k] as number;
    const msOf = (k: string): string => (typeof se[k] === 'number' ? fmtMs({ ok: true, ms: n(k) }) : '–');
    rows.push([
      `search ${label}: build the index, ${String(se.sessions ?? '?')} sessions (${se.ok ? (n('bytes') / MB).toFixed(0) : '?'} MB)`,
      se.ok ? fmtMs(se) : `fails: ${se.error}`,
      fmtMB(se),
      '–',
      '–',
      fmtMs(whole),
      fmtMB(whole),
      '–',
      '–',
      // The rate target (≥ 0.5× a bare read's rate) is the time ratio ≤ 2.
      `${ratio(se.ms, whole.ms, 'vs a bare read')}; ${piStore.ok ? `${ratio(se.ms, piStore.ms, '≤ 4 vs pi reading the store')} (pi ${fmtMs(piStore)})` : `pi's reader failed: ${String(piStore.error)}`}; first hit while building after ${msOf('firstHitMs')}`,
    ]);
    if (!se.ok) return;
    // The bare byte search reads every file of the store once per phrase (child-search byteStage).
    const perPhrase = Number(se.byteBareMs) / Math.max(1, Number(se.byteStagePhrases));
    rows.push([
      `search ${label}: 50 phrases / 10 re: queries on the built index`,
      `${msOf('phraseP95')} / ${msOf('regexP95')} p95`,
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      `${perPhrase > 0 ? `${(Number(se.phraseP95) / perPhrase).toFixed(2)}× a byte search of the store for one phrase (${fmtMs({ ok: true, ms: perPhrase })}; target ≤ 0.3)` : '(target ≤ 0.3× a byte search)'}; ${String(se.phraseHits)} of ${String(se.phrases)} phrases found, slowest ${msOf('phraseMax')}; every hit (pages of 50, ${String(se.completeHits)} hits) ${msOf('completeP95')} p95${perPhrase > 0 ? `, ${(Number(se.completeP95) / perPhrase).toFixed(2)}× (target ≤ 0.3)` : ''}; the app's first page (answered after 150 ms once it holds a hit) ${msOf('appFirstP95')} p95`,
    ]);
    rows.push([
      `search ${label}: every hit of a \`re:\` with no literal (\`[0-9]{3}[a-z]{2}[0-9]\`) on the built index`,
      msOf('regexAllMs'),
      '–',
      '–',
      '–',
      `regex scan ${msOf('regexScanMs')}`,
      '–',
      '–',
      '–',
      `${ratio(n('regexAllMs'), n('regexScanMs'), '≤ 1.2 vs a regex scan')}; ${String(se.regexAllHits)} hits (the scan: ${String(se.regexScanLines)} raw lines); first page ${msOf('regexFirstPageMs')}`,
    ]);
    rows.push([
      `search ${label}: every hit of ${String(se.byteStagePhrases)} phrases with nothing indexed (files read directly)`,
      msOf('byteStageMs'),
      '–',
      '–',
      '–',
      `bare byte search ${msOf('byteBareMs')}`,
      '–',
      '–',
      '–',
      `${ratio(n('byteStageMs'), n('byteBareMs'), '≤ 1.5 vs a byte search')}; ${String(se.byteStageHits)} hits`,
    ]);
    rows.push([
      `search ${label}: appended line searchable`,
      msOf('appendMs'),
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      '(target ≤ 100 ms)',
    ]);
    rows.push([
      `search ${label}: index size`,
      `${(n('indexBytes') / MB).toFixed(1)} MB`,
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      `${ratio(n('indexBytes'), n('textChars'), 'vs searchable text')}; text ${(n('textChars') / MB).toFixed(1)} M chars`,
    ]);
  };
  if (want('search')) {
    log('bench: generating the 10,000-session store with realistic text (cached)…');
    searchRows('10k', cachedStore(a.dir, 10_000, 200, SEARCH_STORE));
  }
  // Not in the default run (it watches for ~25 s): --only live.
  if (a.only?.includes('live')) {
    log('bench: live store (10,000 sessions served, one appended 4×/s for 10 s)…');
    const m = child(childLive, [cachedStore(a.dir, 10_000, 200)], 5 * 60_000);
    if (!m.ok) notes.push(`live: failed: ${String(m.error)}`);
    else {
      const n = (k: string): number => Number(m[k]);
      rows.push([
        `live ${String(m.sessions)} sessions: sessions.list after an append vs warm, no change`,
        fmtMs({ ok: true, ms: n('afterAppendMs') }),
        '–',
        '–',
        '–',
        `warm ${fmtMs({ ok: true, ms: n('warmMs') })}`,
        '–',
        '–',
        '–',
        ratio(n('afterAppendMs'), n('warmMs'), '≤ 1.5 vs warm'),
      ]);
      notes.push(
        `live: serve CPU ${(n('busyCores') - n('idleCores')).toFixed(3)} core above idle while appended 4×/s (target ≤ 0.1; idle ${n('idleCores').toFixed(3)}, appended ${n('busyCores').toFixed(3)}; ${String(m.changes)} sessions.changed events); a relisting (what each append cost before) ${fmtMs({ ok: true, ms: n('relistMs') })}; the appended row's size and entry count ${m.rowOk ? 'right' : 'WRONG'}; a fork: ${String(m.forkRoundTrips)} round trips (fork → open → context + lineage), its answer ${m.forkHasRow ? 'carries' : 'LACKS'} its row, ${String(m.forkRelists)} relistings, ${fmtMs({ ok: true, ms: n('forkMs') })}`,
      );
    }
  }
  if (want('live-render')) {
    const big = cachedSession(a.dir, 'session-100mb', 100 * MB, 100).path;
    liveRenderRows({
      rows,
      notes,
      log,
      big: { path: big, sessionId: sessionIdOf(big) },
      run: (argv) => child(join(repo, 'bench', 'live-render.mjs'), argv, 20 * 60_000),
    });
  }
  // Not in the default run (a few minutes; it serves the built app): --only serve.
  if (a.only?.includes('serve')) {
    serveRows(a.dir, {
      rows,
      notes,
      log,
      run: (argv) => child(join(__dirname, 'child-serve.cjs'), argv, 20 * 60_000),
      store: () => cachedStore(a.dir, 10_000, 200, SEARCH_STORE),
    });
  }
  // Not in the default run (generating and indexing ~3 GB takes many minutes): --only search3g.
  if (a.only?.includes('search3g')) {
    log('bench: generating the ~3 GB store (cached)…');
    searchRows('3 GB', cachedStore(a.dir, 3_000, 60, SEARCH_STORE_3G));
  }

  if (want('secrets')) {
    log('bench: the secret radar over the 1,000-session store with realistic text (cached)…');
    const root = cachedStore(a.dir, 1_000, 50, SEARCH_STORE);
    const whole = repeat(a.runs ?? 3, () => child(childBaseline, ['whole', root]));
    const se = child(childSecrets, ['secrets', root], 30 * 60_000);
    const mb = se.ok ? ((se.bytes as number) / MB).toFixed(0) : '?';
    rows.push([
      `secrets: first scan of ${String(se.sessions ?? '?')} sessions (${mb} MB)`,
      se.ok ? fmtMs(se) : `fails: ${se.error}`,
      fmtMB(se),
      '–',
      '–',
      fmtMs(whole),
      fmtMB(whole),
      '–',
      '–',
      `${ratio(se.ms, whole.ms)} a bare read; unchanged rescan ${fmtMs({ ok: true, ms: se.rescanMs as number })}; ${String(se.findings ?? '?')} findings in generated text (false positives)`,
    ]);
  }

  if (want('layout')) {
    log('bench: generating the 100k-entry session (cached)…');
    const { path } = cachedSession(a.dir, 'session-100k-entries', 0, 100_000, { maxEntries: 100_000, scale: 0.12 });
    log('bench: layout');
    const lay = repeat(a.runs ?? 3, () => child(childCanopy, ['layout', path]));
    rows.push([
      `filter + collapse, ${String(lay.entries ?? '?')}-entry tree (renderer)`,
      lay.ok ? fmtMs(lay) : `fails: ${lay.error}`,
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      '–',
      `(target ≤ 100 ms; ${String(lay.drawn ?? '?')} nodes drawn)`,
    ]);
    if (lay.ok)
      notes.push(
        `layout: buildGraphView (filter, collapse) ${fmtMs(lay)}; buildTreeIndex before it ${fmtMs({ ok: true, ms: lay.treeIndexMs as number })}; the level of detail in lanes as it opens ${fmtMs({ ok: true, ms: lay.openLodMs as number })} (${String(lay.openNodes)} nodes), at fit ${fmtMs({ ok: true, ms: lay.fitLodMs as number })} (${String(lay.fitNodes)} nodes) (renderer/src/features/graph/model)`,
      );
  }

  if (want('filter')) {
    log('bench: the session list filter, 10,000 sessions, per keystroke');
    const f = repeat(a.runs ?? 3, () => child(childCanopy, ['filter', '10000']));
    rows.push([
      `session list filter per keystroke, ${String(f.sessions ?? '?')} sessions (renderer, median of ${String(f.keystrokes ?? '?')})`,
      f.ok ? fmtMs(f) : `fails: ${f.error}`,
      ...Array<string>(7).fill('–'),
      `(target ≤ 100 ms; slowest ${fmtMs({ ok: true, ms: f.maxMs as number })}, first (cold) ${fmtMs({ ok: true, ms: f.firstMs as number })})`,
    ]);
  }

  if (want('render')) {
    log('bench: generating the render sessions (cached)…');
    const large = 20_000;
    const rroot = join(a.dir, `render-v${GENERATOR_VERSION}`);
    const project = join(rroot, '--bench-render--');
    mkdirSync(project, { recursive: true });
    const ids = { large: '019b8a8e-0000-7000-8000-000000020000', small: '019b8a8e-0000-7000-8000-000000000100' };
    for (const [name, entries] of [
      ['large', large],
      ['small', 100],
    ] as const) {
      const path = join(project, `${name}.jsonl`);
      if (existsSync(path)) continue;
      writeSessionFile(`${path}.tmp`, {
        targetBytes: Number.POSITIVE_INFINITY,
        maxEntries: entries,
        scale: 0.12,
        seed: entries,
        sessionId: ids[name],
      });
      renameSync(`${path}.tmp`, path);
    }
    // The 100 MiB session of the open rows, linked in (not copied) for click → first frame.
    const big = cachedSession(a.dir, 'session-100mb', 100 * MB, 100).path;
    const bigLink = join(project, 'click-100mb.jsonl');
    if (!existsSync(bigLink) || statSync(bigLink).ino !== statSync(big).ino) {
      rmSync(bigLink, { force: true });
      linkSync(big, bigLink);
    }
    const clickId = sessionIdOf(big);
    log('bench: render (Chromium)');
    const r = child(childRender, [rroot, ids.large, ids.small, clickId], 15 * 60_000);
    type ClickCase = {
      firstNode: number;
      previews: number;
      toRequest: number | null;
      answer: number | null;
      waitFirstByte: number | null;
      afterAnswer: number | null;
      answerMB: number | null;
      marks: Record<string, number>;
      nodes: number;
      runs: number[];
    };
    type Case = {
      firstFrame: number;
      openMs: number;
      p95: number;
      maxFrame: number;
      heapMB: number;
      nodes: number;
      frames: number;
    };
    const c = (k: string): Case | undefined => (r.ok ? (r[k] as Case) : undefined);
    const [sm, lg, nv] = [c('small'), c('large'), c('naive')];
    const ms = (x: number | undefined): string => (x === undefined ? '–' : fmtMs({ ok: true, ms: x }));
    const label = `${large}-entry session`;
    const ck = r.ok ? (r.click as ClickCase | undefined) : undefined;
    if (!r.ok || (!(sm && lg && nv) && !ck)) {
      const why = r.skipped ? `skipped: ${String(r.skipped)}` : `fails: ${String(r.error ?? 'no case measured')}`;
      rows.push([`render in Chromium, ${label}`, why, '–', '–', '–', '–', '–', '–', '–', '–']);
      log(`bench: render ${why}`);
    }
    if (sm && lg && nv) {
      rows.push([
        `render: first frame, ${label} (Chromium)`,
        ms(lg.firstFrame),
        '–',
        '–',
        '–',
        '–',
        '–',
        '–',
        '–',
        `${ratio(lg.firstFrame, sm.firstFrame, '≤ 1.5 vs 100 entries')}; 100 entries ${ms(sm.firstFrame)}`,
      ]);
      rows.push([
        `render: pan frame time p95, ${label}`,
        `${ms(lg.p95)} p95, ${ms(lg.maxFrame)} max`,
        '–',
        '–',
        '–',
        '–',
        '–',
        '–',
        '–',
        `100 entries ${ms(sm.p95)} p95, ${ms(sm.maxFrame)} max (target ≤ its p95, no frame > 33 ms)`,
      ]);
      rows.push([
        `render: JS heap, ${label}, collapsed vs all drawn`,
        '–',
        `${lg.heapMB.toFixed(1)} MB heap`,
        '–',
        '–',
        '–',
        '–',
        '–',
        '–',
        `${ratio(lg.heapMB, nv.heapMB, '≤ 0.15 vs naive')}; naive ${nv.heapMB.toFixed(1)} MB, 100 entries ${sm.heapMB.toFixed(1)} MB`,
      ]);
      notes.push(
        `render: session.open answered (from navigation start) after ${ms(sm.openMs)} (100 entries) and ${ms(lg.openMs)} (${label}); the rest of the first frame is the renderer's own work`,
      );
      notes.push(
        `render: graph nodes in the DOM (react-flow draws only what is in view) — 100 entries ${sm.nodes}, ${label} ${lg.nodes} (collapsed), ${nv.nodes} (naive, ?naive=1); naive first frame ${ms(nv.firstFrame)}, pan p95 ${ms(nv.p95)}, max ${ms(nv.maxFrame)}; about ${lg.frames} frames per pan`,
      );
    }
    if (ck) {
      rows.push([
        `render: click → first graph frame, 100 MiB session (Chromium)`,
        ms(ck.firstNode),
        '–',
        '–',
        '–',
        '–',
        '–',
        '–',
        '–',
        `(target ≤ 1 s); previews of the nodes in view after ${ms(ck.previews)}, ${ms(ck.previews - ck.firstNode)} after the first frame (target ≤ 100 ms); runs ${ck.runs.join(', ')} ms`,
      ]);
      const m = (k: string): string => ms(ck.marks[k]);
      notes.push(
        `render: click → first frame of the 100 MiB session: request sent after ${ms(ck.toRequest ?? undefined)}, session.open answered in ${ms(ck.answer ?? undefined)} (first byte ${ms(ck.waitFirstByte ?? undefined)}, ${(ck.answerMB ?? 0).toFixed(1)} MB decoded), then ${ms(ck.afterAnswer ?? undefined)} in the renderer (tree index ${m('canopy:index')}, filter + collapse ${m('canopy:view')}; the rest is the level of detail, React and react-flow's first render); ${ck.nodes} nodes in the DOM`,
      );
    }
    const gr = r.ok ? (r.graph as GraphCase | undefined) : undefined;
    if (gr) graphRows(gr, ck, rows, ms);
  }

  // The whole store (issue 24): bench/store-rows.ts.
  const store3g = a.only?.includes('store-3g') ?? false;
  if (want('store') || a.only?.includes('store-2g') || a.only?.includes('store-10k') || store3g) {
    storeRows(
      {
        quick: a.quick,
        runs: a.runs,
        dir: a.dir,
        big: a.only?.includes('store-2g') ?? false,
        ...(a.only?.includes('store-10k') ? { sessions: 10_000 } : store3g ? { sessions: 3_000 } : {}),
      },
      {
        rows,
        log,
        run: (argv) => child(join(__dirname, 'child-store.cjs'), argv),
        repeat,
        fmtMs,
        fmtMB,
        ratio,
        store: (sessions) =>
          store3g ? cachedStore(a.dir, 3_000, 60, SEARCH_STORE_3G) : cachedStore(a.dir, sessions, 40),
        dirBytes,
      },
    );
  }

  const header = [
    'measurement',
    'Canopy time',
    'Canopy peak RSS',
    'pi time',
    'pi peak RSS',
    'bare read time',
    'bare read RSS',
    'time vs pi',
    'RSS vs pi',
    'time vs bare read',
  ];
  const table = [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  const text = [
    `Machine: ${machine()}.`,
    `Warm page cache; each number is the median of several fresh processes; pi = @earendil-works/pi-agent-core 0.82.1 (JsonlSessionStorage.open + Session.buildContext).`,
    '',
    table,
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
  process.stdout.write(`\n${text}`);
  mkdirSync(resolve(a.out, '..'), { recursive: true });
  writeFileSync(a.out, text);
  log(`bench: written to ${a.out}`);
}

main();
