/**
 * `canopy serve`: the same handlers over HTTP, for remote/headless use (SSH tunnel) and for the
 * end-to-end tests. Binds 127.0.0.1 only; every /api request needs the random token; Host must be
 * the loopback address we listen on (DNS rebinding); no CORS headers are ever sent.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handlers } from '../shared/contract';
import type { Result } from '../shared/errors';
import { CSP, readStaticFile } from '../storage/static-files';
import { dispatch, internalError } from './dispatch';
import { asciiJsonBytes, EncodedJson } from '../repo/encoded-json';
import { compress, compressOffLoop, pickEncoding, type BodyEncoding } from './http-body';
import { BodyParser } from './body-parser';
import { HandlerUploads, receiveUpload, type UploadTarget } from './serve-upload';
import type { EventBus } from '../repo/event-bus';
import { checkingIntervalMs, ConnectionGate, resolveLimits, type ServeLimits } from './serve-limits';

export interface ServeOptions {
  handlers: Handlers;
  bus?: EventBus;
  rendererDir: string;
  port?: number;
  token?: string;
  limits?: Partial<ServeLimits>;
  /** Where session.upload keeps what is uploaded (default: handed to the handler as text, for tests). */
  uploads?: UploadTarget;
  /** Where failures the client cannot be told about go (default: stderr). */
  log?: (message: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  /** Open sockets and event streams (for tests and diagnostics). */
  stats(): { connections: number; authenticated: number; eventStreams: number };
  close(): Promise<void>;
}

