import type { Handlers } from '../../electron/shared/contract';
import { CanopyError } from '../../electron/shared/errors';

/** Handlers that record their calls; `session.open` refuses unknown ids like the real catalog. */
export function recordingHandlers() {
  const calls: Array<{ channel: string; args: unknown }> = [];
  const handlers: Handlers = {
    'app.info': async (args) => {
      calls.push({ channel: 'app.info', args });
      return { version: 'test', transport: 'http', roots: ['/r'], demo: false };
    },
    'sessions.list': async (args) => {
      calls.push({ channel: 'sessions.list', args });
      return { projects: [], sessions: [], skipped: [] };
    },
    'sessions.summaries': async (args) => {
      calls.push({ channel: 'sessions.summaries', args });
      // One summary per asked id: asking many gives a large answer (compression tests).
      return Object.fromEntries(
        args.sessionIds.map((id) => [
          id,
          {
            name: `session ${id} …`,
            firstMessage: 'x'.repeat(200),
            entryCount: 1,
            messageCount: 1,
            lastActivity: null,
            issueCount: 0,
          },
        ]),
      );
    },
    'session.open': async (args) => {
      calls.push({ channel: 'session.open', args });
      throw new CanopyError('not_found', `no session ${args.sessionId}`);
    },
    'session.previews': async (args) => {
      calls.push({ channel: 'session.previews', args });
      return {};
    },
    'session.flags': async (args) => {
      calls.push({ channel: 'session.flags', args });
      throw new CanopyError('not_found', `no session ${args.sessionId}`);
    },
    'entry.get': async (args) => {
      calls.push({ channel: 'entry.get', args });
      throw new Error('boom');
    },
    'entry.payload': async (args) => {
      calls.push({ channel: 'entry.payload', args });
      throw new CanopyError('not_found', `no session ${args.sessionId}`);
    },
    'session.context': async (args) => {
      calls.push({ channel: 'session.context', args });
      throw new CanopyError('not_found', `no session ${args.sessionId}`);
    },
    'session.forkPreview': async (args) => {
      calls.push({ channel: 'session.forkPreview', args });
      return { ok: false, error: { kind: 'invalid_fork_target', message: 'Invalid entry ID for forking' } };
    },
    'session.fork': async (args) => {
      calls.push({ channel: 'session.fork', args });
      throw new CanopyError('invalid_fork_target', 'Invalid entry ID for forking');
    },
    'session.lineage': async (args) => {
      calls.push({ channel: 'session.lineage', args });
      return { sessionId: args.sessionId, parent: null, missingParentPath: null, children: [] };
    },
    'session.cancelOpen': async (args) => {
      calls.push({ channel: 'session.cancelOpen', args });
      return { cancelled: false };
    },
    'search.query': async (args) => {
      calls.push({ channel: 'search.query', args });
      return {
        hits: [],
        cursor: null,
        stopped: null,
        status: { indexing: false, done: 0, total: 0, indexPath: null, problems: 0, error: null },
      };
    },
    'search.status': async (args) => {
      calls.push({ channel: 'search.status', args });
      return { indexing: false, done: 0, total: 0, indexPath: null, problems: 0, error: null };
    },
    'session.upload': async (args) => {
      calls.push({ channel: 'session.upload', args });
      return { sessionId: 'uploaded' };
    },
    'session.openDialog': async (args) => {
      calls.push({ channel: 'session.openDialog', args });
      return { sessionIds: [] };
    },
    'session.find': async (args) => {
      calls.push({ channel: 'session.find', args });
      throw new CanopyError('not_found', `${args.idOrPath} is no listed session`);
    },
    ...shareFakes(calls),
    'store.report': async (args) => {
      calls.push({ channel: 'store.report', args });
      return {
        state: 'idle',
        done: 0,
        total: 0,
        usage: [],
        usageProblems: [],
        storage: [],
        unpricedModels: [],
        computedAt: null,
      };
    },
    'store.slimPreview': async (args) => {
      calls.push({ channel: 'store.slimPreview', args });
      throw new CanopyError('not_found', `no session ${args.sessionId}`);
    },
    'store.slim': async (args) => {
      calls.push({ channel: 'store.slim', args });
      throw new CanopyError('not_found', `no session ${args.sessionId}`);
    },
    'store.archivePreview': async (args) => {
      calls.push({ channel: 'store.archivePreview', args });
      return { staleDays: args.staleDays, families: [], bytes: 0, archiveDir: '/archive' };
    },
    'store.archive': async (args) => {
      calls.push({ channel: 'store.archive', args });
      return { archived: 0, bytes: 0, kept: 0, folders: [] };
    },
    'session.compare': async (args) => {
      calls.push({ channel: 'session.compare', args });
      throw new CanopyError('not_found', `no session ${args.a.sessionId}`);
    },
    'doctor.examine': async (args) => {
      calls.push({ channel: 'doctor.examine', args });
      throw new CanopyError('not_found', `no session ${args.sessionId}`);
    },
    'doctor.repair': async (args) => {
      calls.push({ channel: 'doctor.repair', args });
      throw new CanopyError('not_found', `no session ${args.sessionId}`);
    },
    'doctor.store': async (args) => {
      calls.push({ channel: 'doctor.store', args });
      return { state: 'idle', done: 0, total: 0, sessions: [], problems: [] };
    },
    ...keepFakes(calls),
    'pi.handback': async (args) => {
      calls.push({ channel: 'pi.handback', args });
      return { pi: null, status: null };
    },
  };
  return { handlers, calls };
}

