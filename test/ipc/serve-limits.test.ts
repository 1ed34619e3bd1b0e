/**
 * The limits of `canopy serve`, each over real loopback sockets: nothing a client sends (too much,
 * too slowly, too many sockets) holds the server, and afterwards it still answers.
 */
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../electron/ipc/serve-http';
import { resolveLimits, type ServeLimits } from '../../electron/ipc/serve-limits';
import { recordingHandlers } from './fake-handlers';

const rendererDir = mkdtempSync(join(tmpdir(), 'canopy-limits-'));
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Canopy</title>');

const servers: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await s.close();
});

async function serve(limits: Partial<ServeLimits>, handlers = recordingHandlers().handlers): Promise<RunningServer> {
  const server = await startServer({ handlers, rendererDir, limits, log: () => {} });
  servers.push(server);
  return server;
}

interface Reply {
  status: number;
  body: string;
}

/** One request on its own connection; `error` is the client-side error, if any (a reset). */
function post(
  server: RunningServer,
  channel: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: `/api/${channel}`,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          host: `127.0.0.1:${server.port}`,
          'x-canopy-token': server.token,
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const appInfo = (server: RunningServer) => post(server, 'app.info', '{}');

/** A raw socket (so the test controls every byte), closed after the test. */
async function rawSocket(server: RunningServer): Promise<Socket & { received(): string }> {
  const socket = connect(server.port, '127.0.0.1');
  sockets.push(socket);
  let text = '';
  socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
  socket.on('error', () => {}); // a write after the server closed: expected here
  await once(socket, 'connect');
  return Object.assign(socket, { received: () => text });
}

/** Waits, a bounded number of event-loop turns, for the server to see what the client did. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100_000 && !condition(); turn++) await new Promise((r) => setImmediate(r));
  expect(condition()).toBe(true);
}

/** Writes `text` a character at a time until the server closes the socket. */
function drip(socket: Socket, text: string): Promise<void> {
  let at = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed && !socket.writableEnded) socket.write(text[at++ % text.length]!);
  }, 20);
  return once(socket, 'close').then(() => clearInterval(timer));
}

