import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../electron/repo/event-bus';
import { startServer, type RunningServer } from '../../electron/ipc/serve-http';
import { recordingHandlers } from './fake-handlers';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(
  port: number,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

/** A POST whose answer is kept as bytes (no decoding). */
function callRaw(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('canopy serve (HTTP transport)', () => {
  let server: RunningServer;
  const bus = new EventBus();
  const { handlers, calls } = recordingHandlers();
  let dir: string;

  beforeAll(async () => {
    const base = mkdtempSync(join(tmpdir(), 'canopy-serve-'));
    dir = join(base, 'renderer');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Canopy</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(base, 'secret.txt'), 'do not serve');
    server = await startServer({ handlers, bus, rendererDir: dir });
  });
  afterAll(() => server.close());

  const api = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
    call(server.port, `/api/${channel}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        host: `127.0.0.1:${server.port}`,
        'x-canopy-token': server.token,
        ...headers,
      },
      body: JSON.stringify(body),
    });

  it('listens on 127.0.0.1 and prints a URL carrying the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${encodeURIComponent(server.token)}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('answers a channel with the Result value and no CORS headers', async () => {
    const r = await api('app.info', {});
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({
      ok: true,
      data: { version: 'test', transport: 'http', roots: ['/r'], demo: false },
    });
    expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control'))).toEqual([]);
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('compresses large answers for clients that accept it (brotli first), and only those', async () => {
    const sessionIds = Array.from({ length: 600 }, (_, i) => `s${i}`);
    const plain = await api('sessions.summaries', { sessionIds });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const expected = JSON.parse(plain.body) as { ok: boolean; data: Record<string, unknown> };
    expect(Object.keys(expected.data)).toHaveLength(600);
    const raw = (acceptEncoding: string) =>
      callRaw(
        server.port,
        '/api/sessions.summaries',
        {
          'content-type': 'application/json',
          host: `127.0.0.1:${server.port}`,
          'x-canopy-token': server.token,
          'accept-encoding': acceptEncoding,
        },
        JSON.stringify({ sessionIds }),
      );
    const zipped = await raw('br;q=0.5, gzip;q=0.8');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(gunzipSync(zipped.body).toString('utf8'))).toEqual(expected);
    const brotli = await raw('gzip, deflate, br, zstd');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toBe('Accept-Encoding');
    expect(brotli.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(brotliDecompressSync(brotli.body).toString('utf8'))).toEqual(expected);
    // Refused (q=0), or a small answer: sent as is.
    const refused = await api('sessions.summaries', { sessionIds }, { 'accept-encoding': 'gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const small = await api('sessions.summaries', { sessionIds: ['a'] }, { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body).ok).toBe(true);
  });

  it('refuses a missing or wrong token', async () => {
    const before = calls.length;
    expect((await api('app.info', {}, { 'x-canopy-token': 'wrong' })).status).toBe(403);
    const noToken = await call(server.port, '/api/app.info', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noToken.status).toBe(403);
    expect(JSON.parse(noToken.body)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(calls.length).toBe(before);
  });

  it('refuses a foreign Host header (DNS rebinding) even with the token', async () => {
    const r = await api('app.info', {}, { host: `evil.example:${server.port}` });
    expect(r.status).toBe(421);
    const page = await call(server.port, '/', { headers: { host: 'evil.example' } });
    expect(page.status).toBe(421);
  });

  it('validates arguments and refuses non-JSON bodies', async () => {
    expect(JSON.parse((await api('session.open', { path: '/etc/passwd' })).body)).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    const text = await call(server.port, '/api/app.info', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-canopy-token': server.token },
      body: '{}',
    });
    expect(text.status).toBe(415);
    const bad = await call(server.port, '/api/app.info', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-canopy-token': server.token },
      body: '{nope',
    });
    expect(bad.status).toBe(400);
  });

  it('serves the built renderer, falls back to index.html, and never leaves its folder', async () => {
    const index = await call(server.port, '/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>Canopy</title>');
    const js = await call(server.port, '/assets/app.js');
    expect(js.headers['content-type']).toContain('text/javascript');
    for (const escape of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const r = await call(server.port, escape);
      expect(r.body).not.toContain('do not serve');
    }
    expect((await call(server.port, '/', { method: 'POST' })).status).toBe(405);
  });

  /** The event stream's text up to its first data frame (`onConnected` runs once the stream is open). */
  function firstFrames(onConnected: () => void = () => undefined): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path: '/api/events', headers: { 'x-canopy-token': server.token } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            const before = text;
            text += c.toString();
            if (!before.includes(': connected') && text.includes(': connected')) onConnected();
            if (text.includes('data: ')) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('streams bus events to token holders', async () => {
    const got = await firstFrames(() => bus.emit('sessions.changed', { reason: 'added' }));
    expect(got).toContain('event: sessions.changed\ndata: {"reason":"added"}');
  });

  it("a stream opened after a job ended starts with that job's last progress (its final event was sent before)", async () => {
    bus.emit('secrets.progress', { scanning: true, done: 1, total: 2, withFindings: 0, error: null });
    bus.emit('secrets.progress', { scanning: false, done: 2, total: 2, withFindings: 1, error: null });
    const got = await firstFrames();
    expect(got).toContain('event: secrets.progress\ndata: {"scanning":false,"done":2');
    expect(got).not.toContain('"scanning":true');
  });
});
