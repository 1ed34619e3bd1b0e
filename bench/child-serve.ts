/**
 * `serve CHAIN_ROOT REGEX_ROOT STORE_ROOT CHAIN_ID`: the real `canopy serve` (bin/canopy.cjs, a child
 * process) keeps answering a simple request while heavy work runs (issue 22). `app.info` is fired
 * OPEN-LOOP every 20 ms on a fixed schedule, whether or not earlier ones were answered, so a loop
 * held for 1 s shows as ~50 slow requests, not one. Each request's latency counts from its scheduled
 * time and belongs to the phase it was sent in. Phases: idle; session.open of the 1M-entry chain (its
 * graph built in the session worker, the file indexed on the serving loop in slices); session.context of it; the search index pass (after sessions.list, a fresh
 * CANOPY_CACHE_DIR); a catastrophic regex (a second serve on the regex session alone, its index built
 * first, so the regex runs alone); all three at once. Prints one JSON line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const PERIOD_MS = 20;
const REGEX = 're:(a+)+$';
const repo = resolve(__dirname, '..', '..');

interface Server {
  child: ChildProcess;
  url: URL;
  token: string;
  temp: string[];
}

async function startServe(roots: string[]): Promise<Server> {
  const temp = [
    mkdtempSync(join(tmpdir(), 'canopy-serve-bench-cache-')),
    mkdtempSync(join(tmpdir(), 'canopy-serve-bench-agent-')),
  ];
  // CANOPY_BENCH_SERVE_PROF=DIR: serve writes CPU profiles there (where a stall came from).
  const prof = process.env.CANOPY_BENCH_SERVE_PROF;
  const child = spawn(
    process.execPath,
    [
      ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []),
      join(repo, 'bin/canopy.cjs'),
      'serve',
      '--no-watch',
      ...roots.flatMap((r) => ['--root', r]),
    ],
    {
      env: { ...process.env, CANOPY_CACHE_DIR: temp[0], PI_CODING_AGENT_DIR: temp[1] },
      // Profiled, serve is stopped through its IPC channel (SIGTERM ends it before a profile is written).
      stdio: ['ignore', 'pipe', 'inherit', ...(prof ? (['ipc'] as const) : [])],
    },
  );
  const url = await new Promise<URL>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /Open (http\S+)\n/.exec(out);
      if (m) ok(new URL(m[1]!));
    });
    child.on('exit', (code) => fail(new Error(`serve exited (${code})`)));
  });
  return { child, url, token: url.searchParams.get('token')!, temp };
}

async function stopServe(s: Server): Promise<void> {
  const exited = new Promise((r) => s.child.once('exit', r));
  if (s.child.connected) s.child.disconnect();
  else s.child.kill('SIGTERM');
  await exited;
  for (const dir of s.temp) rmSync(dir, { recursive: true, force: true });
}

type Call = { ok: boolean; ms: number; bytes: number; head?: string };

/** A call whose answer is read as bytes and dropped (a 1M-entry context is ~100 MB: parsing it here would stall this client). */
async function call(s: Server, channel: string, args: unknown): Promise<Call> {
  const t0 = performance.now();
  const res = await fetch(new URL(`/api/${channel}`, s.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-canopy-token': s.token },
    body: JSON.stringify(args),
  });
  let bytes = 0;
  let head = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (head.length < 400) head += Buffer.from(chunk.subarray(0, 400)).toString('utf8');
    bytes += chunk.length;
  }
  return {
    ok: res.status === 200 && head.startsWith('{"ok":true'),
    ms: performance.now() - t0,
    bytes,
    head: head.slice(0, 400),
  };
}

async function json<T>(s: Server, channel: string, args: unknown): Promise<T> {
  const res = await fetch(new URL(`/api/${channel}`, s.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-canopy-token': s.token },
    body: JSON.stringify(args),
  });
  const body = (await res.json()) as { ok: boolean; data: T; error?: unknown };
  if (!body.ok) throw new Error(`${channel}: ${JSON.stringify(body.error)}`);
  return body.data;
}

