// Baselines in a fresh process (clean peak RSS), printing one JSON line:
//   bare FILE      read every byte in 1 MiB chunks, nothing else (the floor for any reader)
//   headers ROOT   read the first line of every .jsonl under ROOT/* (open, read 4 KiB, close)
//   whole ROOT     read every .jsonl under ROOT/* in full
// Files are read with synchronous calls, the fastest way for many small files (Canopy's listing
// does the same); async variants (32 in flight) are reported too, as `asyncMs`.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const rssMB = () => process.resourceUsage().maxRSS / 1024;

async function bare(path) {
  const t0 = performance.now();
  const handle = await open(path, 'r');
  const buf = Buffer.allocUnsafe(1024 * 1024);
  let pos = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) break;
    pos += bytesRead;
  }
  await handle.close();
  return { ms: performance.now() - t0, bytes: pos };
}

async function files(root) {
  const out = [];
  for (const dir of await readdir(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const f of await readdir(join(root, dir.name))) if (f.endsWith('.jsonl')) out.push(join(root, dir.name, f));
  }
  return out;
}

async function pool(items, limit, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

// Both variants include listing the directories (readdir), as a listing must.
async function headers(root) {
  const t0 = performance.now();
  const list = await files(root);
  const listMs = performance.now() - t0;
  let found = 0;
  const buf = Buffer.allocUnsafe(4096);
  for (const path of list) {
    const fd = openSync(path, 'r');
    const n = readSync(fd, buf, 0, 4096, 0);
    closeSync(fd);
    const nl = buf.indexOf(10);
    if (nl !== -1 && nl < n) found++;
  }
  const ms = performance.now() - t0;
  const t1 = performance.now();
  await pool(list, 32, async (path) => {
    const handle = await open(path, 'r');
    const b = Buffer.allocUnsafe(4096);
    await handle.read(b, 0, 4096, 0);
    await handle.close();
  });
  return { ms, asyncMs: listMs + performance.now() - t1, files: list.length, headers: found };
}

async function whole(root) {
  const t0 = performance.now();
  const list = await files(root);
  const listMs = performance.now() - t0;
  let bytes = 0;
  for (const path of list) bytes += readFileSync(path).length;
  const ms = performance.now() - t0;
  const t1 = performance.now();
  await pool(list, 32, async (path) => {
    await readFile(path);
  });
  return { ms, asyncMs: listMs + performance.now() - t1, files: list.length, bytes };
}

const [mode, target] = process.argv.slice(2);
const run = { bare, headers, whole }[mode];
try {
  if (!run) throw new Error(`unknown mode ${mode}`);
  const r = await run(target);
  process.stdout.write(`${JSON.stringify({ ok: true, ...r, rssMB: rssMB() })}\n`);
} catch (err) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: String(err?.message ?? err), rssMB: rssMB() })}\n`);
  process.exitCode = 1;
}
