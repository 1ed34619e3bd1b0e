import { describe, expect, it } from 'vitest';
import { dispatch } from '../../electron/ipc/dispatch';
import { recordingHandlers } from './fake-handlers';

describe('dispatch', () => {
  it('calls the handler with validated arguments and wraps the result', async () => {
    const { handlers, calls } = recordingHandlers();
    const r = await dispatch(handlers, 'sessions.list', { refresh: true });
    expect(r).toEqual({ ok: true, data: { projects: [], sessions: [], skipped: [] } });
    expect(calls).toEqual([{ channel: 'sessions.list', args: { refresh: true } }]);
  });

  it.each([
    ['unknown channel', 'fs.readFile', {}, 'unknown_channel'],
    ['extra key', 'sessions.list', { refresh: true, path: '/etc/passwd' }, 'invalid_argument'],
    ['wrong type', 'sessions.list', { refresh: 'yes' }, 'invalid_argument'],
    ['array args', 'app.info', [], 'invalid_argument'],
    ['missing id', 'session.open', {}, 'invalid_argument'],
    ['path as id is only an opaque string, but control chars are refused', 'entry.get', { sessionId: 'a\u0000', entryId: 'b' }, 'invalid_argument'],
    ['bad profile', 'session.open', { sessionId: 'x', profile: 'h4' }, 'invalid_argument'],
    ['too long id', 'entry.get', { sessionId: 'x'.repeat(300), entryId: 'b' }, 'invalid_argument'],
    ['ids not array', 'sessions.summaries', { sessionIds: 'a' }, 'invalid_argument'],
  ])('refuses %s without calling a handler', async (_name, channel, args, code) => {
    const { handlers, calls } = recordingHandlers();
    const r = await dispatch(handlers, channel, args);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe(code);
    expect(calls).toEqual([]);
  });

  it('turns a CanopyError into its code and a bug into internal, never throwing', async () => {
    const { handlers } = recordingHandlers();
    expect(await dispatch(handlers, 'session.open', { sessionId: 'nope' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no session nope' },
    });
    const r = await dispatch(handlers, 'entry.get', { sessionId: 's', entryId: 'e' });
    expect(r).toEqual({ ok: false, error: { code: 'internal', message: 'entry.get: boom' } });
  });

  it('keeps a null leafId (meaning "before the first entry") distinct from absent', async () => {
    const { handlers, calls } = recordingHandlers();
    await dispatch(handlers, 'session.open', { sessionId: 's', leafId: null });
    await dispatch(handlers, 'session.open', { sessionId: 's' });
    expect(calls.map((c) => c.args)).toEqual([{ sessionId: 's', leafId: null }, { sessionId: 's' }]);
  });
});
