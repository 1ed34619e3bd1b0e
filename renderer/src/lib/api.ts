/**
 * The ONLY reader of `window.api`. Under Electron the preload exposes the contract's functions;
 * otherwise (`canopy serve`) the same `Api` is implemented over HTTP: `POST /api/<channel>` with
 * the arguments as JSON and the token header, and server-sent events read with fetch (EventSource
 * cannot send a header).
 */
import { createSseParser } from './sse';
import {
  channelMethods,
  isErrorCode,
  isEventName,
  type Api,
  type Args,
  type Channel,
  type EventName,
  type Result,
  type ResultOf,
} from './shared';
import { takeToken } from './token';

declare global {
  interface Window {
    api?: Api;
  }
}

export const TOKEN_HEADER = 'x-canopy-token';

export interface HttpApiOptions {
  token: string | null;
  /** Origin + base path; '' = same origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Reconnect backoff for the event stream. */
  backoff?: { initialMs: number; maxMs: number };
  /** Told when the event stream is refused or (re)connected. */
  onStreamStatus?: (status: StreamStatus) => void;
}

export type StreamStatus =
  { state: 'connected' } | { state: 'retrying'; inMs: number } | { state: 'refused'; status: number };

type Listener = (payload: unknown) => void;

function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v.ok === true) return 'data' in v;
  if (v.ok !== false || typeof v.error !== 'object' || v.error === null) return false;
  const e = v.error as Record<string, unknown>;
  return isErrorCode(e.code) && typeof e.message === 'string';
}

export function createHttpApi(options: HttpApiOptions): Api {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const base = options.baseUrl ?? '';
  const backoff = options.backoff ?? { initialMs: 1000, maxMs: 30_000 };
  const headers = (extra: Record<string, string> = {}): Record<string, string> =>
    options.token === null ? extra : { ...extra, [TOKEN_HEADER]: options.token };

  async function call(channel: Channel, args: unknown): Promise<Result<unknown>> {
    let res: Response;
    try {
      res = await doFetch(`${base}/api/${channel}`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify(args ?? {}),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch (err) {
      return { ok: false, error: { code: 'io', message: `cannot reach the Canopy server: ${(err as Error).message}` } };
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    if (isResult(body)) return body;
    if (res.status === 403) return { ok: false, error: { code: 'forbidden', message: 'the server refused the token' } };
    return {
      ok: false,
      error: { code: 'internal', message: `unexpected response from the server (HTTP ${res.status})` },
    };
  }

  const listeners = new Map<EventName, Set<Listener>>();
  let abort: AbortController | null = null;

  const emit = (event: string, payload: unknown) => {
    const set = listeners.get(event as EventName);
    if (set) for (const l of [...set]) l(payload);
  };

  async function runStream(signal: AbortSignal) {
    let delay = backoff.initialMs;
    let connectedBefore = false;
    while (!signal.aborted) {
      try {
        const res = await doFetch(`${base}/api/events`, {
          headers: headers({ accept: 'text/event-stream' }),
          signal,
          cache: 'no-store',
          credentials: 'omit',
        });
        if (res.status === 401 || res.status === 403) {
          // A wrong token does not heal by retrying.
          options.onStreamStatus?.({ state: 'refused', status: res.status });
          return;
        }
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        options.onStreamStatus?.({ state: 'connected' });
        delay = backoff.initialMs;
        // Events may have been missed while disconnected: tell listeners the catalog may differ.
        if (connectedBefore) emit('sessions.changed', { reason: 'changed' });
        connectedBefore = true;
        const parser = createSseParser((event, data) => {
          if (!isEventName(event)) return;
          try {
            emit(event, JSON.parse(data));
          } catch {
            // A malformed frame is dropped; the next one is independent.
          }
        });
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.push(decoder.decode(value, { stream: true }));
        }
      } catch {
        if (signal.aborted) return;
      }
      if (signal.aborted) return;
      options.onStreamStatus?.({ state: 'retrying', inMs: delay });
      await sleep(delay, signal);
      delay = Math.min(delay * 2, backoff.maxMs);
    }
  }

  const on: Api['on'] = (event, listener) => {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`);
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener as Listener);
    if (!abort) {
      abort = new AbortController();
      void runStream(abort.signal);
    }
    return () => {
      set.delete(listener as Listener);
      const any = [...listeners.values()].some((s) => s.size > 0);
      if (!any && abort) {
        abort.abort();
        abort = null;
      }
    };
  };
  // The server's answer for a channel is that channel's Result (isResult checked its shape).
  const method =
    <C extends Channel>(channel: C) =>
    (args: Args<C>) =>
      call(channel, args) as Promise<Result<ResultOf<C>>>;
  return { ...channelMethods(method), on } satisfies Api;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

let cached: { api: Api; transport: 'electron' | 'http' } | null = null;

/** The app's Api: the preload's under Electron, else HTTP with the token taken from the URL. */
export function getApi(onStreamStatus?: (s: StreamStatus) => void): Api {
  if (cached) return cached.api;
  if (typeof window !== 'undefined' && window.api) {
    cached = { api: window.api, transport: 'electron' };
  } else {
    const token = takeToken(window.location, window.history, window.sessionStorage);
    cached = { api: createHttpApi({ token, onStreamStatus }), transport: 'http' };
  }
  return cached.api;
}

export function apiTransport(): 'electron' | 'http' | null {
  return cached?.transport ?? null;
}