interface Sample {
  phase: string;
  ms: number;
  status: number;
  late: number;
  /** Scheduled this long after its phase began. */
  at: number;
}
type ToPoller = { kind: 'phase'; phase: string } | { kind: 'drain' } | { kind: 'stop' };
type FromPoller = { kind: 'drained' } | { kind: 'samples'; samples: Sample[] };

/**
 * The poller, in a worker thread of this process: app.info every PERIOD_MS on a fixed schedule, each
 * sample labelled with the phase it was sent in. Its own event loop, so reading a 140 MB context
 * answer on the main thread here does not delay its timers (what is left is reported as `late`).
 */
function poller(): void {
  const port = parentPort!;
  const { url, token } = workerData as { url: string; token: string };
  const s: Server = { child: null as unknown as ChildProcess, url: new URL(url), token, temp: [] };
  const samples: Sample[] = [];
  const pending = new Set<Promise<void>>();
  let phase = 'warmup';
  let phaseAt = performance.now();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const t0 = performance.now();
  let k = 0;
  const tick = (): void => {
    const due = t0 + k * PERIOD_MS;
    const sample = { phase, late: performance.now() - due, at: due - phaseAt };
    // Latency counts from the scheduled time, so a late timer here counts against serve (and shows as `late`).
    const p = fetch(new URL('/api/app.info', s.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-canopy-token': s.token },
      body: '{}',
    })
      .then(async (res) => ({ status: (await res.text()).startsWith('{"ok":true') ? res.status : -res.status }))
      .catch(() => ({ status: 0 }))
      .then(({ status }) => void samples.push({ ...sample, status, ms: performance.now() - due }));
    pending.add(p);
    void p.finally(() => pending.delete(p));
    k++;
    timer = setTimeout(tick, Math.max(0, t0 + k * PERIOD_MS - performance.now()));
  };
  tick();
  port.on('message', (m: ToPoller) => {
    if (m.kind === 'phase') {
      phase = m.phase;
      phaseAt = performance.now();
    } else if (m.kind === 'drain') void Promise.all([...pending]).then(() => port.postMessage({ kind: 'drained' }));
    else {
      if (timer) clearTimeout(timer);
      void Promise.all([...pending]).then(() => port.postMessage({ kind: 'samples', samples } satisfies FromPoller));
    }
  });
}

/** The main thread's side of the poller. */
class OpenLoop {
  private samples: Sample[] = [];
  private readonly worker: Worker;

  constructor(s: Server) {
    this.worker = new Worker(__filename, { workerData: { url: s.url.href, token: s.token } });
  }

  private ask(m: ToPoller): Promise<FromPoller> {
    return new Promise((resolve) => {
      this.worker.once('message', resolve);
      this.worker.postMessage(m);
    });
  }

  async stop(): Promise<void> {
    const r = await this.ask({ kind: 'stop' });
    if (r.kind === 'samples') this.samples = r.samples;
    await this.worker.terminate();
  }

