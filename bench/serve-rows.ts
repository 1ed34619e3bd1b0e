/**
 * `npm run bench -- --only serve` (issue 22): the real `canopy serve` answers a simple request
 * (app.info, fired open-loop every 20 ms) while a 1M-entry context, the search index pass over the
 * 10,000-session store and a catastrophic regex run, alone and together. Child: bench/child-serve.ts.
 * Not in the default run (a few minutes, and it needs the built app: `npm run build`).
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

interface Measured {
  ok: boolean;
  error?: string;
  [key: string]: unknown;
}

interface Stats {
  n: number;
  p50: number;
  p95: number;
  max: number;
  maxAt: number;
  failed: number;
  failedBy: Record<string, number>;
  lateMax: number;
}

interface Regex {
  queries: number[];
  stopped: string;
  failed: number;
}

interface Call {
  ok: boolean;
  ms: number;
  bytes: number;
  head?: string;
}

/** A row with a measurement and a note, no pi or bare-read columns. */
const noteRow = (label: string, value: string, note: string): string[] => [
  label,
  value,
  ...Array<string>(7).fill('–'),
  note,
];

export const CHAIN_ID = '019c0000-0000-7000-8000-0000000000aa';
const REGEX_ID = '019c0000-0000-7000-8000-0000000000bb';
const HEADER_TIME = '2026-03-01T10:00:00.000Z';

/** A chain of `n` message entries (user and assistant in turn), ~285 bytes a line: 1M entries are ~285 MB. */
function writeChain(path: string, n: number): void {
  const fd = openSync(path, 'w');
  try {
    const header = { type: 'session', version: 3, id: CHAIN_ID, timestamp: HEADER_TIME, cwd: '/long' };
    let batch = `${JSON.stringify(header)}\n`;
    for (let i = 0; i < n; i++) {
      const message =
        i % 2 === 0
          ? { role: 'user', content: `step ${i} of a long run`, timestamp: 1 }
          : {
              role: 'assistant',
              content: [{ type: 'text', text: `answer ${i}` }],
              api: 'x',
              provider: 'p',
              model: 'm',
              usage: {
                input: 10,
                output: 5,
                cacheRead: 0,
                cacheWrite: 0,
                totalTokens: 15,
                cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 },
              },
              stopReason: 'stop',
              timestamp: 1,
            };
      const entry = { type: 'message', id: `e${i}`, parentId: i ? `e${i - 1}` : null, timestamp: HEADER_TIME, message };
      batch += `${JSON.stringify(entry)}\n`;
      if (batch.length > 4 * 1024 * 1024) {
        writeSync(fd, batch);
        batch = '';
      }
    }
    writeSync(fd, batch);
  } finally {
    closeSync(fd);
  }
}

