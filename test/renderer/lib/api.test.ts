import { describe, expect, it } from 'vitest';
import { createHttpApi, TOKEN_HEADER, type StreamStatus } from '../../../renderer/src/lib/api';

interface Call {
  url: string;
  init: RequestInit | undefined;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A response whose body streams the given chunks, then closes. */
function stream(chunks: string[]): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/** A stream that stays open until aborted. */
function openStream(chunks: string[], signal: AbortSignal | null | undefined): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    },
  });
  return new Response(body, { status: 200 });
}

const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('createHttpApi: channels', () => {
  it('POSTs /api/<channel> with the JSON arguments and the token header, and returns the Result', async () => {
    const calls: Call[] = [];
    const api = createHttpApi({
      token: 'tok',
      baseUrl: 'http://127.0.0.1:9',
      fetch: async (url, init) => {
        calls.push({ url: String(url), init });
        return json(200, {
          ok: true,
          data: { sessionId: 's', entryId: 'e', line: 3, raw: {}, label: null, children: [] },
        });
      },
    });
    const r = await api['entry.get']({ sessionId: 's', entryId: 'e' });
    expect(r).toEqual({
      ok: true,
      data: { sessionId: 's', entryId: 'e', line: 3, raw: {}, label: null, children: [] },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('http://127.0.0.1:9/api/entry.get');
    expect(calls[0]!.init?.method).toBe('POST');
    const headers = calls[0]!.init?.headers as Record<string, string>;
    expect(headers[TOKEN_HEADER]).toBe('tok');
    expect(headers['content-type']).toBe('application/json');
    expect(JSON.parse(String(calls[0]!.init?.body))).toEqual({ sessionId: 's', entryId: 'e' });
  });

  it('passes error Results through unchanged', async () => {
    const api = createHttpApi({
      token: 't',
      fetch: async () => json(200, { ok: false, error: { code: 'not_found', message: 'no such entry' } }),
    });
    expect(await api['entry.get']({ sessionId: 's', entryId: 'x' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no such entry' },
    });
  });

  it('turns a 403 into forbidden, a network failure into io and garbage into internal', async () => {
    const refused = createHttpApi({
      token: 'bad',
      fetch: async () => json(403, { ok: false, error: { code: 'forbidden', message: 'missing or wrong token' } }),
    });
    expect(await refused['app.info']({})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const refusedPlain = createHttpApi({ token: 'bad', fetch: async () => new Response('nope', { status: 403 }) });
    expect(await refusedPlain['app.info']({})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const down = createHttpApi({ token: 't', fetch: async () => Promise.reject(new TypeError('Failed to fetch')) });
    expect(await down['sessions.list']({})).toMatchObject({ ok: false, error: { code: 'io' } });
    const weird = createHttpApi({ token: 't', fetch: async () => json(200, { hello: 1 }) });
    expect(await weird['sessions.list']({})).toMatchObject({ ok: false, error: { code: 'internal' } });
    const badCode = createHttpApi({
      token: 't',
      fetch: async () => json(200, { ok: false, error: { code: 'made_up', message: 'x' } }),
    });
    expect(await badCode['sessions.list']({})).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('sends no token header when it has no token', async () => {
    let headers: Record<string, string> = {};
    const api = createHttpApi({
      token: null,
      fetch: async (_u, init) => {
        headers = init?.headers as Record<string, string>;
        return json(403, {});
      },
    });
    await api['app.info']({});
    expect(TOKEN_HEADER in headers).toBe(false);
  });
});

describe('createHttpApi: events', () => {
  it('reads the event stream with the token header and dispatches typed events', async () => {
    const urls: string[] = [];
    let tokenSeen: string | undefined;
    const api = createHttpApi({
      token: 'tok',
      backoff: { initialMs: 10_000, maxMs: 10_000 },
      fetch: async (url, init) => {
        urls.push(String(url));
        tokenSeen = (init?.headers as Record<string, string>)[TOKEN_HEADER];
        return openStream(
          [
            ': connected\n\n',
            'event: session.appended\ndata: {"sessionId":"s1","sizeBytes":10}\n\n',
            'event: bogus\ndata: {}\n\n',
          ],
          init?.signal,
        );
      },
    });
    const got: unknown[] = [];
    const off = api.on('session.appended', (p) => got.push(p));
    await until(() => got.length === 1);
    expect(got).toEqual([{ sessionId: 's1', sizeBytes: 10 }]);
    expect(urls).toEqual(['/api/events']);
    expect(tokenSeen).toBe('tok');
    off();
  });

  it('reconnects with backoff after the stream ends and then reports a possible change', async () => {
    let connects = 0;
    const statuses: StreamStatus[] = [];
    const api = createHttpApi({
      token: 't',
      backoff: { initialMs: 5, maxMs: 20 },
      onStreamStatus: (s) => statuses.push(s),
      fetch: async (_u, init) => {
        connects++;
        if (connects === 1) return stream(['event: sessions.changed\ndata: {"reason":"added"}\n\n']);
        if (connects === 2) return Promise.reject(new TypeError('connection refused'));
        return openStream([], init?.signal);
      },
    });
    const got: unknown[] = [];
    const off = api.on('sessions.changed', (p) => got.push(p));
    await until(() => connects >= 3 && got.length >= 2);
    expect(got[0]).toEqual({ reason: 'added' });
    expect(got[1]).toEqual({ reason: 'changed' }); // synthetic: events may have been missed
    const delays = statuses.filter((s) => s.state === 'retrying').map((s) => (s as { inMs: number }).inMs);
    expect(delays.slice(0, 2)).toEqual([5, 10]);
    off();
  });

  it('stops for good when the stream is refused (a wrong token does not heal)', async () => {
    let connects = 0;
    const statuses: StreamStatus[] = [];
    const api = createHttpApi({
      token: 'wrong',
      backoff: { initialMs: 1, maxMs: 1 },
      onStreamStatus: (s) => statuses.push(s),
      fetch: async () => {
        connects++;
        return json(403, { ok: false, error: { code: 'forbidden', message: 'x' } });
      },
    });
    const off = api.on('sessions.changed', () => {});
    await until(() => statuses.length > 0);
    await new Promise((r) => setTimeout(r, 30));
    expect(connects).toBe(1);
    expect(statuses).toEqual([{ state: 'refused', status: 403 }]);
    off();
  });

  it('closes the stream when the last listener leaves and refuses unknown events', async () => {
    let aborted = false;
    const api = createHttpApi({
      token: 't',
      fetch: async (_u, init) => {
        init?.signal?.addEventListener('abort', () => (aborted = true));
        return openStream([], init?.signal);
      },
    });
    const a = api.on('sessions.changed', () => {});
    const b = api.on('session.appended', () => {});
    a();
    await new Promise((r) => setTimeout(r, 10));
    expect(aborted).toBe(false);
    b();
    await until(() => aborted);
    expect(() => api.on('nope' as 'sessions.changed', () => {})).toThrow(/unknown event/);
  });
});