  /** Runs `work` as phase `name`; then waits until every request sent during it is answered. */
  async during<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.worker.postMessage({ kind: 'phase', phase: name } satisfies ToPoller);
    try {
      return await work();
    } finally {
      this.worker.postMessage({ kind: 'phase', phase: 'gap' } satisfies ToPoller);
      await this.ask({ kind: 'drain' });
    }
  }

  stats(name: string): Record<string, number | Record<string, number>> {
    const of = this.samples.filter((x) => x.phase === name);
    const ms = of.map((x) => x.ms).sort((a, b) => a - b);
    const q = (f: number): number => ms[Math.min(ms.length - 1, Math.floor(ms.length * f))] ?? NaN;
    // Failed answers by status (-503: answered 503, 0: no answer): they still took the time measured.
    const failedBy: Record<string, number> = {};
    for (const x of of) if (x.status !== 200) failedBy[x.status] = (failedBy[x.status] ?? 0) + 1;
    return {
      n: ms.length,
      p50: q(0.5),
      p95: q(0.95),
      max: ms.at(-1) ?? NaN,
      // When the slowest was sent, after the phase began (set against the heavy calls' times).
      maxAt: of.reduce((a, x) => (x.ms > a.ms ? x : a), { ms: -1, at: NaN }).at,
      failed: of.length - of.filter((x) => x.status === 200).length,
      failedBy,
      lateMax: Math.max(0, ...of.map((x) => x.late)),
    };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Catastrophic regex queries back to back for at least `ms` (each stops after the search's per-line limit). */
async function regexFor(s: Server, ms: number): Promise<{ queries: number[]; stopped: string; failed: number }> {
  const end = performance.now() + ms;
  const queries: number[] = [];
  let failed = 0;
  let stopped = '';
  while (performance.now() < end) {
    const r = await call(s, 'search.query', { query: REGEX, limit: 50 });
    queries.push(Math.round(r.ms));
    if (!r.ok) failed++;
    stopped = /"stopped":("[^"]*"|null)/.exec(r.head ?? '')?.[1] ?? (r.ok ? stopped : (r.head ?? ''));
  }
  return { queries, stopped, failed };
}

async function indexing(s: Server): Promise<{ indexing: boolean; done: number; total: number }> {
  return json(s, 'search.status', {});
}

async function main(): Promise<void> {
  const [chainRoot, regexRoot, storeRoot, chainId] = process.argv.slice(2) as [string, string, string, string];
  const out: Record<string, unknown> = { ok: true };

  // The regex alone: a serve on the regex session only, its (tiny) index built before measuring.
  const r = await startServe([regexRoot]);
  await json(r, 'sessions.list', {});
  while ((await indexing(r)).indexing) await sleep(100);
  const rl = new OpenLoop(r);
  await rl.during('idle', () => sleep(3000));
  out.regex = await rl.during('regex', () => regexFor(r, 6000));
  await rl.stop();
  out.regexIdle = rl.stats('idle');
  out.regexPhase = rl.stats('regex');
  await stopServe(r);

  // The big root: nothing listed through the API yet, so the index pass has not begun.
  const s = await startServe([chainRoot, regexRoot, storeRoot]);
  const loop = new OpenLoop(s);
  await loop.during('idle', () => sleep(5000));
  out.open = await loop.during('open', () => call(s, 'session.open', { sessionId: chainId }));
  out.context = await loop.during('context', () => call(s, 'session.context', { sessionId: chainId }));
  out.statusBeforeList = await indexing(s);
  await loop.during('index', async () => {
    await call(s, 'sessions.list', {});
    await sleep(10_000);
  });
  out.statusAfterIndex = await indexing(s);
  // The secret radar scans the listed sessions too (in its own worker thread).
  out.secretsAfterIndex = await json(s, 'secrets.status', {});
  out.all = await loop.during('all', async () => {
    const [context, regex] = await Promise.all([call(s, 'session.context', { sessionId: chainId }), regexFor(s, 6000)]);
    return { context, regex };
  });
  out.statusAfterAll = await indexing(s);
  out.secretsAfterAll = await json(s, 'secrets.status', {});
  await loop.stop();
  for (const phase of ['idle', 'open', 'context', 'index', 'all']) out[`${phase}Phase`] = loop.stats(phase);
  await stopServe(s);
  // The head of an answer stays only when it failed (it says why).
  const all = out.all as { context: Call };
  for (const c of [out.open, out.context, all.context] as Call[]) if (c.ok) delete c.head;
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (isMainThread)
  main().catch((err: unknown) => {
    process.stdout.write(`${JSON.stringify({ ok: false, error: String((err as Error)?.stack ?? err) })}\n`);
    process.exit(0);
  });
else poller();
