/**
 * `canopy serve` over damaged files: every channel of the contract on every file's session, over
 * HTTP. No answer is an internal error, the server answers app.info after each file, every line
 * that is not JSON (or torn) is an issue of session.open at its physical line, and an entry cut
 * for depth still opens, with the marker.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_DEEP_MARKER } from '../../electron/core';
import { createHandlers } from '../../electron/ipc/handlers';
import { startServer, type RunningServer } from '../../electron/ipc/serve-http';
import { SessionCatalog } from '../../electron/repo/catalog';
import { CHANNELS, type Channel } from '../../electron/shared/contract';
import { graphFromWire, type SessionGraphWireDto } from '../../electron/shared/entry-nodes';
import type { SessionListDto } from '../../electron/shared/dto';
import { sessionsOf, tempDir } from '../repo/helpers';
import { damagedFiles, type Damaged } from './mutate';
import { AppSecrets, redactor } from '../../electron/secrets';
import { AppExport } from '../../electron/export';
import { StoreService } from '../../electron/store-views';

let server: RunningServer;
let dir: string;
const files = damagedFiles(7, { huge: true });

async function call(
  channel: Channel,
  args: unknown,
): Promise<{ ok: boolean; data?: any; error?: { code: string; message: string } }> {
  const res = await fetch(`${server.url.replace(/\/?(\?.*)?$/, '')}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-canopy-token': server.token },
    body: JSON.stringify(args),
    // A server that stopped answering fails here, not at the test's timeout.
    signal: AbortSignal.timeout(60_000),
  });
  expect(res.status, channel).toBe(200);
  const r = (await res.json()) as { ok: boolean; data?: any; error?: { code: string; message: string } };
  expect(r.ok || r.error?.code !== 'internal', `${channel}: ${JSON.stringify(r.error)}`).toBe(true);
  return r;
}

beforeAll(async () => {
  dir = await tempDir('canopy-fuzz-serve-');
  const renderer = join(dir, 'renderer');
  await mkdir(join(dir, 'root'), { recursive: true });
  await mkdir(renderer);
  for (const f of files) await writeFile(join(dir, 'root', f.name), f.bytes);
  // The files were just written: a clock a minute ahead reads them as a writer long idle.
  const catalog = new SessionCatalog({ roots: [join(dir, 'root')], now: () => Date.now() + 60_000 });
  server = await startServer({
    handlers: createHandlers({
      catalog,
      sessions: sessionsOf(catalog),
      store: new StoreService({
        list: () => catalog.list(),
        readOnlyReason: (id) => catalog.readOnlyReason(id),
        addWritten: (path) => catalog.addWritten(path),
        roots: [join(dir, 'root')],
        archiveDir: join(dir, 'archive'),
      }),
      version: 'fuzz',
      transport: 'http',
      ...shareServices(catalog, [join(dir, 'root')], {
        CANOPY_CACHE_DIR: join(dir, 'cache'),
        CANOPY_DATA_DIR: join(dir, 'data'),
      }),
    }),
    rendererDir: renderer,
  });
});

afterAll(async () => server?.close());

/** Every channel on one session (the CHANNELS list keeps this in step with the contract). */
async function everyChannel(sessionId: string, file: Damaged): Promise<void> {
  const tried = new Set<Channel>();
  const run = async (channel: Channel, args: unknown) => {
    tried.add(channel);
    return call(channel, args);
  };
  const opened = await run('session.open', { sessionId });
  await run('session.open', { sessionId, profile: 'h3', leafId: null });
  const entries = opened.ok ? graphFromWire(opened.data as SessionGraphWireDto).entries : [];
  if (opened.ok) {
    const issues = (opened.data as SessionGraphWireDto).issues;
    for (const [line, kinds] of file.expected) {
      if (kinds.includes('too_deep')) continue;
      expect(
        issues.some((i) => i.line === line && kinds.includes(i.kind)),
        `${file.name}: line ${line} ${kinds.join('|')} in ${JSON.stringify(issues)}`,
      ).toBe(true);
    }
  }
  if (entries.length === 0) await run('entry.get', { sessionId, entryId: 'no-such-entry' });
  for (const e of entries) {
    const detail = await run('entry.get', { sessionId, entryId: e.id });
    if (file.expected.get(e.line)?.includes('too_deep')) {
      expect(detail.ok, file.name).toBe(true);
      expect(JSON.stringify(detail.data)).toContain(TOO_DEEP_MARKER);
    }
  }
  // A pointer into whatever the entry is (mostly no payload: not_found), and an offset past any payload.
  await run('entry.payload', {
    sessionId,
    entryId: entries[0]?.id ?? 'no-such-entry',
    payloadId: '/message/content/0/text',
  });
  await run('entry.payload', {
    sessionId,
    entryId: entries.at(-1)?.id ?? 'no-such-entry',
    payloadId: '/data',
    offset: 1e12,
    length: 1,
  });
  for (const profile of ['ca', 'h3'] as const) await run('session.context', { sessionId, profile });
  await run('session.context', { sessionId, leafId: entries[0]?.id ?? null });
  const request = entries[1] ? { kind: 'fork', entryId: entries[1].id, position: 'at' } : { kind: 'clone' };
  await run('session.forkPreview', { sessionId, request });
  await run('session.fork', { sessionId, request: { kind: 'clone' } });
  await run('session.lineage', { sessionId });
  await run('session.compare', { a: { sessionId, leafId: entries[0]?.id ?? 'no-such-entry' }, b: { sessionId } });
  await run('pi.handback', { sessionId, send: false }); // no pi runs here: null, never internal
  await run('sessions.summaries', { sessionIds: [sessionId] });
  await run('session.cancelOpen', { sessionId });
  await run('session.previews', { sessionId, entryIds: entries.slice(0, 50).map((e) => e.id) });
  await run('session.flags', { sessionId });
  await run('session.find', { idOrPath: sessionId });
  await run('search.query', { query: file.name.slice(0, 12) || 'x' });
  await run('search.query', { query: 're:[' }); // a bad regex is invalid_argument, not internal
  await run('search.status', {});
  await run('session.openDialog', {}); // serve has no dialog: forbidden
  // The damaged bytes (their first 4 MiB) uploaded as an opened file, decoded as a browser's file reader would.
  await run('session.upload', {
    name: `${file.name}.jsonl`,
    text: file.bytes.subarray(0, 4 * 1024 * 1024).toString('utf8'),
  });
  await run('sessions.list', { refresh: true });
  await run('app.info', {});
  // The secret radar and exports on damaged files: an answer or a clear error, never internal.
  await run('secrets.status', {});
  await run('secrets.counts', {});
  await run('secrets.session', { sessionId });
  await run('secrets.reveal', { sessionId, index: 0 });
  // Redaction scans every string: once per file (the write); the previews render each format as is.
  for (const format of ['html', 'md', 'jsonl'] as const)
    await run('export.preview', { sessionId, format, redact: false });
  await run('export.write', { sessionId, format: 'md', redact: true, all: true });
  await run('export.ledger', {});
  await run('redactions.get', {});
  await run('redactions.set', { literals: ['x'], regexes: ['('] });
  // The whole-store views: a report over every damaged file, a slim copy, an archive of no family.
  await run('store.report', { refresh: true });
  await run('store.slimPreview', { sessionId, dropImages: true });
  await run('store.slim', { sessionId, dropImages: true, maxOutputBytes: 1024 });
  await run('store.archivePreview', { staleDays: 1 });
  await run('store.archive', { staleDays: 1, familyIds: ['no-such-family'] });
  expect(CHANNELS.filter((c) => !tried.has(c))).toEqual([]);
}

// No time limit of the test's own: a server that stops answering fails at the request's limit (in
// `call`), and the fuzz project's ceiling stops only a hang, so a loaded machine is no failure.
describe('fuzz: canopy serve', () => {
  let byName = new Map<string, string>();
  it('lists or skips every damaged file', async () => {
    const list = (await call('sessions.list', {})).data as SessionListDto;
    byName = new Map(list.sessions.map((s) => [s.fileName, s.sessionId]));
    const skipped = new Set(list.skipped.map((s) => s.path.split('/').pop()));
    for (const f of files) expect(byName.has(f.name) || skipped.has(f.name), f.name).toBe(true);
    expect(byName.size).toBeGreaterThan(files.length / 2);
  });

  it.for(files.map((f) => [f.name, f] as const))('answers every channel on %s and keeps answering', async ([, f]) => {
    if (byName.has(f.name)) await everyChannel(byName.get(f.name)!, f);
    const info = await call('app.info', {});
    expect(info.ok).toBe(true);
  });
});

function shareServices(catalog: SessionCatalog, roots: string[], env: Record<string, string>) {
  return {
    secrets: new AppSecrets({ roots, env }),
    exporter: new AppExport({ sessions: sessionsOf(catalog), roots, env, redactor }),
  };
}
