/**
 * The limits of `canopy serve`: no client (a slow one, a huge body, many sockets) can hold the
 * server or grow its memory without bound. Options of startServer; the tests use small values.
 */
import type { Socket } from 'node:net';

export interface ServeLimits {
  /** Largest request body in bytes; a bigger one gets 413 (the rest is read and dropped, so the client sees the answer). */
  maxBodyBytes: number;
  /** Time a client has to send its request headers (slowloris); then 408 and the socket closes. */
  headersTimeoutMs: number;
  /** Time a client has to send its whole request, body included (a dripped body); then 408 and close. */
  requestTimeoutMs: number;
  /** Open connections; one beyond is answered 503 and closed. */
  maxConnections: number;
  /** Open /api/events streams; one beyond is answered 503 (the renderer retries with backoff). */
  maxEventStreams: number;
}

export const DEFAULT_LIMITS: ServeLimits = {
  maxBodyBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 64,
  maxEventStreams: 16,
};

/** The defaults with the given overrides; refuses values Node would misread (a caller's bug). */
export function resolveLimits(given: Partial<ServeLimits> = {}): ServeLimits {
  const limits = { ...DEFAULT_LIMITS, ...given };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new RangeError(`serve limit ${key} must be a positive integer, got ${value}`);
  }
  // Node refuses a headers timeout longer than the request timeout.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    throw new RangeError('serve limit headersTimeoutMs must not exceed requestTimeoutMs');
  return limits;
}

/** How often Node looks for requests past their timeouts (its default, 30 s, would let a 1 s limit run 30 s). */
export function checkingIntervalMs(limits: ServeLimits): number {
  return Math.max(5, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4)));
}

/**
 * Counts open sockets and marks the ones accepted beyond the cap, which get a 503 for their first
 * request (an answer the client can read, unlike a dropped socket).
 */
export class ConnectionGate {
  private readonly open = new Set<Socket>();
  private readonly over = new WeakSet<Socket>();

  constructor(private readonly max: number) {}

  admit(socket: Socket): void {
    this.open.add(socket);
    if (this.open.size > this.max) this.over.add(socket);
    socket.once('close', () => this.open.delete(socket));
  }

  isOverCap(socket: Socket): boolean {
    return this.over.has(socket);
  }

  get count(): number {
    return this.open.size;
  }

  destroyAll(): void {
    for (const socket of this.open) socket.destroy();
  }
}