/** The secret radar's and exports' channels: empty answers, calls recorded. */
function shareFakes(calls: Array<{ channel: string; args: unknown }>) {
  const status = { scanning: false, done: 0, total: 0, withFindings: 0, error: null };
  const rec =
    <T>(channel: string, answer: T) =>
    async (args: unknown) => {
      calls.push({ channel, args });
      return answer;
    };
  return {
    'secrets.status': rec('secrets.status', status),
    'secrets.counts': rec('secrets.counts', {}),
    'secrets.session': async (args: { sessionId: string }) => {
      calls.push({ channel: 'secrets.session', args });
      return { sessionId: args.sessionId, scanned: false, findings: [] };
    },
    'secrets.reveal': async (args: { sessionId: string }) => {
      calls.push({ channel: 'secrets.reveal', args });
      throw new CanopyError('not_found', `no finding in ${args.sessionId}`);
    },
    'export.preview': rec('export.preview', { suggestedName: 'x.html', leafId: null, bytes: 0, replacements: [] }),
    'export.write': rec('export.write', { writtenTo: null, fileName: 'x.html', content: '', replacements: 0 }),
    'export.ledger': rec('export.ledger', []),
    'redactions.get': rec('redactions.get', { literals: [], regexes: [] }),
    'redactions.set': async (args: { literals: string[]; regexes: string[] }) => {
      calls.push({ channel: 'redactions.set', args });
      return args;
    },
  } satisfies Partial<Handlers>;
}

/** The keep wing's channels: recorded; reads answer empty, changes refuse (no records here). */
function keepFakes(
  calls: Array<{ channel: string; args: unknown }>,
): Pick<
  Handlers,
  'keep.get' | 'keep.set' | 'trash.preview' | 'trash.move' | 'trash.list' | 'trash.restore' | 'session.continue'
> {
  const refuse = (channel: string) => async (args: unknown) => {
    calls.push({ channel, args });
    throw new CanopyError('not_found', 'no such session');
  };
  return {
    'keep.get': async (args) => (calls.push({ channel: 'keep.get', args }), {}),
    'trash.list': async (args) => (calls.push({ channel: 'trash.list', args }), []),
    'keep.set': refuse('keep.set'),
    'trash.preview': refuse('trash.preview'),
    'trash.move': refuse('trash.move'),
    'trash.restore': refuse('trash.restore'),
    'session.continue': refuse('session.continue'),
  };
}
