/**
 * `live STORE_ROOT`: the live store. `canopy serve` (the server, in this process) on the 10,000
 * session store plus a root of one session that is appended to 4×/s for 10 s, as pi writes, while a
 * client here listens to the events as the renderer does (it patches its list from sessions.changed
 * and asks for nothing). Prints one JSON line: sessions.list after an append against a warm list
 * with no change, a relisting (what every append cost before), the process's CPU while appended to
 * against idle, whether the appended row's size and entry count are right, and a fork's round trips.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppServices } from '../electron/app-services';
import { startServer } from '../electron/ipc/serve-http';
import type { Channel } from '../electron/shared/contract';
import type { SessionsChangeDto } from '../electron/shared/dto';
import { writeSessionFile } from './generate';

const APPENDS_PER_S = 4;
const SECONDS = 10;

async function main(): Promise<void> {
  const store = process.argv[2]!;
  const liveRoot = mkdtempSync(join(tmpdir(), 'canopy-live-'));
  const dir = join(liveRoot, '--home-alice-live--');
  const liveId = '0199aaaa-0000-7000-8000-000000000001';
  const path = join(dir, `2026-06-01T00-00-00-000Z_${liveId}.jsonl`);
  mkdirSync(dir, { recursive: true });
  writeSessionFile(path, {
    targetBytes: 1024 * 1024,
    maxEntries: 40,
    seed: 7,
    cwd: '/home/alice/live',
    sessionId: liveId,
  });

  // The search index of the store is kept between runs (its first build takes minutes), out of the roots.
  process.env.CANOPY_CACHE_DIR ??= join(tmpdir(), 'canopy-bench', 'live-cache');
  const services = createAppServices({ roots: [store, liveRoot], transport: 'http', watch: true });
  const calls = new Map<Channel, number>();
  for (const channel of Object.keys(services.handlers) as Channel[]) {
    const h = services.handlers[channel] as (args: unknown) => Promise<unknown>;
    (services.handlers as Record<string, (args: unknown) => Promise<unknown>>)[channel] = (args) => {
      calls.set(channel, (calls.get(channel) ?? 0) + 1);
      return h(args);
    };
  }
  const server = await startServer({ handlers: services.handlers, bus: services.bus, rendererDir: liveRoot });
  const origin = `http://127.0.0.1:${server.port}`;
  const call = async <T>(channel: string, args: unknown): Promise<{ ms: number; data: T }> => {
    const t0 = performance.now();
    const res = await fetch(`${origin}/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-canopy-token': server.token },
      body: JSON.stringify(args),
    });
    const body = (await res.json()) as { ok: boolean; data: T; error?: { message: string } };
    if (!body.ok) throw new Error(`${channel}: ${body.error?.message}`);
    return { ms: performance.now() - t0, data: body.data };
  };
  // The renderer's side of the events: the last change seen (the client patches its list with it).
  const changes: SessionsChangeDto[] = [];
  const off = services.bus.subscribe((event, payload) => {
    const change = event === 'sessions.changed' ? (payload as { change?: SessionsChangeDto }).change : undefined;
    if (change) changes.push(change);
  });
  await services.watching;

  const first = await call<{ sessions: { sessionId: string }[] }>('sessions.list', {});
  await call('sessions.summaries', { sessionIds: [liveId] });
  // Search indexes the listed store in the background: measured once it is done (idle means idle).
  await services.search.idle();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const warm: number[] = [];
  for (let i = 0; i < 3; i++) await call('sessions.list', {});

  // Idle: the server watching, nothing written.
  const idle0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const idleCpu = cpuCores(process.cpuUsage(idle0), performance.now() - t0);

  // Appended 4×/s, as pi writes, for 10 s; the client only patches its list (the renderer asks for
  // nothing when a session it does not show grows).
  const line = readFileSync(path, 'utf8').trimEnd().split('\n').pop()!;
  const base = JSON.parse(line) as Record<string, unknown>;
  let appended = 0;
  const append = (): void => {
    const i = appended++;
    appendFileSync(
      path,
      `${JSON.stringify({ ...base, id: `live${i}`, parentId: i === 0 ? base.id : `live${i - 1}` })}\n`,
    );
  };
  const busy0 = process.cpuUsage();
  const t1 = performance.now();
  for (let i = 0; i < APPENDS_PER_S * SECONDS; i++) {
    append();
    await new Promise((r) => setTimeout(r, 1000 / APPENDS_PER_S));
  }
  await new Promise((r) => setTimeout(r, 1500)); // the last batch
  const busyCpu = cpuCores(process.cpuUsage(busy0), performance.now() - t1);

  // sessions.list just after an append was applied, then at once again with no change since (a warm
  // list): pairs, so that the load of this shared machine weighs on both alike.
  const afterAppend: number[] = [];
  for (let i = 0; i < 8; i++) {
    const seen = changes.length;
    append();
    const deadline = performance.now() + 5000;
    while (changes.length === seen && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    afterAppend.push((await call('sessions.list', {})).ms);
    warm.push((await call('sessions.list', {})).ms);
  }
  const relist = (await call('sessions.list', { refresh: true })).ms;

  const lastRow = [...changes]
    .reverse()
    .flatMap((c) => c.changed)
    .find((r) => r.sessionId === liveId);
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n').length;
  const rowOk = lastRow?.sizeBytes === statSync(path).size && lastRow?.summary?.entryCount === lines - 1;

  // A fork on that store: click → fork (its answer carries the row) → open → context + lineage.
  const listsBefore = calls.get('sessions.list') ?? 0;
  const forkT0 = performance.now();
  const fork = await call<{ sessionId: string; row?: unknown }>('session.fork', {
    sessionId: liveId,
    request: { kind: 'clone', leafId: 'live3' },
  });
  await call('session.open', { sessionId: fork.data.sessionId });
  await Promise.all([
    call('session.context', { sessionId: fork.data.sessionId }),
    call('session.lineage', { sessionId: fork.data.sessionId }),
  ]);
  const forkMs = performance.now() - forkT0;
  off();
  await server.close();
  services.close();
  rmSync(liveRoot, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      ok: true,
      sessions: first.data.sessions.length,
      warmMs: median(warm),
      afterAppendMs: median(afterAppend),
      afterAppendRuns: afterAppend.length,
      relistMs: relist,
      idleCores: idleCpu,
      busyCores: busyCpu,
      changes: changes.length,
      rowOk,
      forkRoundTrips: 3,
      forkHasRow: fork.data.row !== undefined && fork.data.row !== null,
      forkRelists: (calls.get('sessions.list') ?? 0) - listsBefore,
      forkMs,
    }),
  );
}

function cpuCores(u: NodeJS.CpuUsage, wallMs: number): number {
  return (u.user + u.system) / 1000 / wallMs;
}

main().catch((err: unknown) => {
  console.log(JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) }));
  process.exit(1);
});