/** The 1M-entry chain's root (cached) and a root holding one line a catastrophic regex backtracks on. */
export function serveRoots(dir: string): { chainRoot: string; regexRoot: string } {
  const base = join(dir, 'serve-v1');
  const chainRoot = join(base, 'chain');
  const chain = join(chainRoot, '--long--', 'long.jsonl');
  if (!existsSync(join(base, '.complete'))) {
    rmSync(base, { recursive: true, force: true });
    mkdirSync(join(chainRoot, '--long--'), { recursive: true });
    writeChain(`${chain}.tmp`, 1_000_000);
    renameSync(`${chain}.tmp`, chain);
    const regexDir = join(base, 'regex', '--regex--');
    mkdirSync(regexDir, { recursive: true });
    const lines = [
      { type: 'session', version: 3, id: REGEX_ID, timestamp: HEADER_TIME, cwd: '/regex' },
      {
        type: 'message',
        id: 'r0',
        parentId: null,
        timestamp: HEADER_TIME,
        message: { role: 'user', content: `${'a'.repeat(32)}!`, timestamp: 1 },
      },
    ];
    writeFileSync(join(regexDir, 'regex.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    writeFileSync(join(base, '.complete'), '');
  }
  return { chainRoot, regexRoot: join(base, 'regex') };
}

export interface ServeBenchTools {
  rows: string[][];
  notes: string[];
  log: (text: string) => void;
  run: (argv: string[]) => Measured;
  /** The 10,000-session search store (its index pass runs for minutes). */
  store: () => string;
}

const ms = (x: number): string =>
  Number.isFinite(x) ? (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`) : '–';
const lat = (s: Stats): string => `${ms(s.p50)} p50, ${ms(s.p95)} p95, ${ms(s.max)} max`;
const maxAt = (s: Stats): string => `the slowest sent ${ms(s.maxAt)} into the phase`;
const failures = (s: Stats): string =>
  Object.entries(s.failedBy)
    .map(([status, n]) => `${n} ${status === '0' ? 'unanswered' : `answered ${-Number(status)}`}`)
    .join(', ');
const tail = (s: Stats): string =>
  `${s.n} requests${s.failed ? ` (${failures(s)})` : ''}, ${maxAt(s)}${s.lateMax > 20 ? `, client timer up to ${ms(s.lateMax)} late` : ''}`;
const regexOf = (r: Regex): string =>
  `${r.queries.length} queries (${r.queries.map((q) => ms(q)).join(', ')})${r.failed ? `, ${r.failed} failed` : ''}; the last said ${r.stopped}`;
const callOf = (c: Call): string =>
  c.ok ? `${ms(c.ms)}, ${(c.bytes / 1024 / 1024).toFixed(1)} MB` : `FAILED: ${c.head ?? ''}`;

export function serveRows(dir: string, t: ServeBenchTools): void {
  const { rows, notes, log } = t;
  log('bench: serve: generating the 1M-entry chain (cached) and the 10,000-session store (cached)…');
  const { chainRoot, regexRoot } = serveRoots(dir);
  const store = t.store();
  log('bench: serve: app.info every 20 ms (open loop) while heavy work runs (a few minutes)');
  const m = t.run([chainRoot, regexRoot, store, CHAIN_ID]);
  if (!m.ok) {
    rows.push(noteRow('serve under heavy work', `fails: ${String(m.error).slice(0, 300)}`, '–'));
    return;
  }
  const st = (k: string): Stats => m[`${k}Phase`] as Stats;
  const target = (s: Stats): string => `${s.p95 <= 100 ? 'met' : 'NOT met'} (target ≤ 100 ms p95)`;
  const row = (label: string, s: Stats, extra: string, goal = target(s)): void =>
    void rows.push(noteRow(`serve: app.info while ${label}`, lat(s), `${goal}; ${tail(s)}; ${extra}`));
  const regex = m.regex as Regex;
  const all = m.all as { context: Call; regex: Regex };
  const status = (k: string): string => {
    const s = m[k] as { indexing: boolean; done: number; total: number };
    return `${s.indexing ? 'indexing' : 'not indexing'} ${s.done}/${s.total}`;
  };
  const secrets = (k: string): string => {
    const s = m[k] as { scanning: boolean; done: number; total: number } | undefined;
    return s ? `secret radar (in its worker) ${s.scanning ? 'scanning' : 'not scanning'} ${s.done}/${s.total}` : '';
  };
  row('idle', st('idle'), 'nothing else running', '–');
  row(
    'session.open of the 1M-entry chain runs (its graph built in the session worker)',
    st('open'),
    `open ${callOf(m.open as Call)}`,
  );
  row('session.context of the 1M-entry chain runs', st('context'), `context ${callOf(m.context as Call)}`);
  row(
    'the search index pass runs (10 s after sessions.list)',
    st('index'),
    `index ${status('statusAfterIndex')} after 10 s; ${secrets('secretsAfterIndex')}`,
  );
  row(
    'a catastrophic regex runs (`re:(a+)+$` back to back for 6 s)',
    st('regex'),
    `${regexOf(regex)}; idle on that serve ${lat(m.regexIdle as Stats)}`,
  );
  row(
    'context + index pass + regex run together',
    st('all'),
    `context ${callOf(all.context)}; regex ${regexOf(all.regex)}; index ${status('statusAfterAll')} at the end; ${secrets('secretsAfterAll')}`,
  );
  const late = Math.max(...['idle', 'open', 'context', 'index', 'regex', 'all'].map((k) => st(k).lateMax));
  notes.push(
    `serve: latency counts from each request's scheduled time (every 20 ms, open loop); this client's timers ran at most ${ms(late)} late`,
  );
}