describe('serve limits', () => {
  it('has sane defaults and refuses nonsense', () => {
    expect(resolveLimits()).toEqual({
      maxBodyBytes: 1048576,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      maxConnections: 64,
      maxUnauthenticated: 64,
      maxEventStreams: 16,
      maxUploads: 4,
    });
    expect(() => resolveLimits({ maxConnections: 0 })).toThrow(RangeError);
    expect(() => resolveLimits({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).toThrow(/headersTimeoutMs/);
  });

  it('answers a 50 MB body with 413, read by the client (no reset), declared or chunked', async () => {
    const server = await serve({});
    const huge = Buffer.alloc(50 * 1024 * 1024, 0x20);
    const declared = await post(server, 'app.info', huge);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: 'request body over 1048576 bytes' },
    });
    // No Content-Length: the size is only known while reading.
    const chunked = await post(server, 'app.info', huge.subarray(0, 8 * 1024 * 1024), {
      'transfer-encoding': 'chunked',
    });
    expect(chunked.status).toBe(413);
    const inLimit = await post(server, 'app.info', `{}${' '.repeat(1024 * 1024 - 2)}`);
    expect(inLimit.status).toBe(200);
    expect((await appInfo(server)).status).toBe(200);
  });

  it('cuts off a client that sends its headers slowly', async () => {
    const server = await serve({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const socket = await rawSocket(server);
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
    await drip(socket, 'X-Slow: yes\r\n');
    expect(socket.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect((await appInfo(server)).status).toBe(200);
  });

  it('cuts off a client that drips its body', async () => {
    const server = await serve({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const socket = await rawSocket(server);
    socket.write(
      `POST /api/app.info HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\n` +
        `X-Canopy-Token: ${server.token}\r\nContent-Length: 100000\r\n\r\n`,
    );
    await drip(socket, ' ');
    expect(socket.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect((await appInfo(server)).status).toBe(200);
  });

  it('answers authenticated connections beyond the cap with 503, and serves again once they close', async () => {
    const server = await serve({ maxConnections: 3 });
    const authed = async () => {
      const socket = await rawSocket(server);
      socket.write(
        `POST /api/app.info HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\n` +
          `X-Canopy-Token: ${server.token}\r\nContent-Length: 2\r\n\r\n{}`,
      );
      while (!/\r\n\r\n/.test(socket.received())) await once(socket, 'data');
      return socket;
    };
    const held = [await authed(), await authed(), await authed()];
    await until(() => server.stats().authenticated === 3);
    const extra = await authed();
    await once(extra, 'close');
    expect(extra.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(extra.received()).toContain('Connection: close');
    expect(extra.received()).toContain('more than 3 connections');
    for (const s of held) s.destroy();
    await until(() => server.stats().connections === 0);
    expect((await appInfo(server)).status).toBe(200);
  });

  it('holds at most maxUploads upload bodies at once; a slot frees when an upload ends or is dropped', async () => {
    const server = await serve({ maxUploads: 2 });
    const startUpload = async () => {
      const socket = await rawSocket(server);
      socket.write(
        `POST /api/session.upload HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\n` +
          `X-Canopy-Token: ${server.token}\r\nContent-Length: 100000\r\n\r\n{"name":"a.jsonl","text":"`,
      );
      return socket;
    };
    const first = await startUpload();
    await startUpload();
    await until(() => server.stats().authenticated === 2);
    const third = await startUpload();
    await once(third, 'close');
    expect(third.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(third.received()).toContain('more than 2 uploads');
    first.destroy();
    await until(() => server.stats().authenticated === 1);
    const again = await startUpload();
    await until(() => server.stats().authenticated === 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(again.received()).toBe('');
  });

  it('64 idle sockets that never send a byte do not lock out the token holder', async () => {
    const server = await serve({});
    for (let i = 0; i < 64; i++) await rawSocket(server);
    await until(() => server.stats().connections === 64);
    for (let i = 0; i < 5; i++) expect((await appInfo(server)).status).toBe(200);
    // The idle ones made room (the oldest closed), within their own budget.
    expect(server.stats().connections).toBeLessThanOrEqual(65);
  });

  it('never writes the token of a request it logs (an aborted request)', async () => {
    const logged: string[] = [];
    const server = await startServer({
      handlers: recordingHandlers().handlers,
      rendererDir,
      log: (m) => logged.push(m),
    });
    servers.push(server);
    const socket = await rawSocket(server);
    socket.write(
      `POST /api/app.info?token=${server.token} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n` +
        `Content-Type: application/json\r\nX-Canopy-Token: ${server.token}\r\nContent-Length: 100\r\n\r\n{`,
    );
    await until(() => server.stats().authenticated === 1);
    socket.destroy();
    await until(() => logged.length > 0);
    expect(logged.join('\n')).toContain('/api/app.info');
    expect(logged.join('\n')).not.toContain(server.token);
  });

  it('answers event streams beyond the cap with 503, and opens one again once another closes', async () => {
    const server = await serve({ maxEventStreams: 2 });
    const openStream = async () => {
      const socket = await rawSocket(server);
      socket.write(
        `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Canopy-Token: ${server.token}\r\n\r\n`,
      );
      while (!/\r\n\r\n/.test(socket.received())) await once(socket, 'data');
      return socket;
    };
    const first = await openStream();
    const second = await openStream();
    expect(first.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(second.received()).toContain(': connected');
    const third = await openStream();
    expect(third.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(third.received()).toContain('Retry-After: 5');
    first.destroy();
    await until(() => server.stats().eventStreams === 1);
    const again = await openStream();
    expect(again.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect((await appInfo(server)).status).toBe(200);
  });
});

describe('serve survives its handlers', () => {
  const deep = () => {
    const top: Record<string, unknown> = {};
    let at = top;
    for (let i = 0; i < 5000; i++) at = (at.a = {}) as Record<string, unknown>;
    return top;
  };

  it('answers internal for a handler that throws or returns what JSON cannot write, and keeps answering', async () => {
    const { handlers } = recordingHandlers();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    handlers['sessions.list'] = async () => deep() as never;
    handlers['session.lineage'] = async () => cyclic as never;
    handlers['session.cancelOpen'] = () => {
      throw new TypeError('thrown before any promise');
    };
    const server = await serve({}, handlers);
    const list = await post(server, 'sessions.list', '{}');
    expect(list.status).toBe(500);
    expect(JSON.parse(list.body)).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.parse(list.body).error.message).toMatch(
      /^sessions\.list: the answer could not be serialised: .*call stack/,
    );
    const lineage = JSON.parse((await post(server, 'session.lineage', '{"sessionId":"s"}')).body);
    expect(lineage).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.parse((await post(server, 'session.cancelOpen', '{"sessionId":"s"}')).body)).toEqual({
      ok: false,
      error: { code: 'internal', message: 'session.cancelOpen: thrown before any promise' },
    });
    expect(JSON.parse((await appInfo(server)).body)).toMatchObject({ ok: true });
  });
});
