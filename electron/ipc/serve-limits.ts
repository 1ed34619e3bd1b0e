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
  /** Open connections that sent the token; one more is answered 503 and closed. */
  maxConnections: number;
  /** Open connections that have not (yet) sent the token; a new one beyond closes the oldest idle one. */
  maxUnauthenticated: number;
  /** Open /api/events streams; one beyond is answered 503 (the renderer retries with backoff). */
  maxEventStreams: number;
  /** session.upload requests in progress (each streams its body to disk); one beyond is answered 503. */
  maxUploads: number;
}

export const DEFAULT_LIMITS: ServeLimits = {
  maxBodyBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 64,
  maxUnauthenticated: 64,
  maxEventStreams: 16,
  maxUploads: 4,
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
 * Open sockets in two budgets. A socket starts unauthenticated: such sockets have a budget of their
 * own, and when it is full the oldest idle one is closed to make room (64 sockets that never send a
 * byte cannot lock out the token holder). A socket that sends a request with the token counts
 * against `max` from then on; one beyond it gets a 503 it can read.
 */
export class ConnectionGate {
  /** Unauthenticated sockets, oldest first (a Set keeps insertion order). */
  private readonly pending = new Set<Socket>();
  private readonly authed = new Set<Socket>();
  /** Sockets with a request in progress (never closed to make room). */
  private readonly busy = new WeakSet<Socket>();

  constructor(
    private readonly max: number,
    private readonly maxPending: number,
  ) {}

  admit(socket: Socket): void {
    if (this.pending.size >= this.maxPending) {
      for (const old of this.pending) {
        if (this.busy.has(old)) continue;
        old.destroy();
        this.pending.delete(old);
        break;
      }
    }
    this.pending.add(socket);
    socket.once('close', () => {
      this.pending.delete(socket);
      this.authed.delete(socket);
    });
  }

  /** A request started / ended on `socket`. */
  setBusy(socket: Socket, busy: boolean): void {
    if (busy) this.busy.add(socket);
    else this.busy.delete(socket);
  }

  /** `socket` sent the token: false when the authenticated budget is full (answer 503). */
  authenticate(socket: Socket): boolean {
    if (this.authed.has(socket)) return true;
    if (this.authed.size >= this.max) return false;
    this.pending.delete(socket);
    this.authed.add(socket);
    return true;
  }

  /** Every open socket. */
  get count(): number {
    return this.pending.size + this.authed.size;
  }

  get authenticated(): number {
    return this.authed.size;
  }

  destroyAll(): void {
    for (const socket of [...this.pending, ...this.authed]) socket.destroy();
  }
}