const busy = (what: string, limit: number): Result<never> => ({
  ok: false,
  error: { code: 'io', message: `the server is busy: more than ${limit} ${what} are open; try again shortly` },
});

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenBuf = Buffer.from(token);
  const limits = resolveLimits(options.limits);
  const log = options.log ?? ((message: string) => void process.stderr.write(`canopy serve: ${message}\n`));
  let port = 0;
  const streams = new Set<ServerResponse>();
  /** session.upload requests in progress. */
  let uploads = 0;
  const gate = new ConnectionGate(limits.maxConnections, limits.maxUnauthenticated);
  // Uploads are parsed off this loop; one worker per upload slot.
  const bodies = new BodyParser({ workers: 2, timeoutMs: limits.requestTimeoutMs * 2, log });
  const fallbackUploads = options.uploads ? null : new HandlerUploads(options.handlers);
  const uploadTarget = options.uploads ?? fallbackUploads!;

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

  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits),
    },
    (req, res) => {
      // Nothing a request does may end the process: every failure becomes an answer or a log line.
      // Logs name the path only: the query may hold the token.
      const where = pathOf(req.url);
      req.on('error', (err) => log(`request ${where}: ${err.message}`));
      res.on('error', (err) => log(`response ${where}: ${err.message}`));
      const socket = req.socket;
      gate.setBusy(socket, true);
      res.once('close', () => gate.setBusy(socket, false));
      route(req, res).catch((err: unknown) => {
        log(`request ${where} failed: ${(err as Error)?.stack ?? String(err)}`);
        if (res.headersSent) res.destroy();
        else sendJson(res, 500, internalError('serve', err));
      });
    },
  );
  server.on('connection', (socket) => gate.admit(socket));

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    baseHeaders(res);
    if (!hostOk(req)) return send(res, 421, 'text/plain', 'Misdirected request: wrong Host header');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/api/')) {
      if (!tokenOk(req))
        return sendJson(res, 403, { ok: false, error: { code: 'forbidden', message: 'missing or wrong token' } });
      if (!gate.authenticate(req.socket)) {
        res.shouldKeepAlive = false;
        return sendJson(res, 503, busy('connections', limits.maxConnections), { 'Retry-After': '1' });
      }
      if (url.pathname === '/api/events' && req.method === 'GET') return openEventStream(res);
      if (req.method !== 'POST') return send(res, 405, 'text/plain', 'POST only');
      return handleApi(req, res, url.pathname.slice('/api/'.length));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only');
    return serveStatic(res, url.pathname);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, channel: string) {
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return sendJson(res, 415, {
        ok: false,
        error: { code: 'invalid_argument', message: 'Content-Type must be application/json' },
      });
    }
    const upload = channel === 'session.upload';
    if (upload && uploads >= limits.maxUploads) {
      res.shouldKeepAlive = false;
      return sendJson(res, 503, busy('uploads', limits.maxUploads), { 'Retry-After': '5' });
    }
    const maxBody = upload ? Math.max(MAX_UPLOAD_BODY, limits.maxBodyBytes) : limits.maxBodyBytes;
    if (!upload) return answerApi(req, res, channel, maxBody);
    uploads++;
    // The slot frees when the client goes, not only once its staged file is removed.
    let held = true;
    const release = () => {
      if (held) uploads--;
      held = false;
    };
    req.once('close', release);
    try {
      await answerUpload(req, res, maxBody);
    } finally {
      release();
    }
  }

  async function answerUpload(req: IncomingMessage, res: ServerResponse, maxBody: number) {
    const answer = await receiveUpload(req, uploadTarget, maxBody);
    if (answer) sendJson(res, answer.status, answer.value);
  }

  async function answerApi(req: IncomingMessage, res: ServerResponse, channel: string, maxBody: number) {
    const bytes = await readBody(req, maxBody);
    if (bytes === null) {
      // Answered without closing: Node reads and drops the rest of the body, so the client gets the 413 instead of a reset.
      return sendJson(res, 413, {
        ok: false,
        error: { code: 'invalid_argument', message: `request body over ${maxBody} bytes` },
      });
    }
    const parsed = await bodies.parse(bytes);
    if (!parsed.ok) {
      return sendJson(res, 400, {
        ok: false,
        error: { code: 'invalid_argument', message: `bad request body: ${parsed.message}` },
      });
    }
    const body = parsed.value;
    const answer = await dispatch(options.handlers, channel, body);
    let out: Buffer;
    try {
      out = answerBytes(answer);
    } catch (err) {
      // A value JSON cannot write (5,000 levels deep, a cycle, a BigInt) is a bug in a handler, not a reason to stop.
      return sendJson(res, 500, internalError(`${channel}: the answer could not be serialised`, err));
    }
    send(res, 200, 'application/json', out);
  }

  function openEventStream(res: ServerResponse) {
    if (streams.size >= limits.maxEventStreams) {
      return sendJson(res, 503, busy('event streams', limits.maxEventStreams), { 'Retry-After': '5' });
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    res.write(': connected\n\n');
    // A background job's last progress, so a renderer that connects after its final event still learns it ended.
    for (const frame of lastProgress.values()) res.write(frame);
    streams.add(res);
    res.on('close', () => streams.delete(res));
  }

  const lastProgress = new Map<string, string>();
  const unsubscribe = options.bus?.subscribe((event, payload) => {
    let frame: string;
    try {
      frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    } catch (err) {
      return log(`event ${event} could not be serialised: ${(err as Error).message}`);
    }
    // A *.progress payload is the job's whole state (not a change), so the last one is all a newcomer needs.
    if (event.endsWith('.progress')) lastProgress.set(event, frame);
    for (const stream of streams) if (!stream.writableEnded) stream.write(frame);
  });

  async function serveStatic(res: ServerResponse, pathname: string) {
    // Client-side routes live in the hash, so anything unknown falls back to index.html.
    const file =
      (await readStaticFile(options.rendererDir, pathname)) ?? (await readStaticFile(options.rendererDir, '/'));
    if (!file) return send(res, 404, 'text/plain', 'The renderer is not built: run `npm run build`.');
    res.writeHead(200, { 'Content-Type': file.contentType });
    res.end(file.body);
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  // After listening, an error (e.g. EMFILE on accept) is logged; unhandled it would end the process.
  server.on('error', (err) => log(`server: ${err.message}`));
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${encodeURIComponent(token)}`,
    port,
    token,
    stats: () => ({ connections: gate.count, authenticated: gate.authenticated, eventStreams: streams.size }),
    close: async () => {
      unsubscribe?.();
      for (const stream of streams) stream.end();
      const closed = new Promise<void>((r) => server.close(() => r()));
      gate.destroyAll();
      await Promise.all([closed, bodies.close()]);
      fallbackUploads?.close();
    },
  };
}

/** A request's path without its query (`?token=…` never reaches a log). */
export function pathOf(url: string | undefined): string {
  const u = url ?? '';
  const q = u.search(/[?#]/);
  return q < 0 ? u : u.slice(0, q);
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
/** Bodies from this size are compressed on the thread pool (brotli at quality 1: ~10 ms per MB here). */
const COMPRESS_OFF_LOOP_FROM = 4 * 1024 * 1024;
/** An offloaded answer's wrapping around its data's bytes. */
const OK_OPEN = Buffer.from('{"ok":true,"data":');
const CLOSE = Buffer.from('}');

/** An answer's body: JSON bytes, or the bytes a worker built and wrote as they are (EncodedJson). */
export function answerBytes(answer: { ok: boolean; data?: unknown }): Buffer {
  return answer.ok && answer.data instanceof EncodedJson
    ? Buffer.concat([OK_OPEN, answer.data.bytes, CLOSE])
    : asciiJsonBytes(answer);
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
) {
  const headers = {
    ...extra,
    'Content-Type': `${type}; charset=utf-8`,
    'Cache-Control': 'no-store',
    Vary: 'Accept-Encoding',
  };
  /** Writes the answer, unless the client is gone (a timeout, a reset): there is no one to answer. */
  const write = (bytes: string | Buffer, encoding: BodyEncoding | null = null) => {
    if (res.destroyed || res.headersSent) return;
    if (encoding) res.writeHead(status, { ...headers, 'Content-Encoding': encoding, 'Content-Length': bytes.length });
    else res.writeHead(status, headers);
    res.end(bytes);
  };
  if (res.destroyed || res.headersSent) return;
  const encoding = body.length >= COMPRESS_FROM ? pickEncoding(res.req?.headers['accept-encoding']) : null;
  // Remote users reach serve over a tunnel: the bytes on the wire are what they wait for.
  if (!encoding) return write(body);
  if (typeof body === 'string' || body.length < COMPRESS_OFF_LOOP_FROM)
    return write(compress(body, encoding), encoding);
  compressOffLoop(body, encoding).then(
    (packed) => write(packed, encoding),
    () => write(body),
  );
}

/** For the server's own small answers (errors), which always serialise. */
function sendJson(res: ServerResponse, status: number, value: Result<unknown>, extra?: Record<string, string>) {
  send(res, status, 'application/json', asciiJsonBytes(value), extra);
}

/** session.upload carries a whole session file, streamed to disk (serve-upload.ts), never held in memory. */
export const MAX_UPLOAD_BODY = 1024 * 1024 * 1024;

/** The body's bytes, or null when it is over `max` bytes (the rest is then left to Node, which drops it). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve(null);
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      req.off('data', onData);
      chunks.length = 0;
      req.resume();
      resolveBody(null);
    };
    req.on('data', onData);
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
    // A client gone before the end: nothing to answer, but the request must end (and free its upload slot).
    req.on('close', () => resolveBody(null));
  });
}
