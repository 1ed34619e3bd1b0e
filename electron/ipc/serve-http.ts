/**
 * `canopy serve`: the same handlers over HTTP, for remote/headless use (SSH tunnel) and for the
 * end-to-end tests. Binds 127.0.0.1 only; every /api request needs the random token; Host must be
 * the loopback address we listen on (DNS rebinding); no CORS headers are ever sent.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handlers } from '../shared/contract';
import { readStaticFile } from '../storage/static-files';
import { dispatch } from './dispatch';
import { asciiJsonBytes, compress, pickEncoding } from './http-body';
import type { EventBus } from './events';

export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const MAX_BODY = 1024 * 1024;

export interface ServeOptions {
  handlers: Handlers;
  bus?: EventBus;
  rendererDir: string;
  port?: number;
  token?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenBuf = Buffer.from(token);
  let port = 0;
  const streams = new Set<ServerResponse>();

  const tokenOk = (req: IncomingMessage): boolean => {
    const given = req.headers['x-canopy-token'];
    if (typeof given !== 'string') return false;
    const buf = Buffer.from(given);
    return buf.length === tokenBuf.length && timingSafeEqual(buf, tokenBuf);
  };
  const hostOk = (req: IncomingMessage): boolean => {
    const host = req.headers.host;
    return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
  };

  const server = createServer((req, res) => {
    baseHeaders(res);
    if (!hostOk(req)) return send(res, 421, 'text/plain', 'Misdirected request: wrong Host header');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/api/')) {
      if (!tokenOk(req)) return sendJson(res, 403, { ok: false, error: { code: 'forbidden', message: 'missing or wrong token' } });
      if (url.pathname === '/api/events' && req.method === 'GET') return openEventStream(res);
      if (req.method !== 'POST') return send(res, 405, 'text/plain', 'POST only');
      void handleApi(req, res, url.pathname.slice('/api/'.length));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only');
    void serveStatic(res, url.pathname);
  });

  async function handleApi(req: IncomingMessage, res: ServerResponse, channel: string) {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return sendJson(res, 415, { ok: false, error: { code: 'invalid_argument', message: 'Content-Type must be application/json' } });
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req, channel === 'session.upload' ? MAX_UPLOAD_BODY : MAX_BODY));
    } catch (err) {
      return sendJson(res, 400, { ok: false, error: { code: 'invalid_argument', message: `bad request body: ${(err as Error).message}` } });
    }
    sendJson(res, 200, await dispatch(options.handlers, channel, body));
  }

  function openEventStream(res: ServerResponse) {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    res.write(': connected\n\n');
    streams.add(res);
    res.on('close', () => streams.delete(res));
  }

  const unsubscribe = options.bus?.subscribe((event, payload) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const stream of streams) stream.write(frame);
  });

  async function serveStatic(res: ServerResponse, pathname: string) {
    // Client-side routes live in the hash, so anything unknown falls back to index.html.
    const file = (await readStaticFile(options.rendererDir, pathname)) ?? (await readStaticFile(options.rendererDir, '/'));
    if (!file) return send(res, 404, 'text/plain', 'The renderer is not built: run `npm run build`.');
    res.writeHead(200, { 'Content-Type': file.contentType });
    res.end(file.body);
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${encodeURIComponent(token)}`,
    port,
    token,
    close: async () => {
      unsubscribe?.();
      for (const stream of streams) stream.end();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function baseHeaders(res: ServerResponse) {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/** Answers from this size on are compressed for clients that accept it (a 20k-entry graph: 2.8 MB → ~0.65 MB). */
const COMPRESS_FROM = 64 * 1024;

function send(res: ServerResponse, status: number, type: string, body: string | Buffer) {
  const headers = { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store', Vary: 'Accept-Encoding' };
  const encoding = body.length >= COMPRESS_FROM ? pickEncoding(res.req?.headers['accept-encoding']) : null;
  if (encoding) {
    // Remote users reach serve over a tunnel: the bytes on the wire are what they wait for.
    const packed = compress(body, encoding);
    res.writeHead(status, { ...headers, 'Content-Encoding': encoding, 'Content-Length': packed.length });
    res.end(packed);
    return;
  }
  res.writeHead(status, headers);
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown) {
  send(res, status, 'application/json', asciiJsonBytes(value));
}

/** session.upload carries a whole session file (its text is checked against MAX_UPLOAD_CHARS after parsing). */
const MAX_UPLOAD_BODY = 512 * 1024 * 1024;

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
