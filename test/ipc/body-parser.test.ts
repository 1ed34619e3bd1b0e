import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyParser, PARSE_IN_WORKER_FROM } from '../../electron/ipc/body-parser';
import { startServer } from '../../electron/ipc/serve-http';
import { recordingHandlers } from './fake-handlers';

const parsers: BodyParser[] = [];
afterEach(async () => {
  for (const p of parsers.splice(0)) await p.close();
});

function parser(): BodyParser {
  const p = new BodyParser({ workers: 2, timeoutMs: 60_000, log: () => {} });
  parsers.push(p);
  return p;
}

describe('request bodies', () => {
  it('a big body is parsed in a worker (its bytes moved, not copied), to the same value', async () => {
    const text = `ünïcode ☃ ${'line\n'.repeat(PARSE_IN_WORKER_FROM / 4)}`;
    const body = Buffer.from(JSON.stringify({ name: 'a.jsonl', text }));
    const copy = Buffer.from(body);
    const own = Buffer.alloc(body.length);
    body.copy(own);
    const r = await parser().parse(own);
    expect(r).toEqual({ ok: true, value: JSON.parse(copy.toString('utf8')) });
    expect(own.byteLength).toBe(0); // moved to the worker
  });

  it('a body that is not JSON is an answer, big or small', async () => {
    const p = parser();
    expect(await p.parse(Buffer.from('{"a":'))).toMatchObject({ ok: false });
    const big = Buffer.from(`{"text":"${'x'.repeat(PARSE_IN_WORKER_FROM)}`);
    expect(await p.parse(big)).toMatchObject({ ok: false, message: expect.stringContaining('JSON') as string });
  });
});

describe('serve parses an upload off its loop', () => {
  it('a 2 MiB session.upload reaches the handler whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'canopy-upload-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    const { handlers, calls } = recordingHandlers();
    const server = await startServer({ handlers, rendererDir: dir, log: () => {} });
    try {
      const text = `{"type":"session","id":"ü"}\n${'x'.repeat(2 * 1024 * 1024)}\n`;
      const res = await fetch(`http://127.0.0.1:${server.port}/api/session.upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-canopy-token': server.token },
        body: JSON.stringify({ name: 'up.jsonl', text }),
      });
      expect(await res.json()).toEqual({ ok: true, data: { sessionId: 'uploaded' } });
      expect(calls.at(-1)).toEqual({ channel: 'session.upload', args: { name: 'up.jsonl', text } });
    } finally {
      await server.close();
    }
  });
});
