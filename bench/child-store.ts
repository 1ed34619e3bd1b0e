/**
 * One whole-store measurement in a fresh process (clean peak RSS): prints one JSON line.
 *   index ROOT    the index's own pass over every session under ROOT (openIndexed, one file at a time)
 *   usage ROOT    canopy usage --by day,model over ROOT
 *   storage ROOT  canopy storage over ROOT
 *   copy FILE     a plain copy of FILE (1 MiB read / write loop, fsync), removed after
 *   slim FILE     canopy slim FILE (images dropped), the copy removed after
 */
import { closeSync, fsyncSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { openIndexed } from '../electron/repo/session-file';
import { listSessions } from '../electron/repo/sessions';
import { storageReport, slimSession, usageReport } from '../electron/store-views';

const rssMB = (): number => process.resourceUsage().maxRSS / 1024;

async function index(root: string): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const { sessions } = await listSessions([root]);
  let entries = 0;
  for (const s of sessions) entries += (await openIndexed(s.path)).entries.length;
  return { ms: performance.now() - t0, sessions: sessions.length, entries };
}

async function usage(root: string): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const r = await usageReport([root], { by: ['day', 'model'] });
  return { ms: performance.now() - t0, sessions: r.walk.sessions, bytes: r.walk.bytes, messages: r.total.messages };
}

async function storage(root: string): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const r = await storageReport([root], { nowMs: Date.now() });
  return { ms: performance.now() - t0, sessions: r.total.sessions, bytes: r.total.total };
}

function copy(file: string): Record<string, unknown> {
  const t0 = performance.now();
  const target = `${file}.bench-copy`;
  const src = openSync(file, 'r');
  const dst = openSync(target, 'w');
  const buf = Buffer.allocUnsafe(1024 * 1024);
  let bytes = 0;
  for (let n = readSync(src, buf, 0, buf.length, null); n > 0; n = readSync(src, buf, 0, buf.length, null)) {
    writeSync(dst, buf, 0, n);
    bytes += n;
  }
  fsyncSync(dst);
  closeSync(src);
  closeSync(dst);
  const ms = performance.now() - t0;
  rmSync(target);
  return { ms, bytes };
}

async function slim(file: string): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const r = await slimSession(file, { dropImages: true });
  const ms = performance.now() - t0;
  rmSync(r.path);
  return { ms, bytesBefore: r.bytesBefore, bytesAfter: r.bytesAfter, imagesRemoved: r.imagesRemoved };
}

async function main(): Promise<void> {
  const [mode, target] = process.argv.slice(2);
  if (!mode || !target) throw new Error('usage: child-store index|usage|storage|copy|slim PATH');
  const run = { index, usage, storage, copy, slim }[mode];
  if (!run) throw new Error(`unknown mode ${mode}`);
  const result = await run(target);
  process.stdout.write(`${JSON.stringify({ ok: true, ...result, rssMB: rssMB() })}\n`);
}

main().catch((err: unknown) => {
  process.stdout.write(
    `${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err), rssMB: rssMB() })}\n`,
  );
  process.exitCode = 1;
});
