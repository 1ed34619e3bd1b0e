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
    [
      'path as id is only an opaque string, but control chars are refused',
      'entry.get',
      { sessionId: 'a\u0000', entryId: 'b' },
      'invalid_argument',
    ],
    ['bad profile', 'session.open', { sessionId: 'x', profile: 'h4' }, 'invalid_argument'],
    ['too long id', 'entry.get', { sessionId: 'x'.repeat(300), entryId: 'b' }, 'invalid_argument'],
    ['ids not array', 'sessions.summaries', { sessionIds: 'a' }, 'invalid_argument'],
    [
      'payload: negative offset',
      'entry.payload',
      { sessionId: 's', entryId: 'e', payloadId: '/data', offset: -1 },
      'invalid_argument',
    ],
    [
      'payload: zero length',
      'entry.payload',
      { sessionId: 's', entryId: 'e', payloadId: '/data', length: 0 },
      'invalid_argument',
    ],
    ['payload: no pointer', 'entry.payload', { sessionId: 's', entryId: 'e' }, 'invalid_argument'],
    [
      'payload: a path instead of ids',
      'entry.payload',
      { sessionId: 's', entryId: 'e', payloadId: '/data', path: '/etc/passwd' },
      'invalid_argument',
    ],
    ['context: path instead of id', 'session.context', { path: '/etc/passwd' }, 'invalid_argument'],
    ['context: leafId not a string', 'session.context', { sessionId: 's', leafId: 5 }, 'invalid_argument'],
    ['context: bad profile', 'session.context', { sessionId: 's', profile: 'H3' }, 'invalid_argument'],
    ['fork: no request', 'session.fork', { sessionId: 's' }, 'invalid_argument'],
    ['fork: request not an object', 'session.fork', { sessionId: 's', request: 'fork' }, 'invalid_argument'],
    ['fork: unknown kind', 'session.fork', { sessionId: 's', request: { kind: 'copy' } }, 'invalid_argument'],
    [
      'fork: missing position',
      'session.fork',
      { sessionId: 's', request: { kind: 'fork', entryId: 'e' } },
      'invalid_argument',
    ],
    [
      'fork: bad position',
      'session.fork',
      { sessionId: 's', request: { kind: 'fork', entryId: 'e', position: 'after' } },
      'invalid_argument',
    ],
    [
      'fork: empty entry id',
      'session.fork',
      { sessionId: 's', request: { kind: 'fork', entryId: '', position: 'at' } },
      'invalid_argument',
    ],
    [
      'fork: extra request key',
      'session.fork',
      { sessionId: 's', request: { kind: 'fork', entryId: 'e', position: 'at', path: '/tmp/x' } },
      'invalid_argument',
    ],
    [
      'fork: clone with entryId',
      'session.fork',
      { sessionId: 's', request: { kind: 'clone', entryId: 'e' } },
      'invalid_argument',
    ],
    [
      // An entry id may be as long as pi allows (any string), not longer than the body limit.
      'fork: clone leaf too long',
      'session.fork',
      { sessionId: 's', request: { kind: 'clone', leafId: 'x'.repeat(1024 * 1024 + 1) } },
      'invalid_argument',
    ],
    [
      'fork: extra top-level key',
      'session.fork',
      { sessionId: 's', request: { kind: 'clone' }, dir: '/tmp' },
      'invalid_argument',
    ],
    ['preview: array request', 'session.forkPreview', { sessionId: 's', request: [] }, 'invalid_argument'],
    [
      'preview: bad profile',
      'session.forkPreview',
      { sessionId: 's', request: { kind: 'clone' }, profile: 'h4' },
      'invalid_argument',
    ],
    ['lineage: extra key', 'session.lineage', { sessionId: 's', depth: 2 }, 'invalid_argument'],
    ['lineage: missing id', 'session.lineage', {}, 'invalid_argument'],
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

  it('passes fork requests through field by field, keeping a null clone leaf', async () => {
    const { handlers, calls } = recordingHandlers();
    const fork = { sessionId: 's', request: { kind: 'fork', entryId: 'e1', position: 'before' }, profile: 'h3' };
    const refused = await dispatch(handlers, 'session.forkPreview', fork);
    // A preview refusal is a normal value, not an error.
    expect(refused).toEqual({
      ok: true,
      data: { ok: false, error: { kind: 'invalid_fork_target', message: 'Invalid entry ID for forking' } },
    });
    await dispatch(handlers, 'session.fork', { sessionId: 's', request: { kind: 'clone', leafId: null } });
    await dispatch(handlers, 'session.fork', { sessionId: 's', request: { kind: 'clone' } });
    await dispatch(handlers, 'session.context', { sessionId: 's', leafId: null, profile: 'ca' });
    expect(calls.map((c) => [c.channel, c.args])).toEqual([
      ['session.forkPreview', fork],
      ['session.fork', { sessionId: 's', request: { kind: 'clone', leafId: null } }],
      ['session.fork', { sessionId: 's', request: { kind: 'clone' } }],
      ['session.context', { sessionId: 's', leafId: null, profile: 'ca' }],
    ]);
    expect(
      await dispatch(handlers, 'session.fork', {
        sessionId: 's',
        request: { kind: 'fork', entryId: 'e', position: 'at' },
      }),
    ).toEqual({
      ok: false,
      error: { code: 'invalid_fork_target', message: 'Invalid entry ID for forking' },
    });
  });

  it('keeps a null leafId (meaning "before the first entry") distinct from absent', async () => {
    const { handlers, calls } = recordingHandlers();
    await dispatch(handlers, 'session.open', { sessionId: 's', leafId: null });
    await dispatch(handlers, 'session.open', { sessionId: 's' });
    expect(calls.map((c) => c.args)).toEqual([{ sessionId: 's', leafId: null }, { sessionId: 's' }]);
  });
});
