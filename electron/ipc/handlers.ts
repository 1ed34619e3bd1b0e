/** One handler per channel of the contract (a missing one fails to compile). Thin: the catalog does the work. */
import type { Handlers } from '../shared/contract';
import type { SessionCatalog } from '../repo/catalog';
import { CanopyError } from '../shared/errors';

export interface HandlerContext {
  catalog: SessionCatalog;
  version: string;
  transport: 'electron' | 'http';
  /** Electron: main's native open dialog; the chosen paths (empty when cancelled). */
  openDialog?: () => Promise<string[]>;
}

export function createHandlers(ctx: HandlerContext): Handlers {
  const { catalog } = ctx;
  return {
    // After the first listing: only then is it known whether demo sessions are shown.
    'app.info': async () => {
      await catalog.list();
      return { version: ctx.version, transport: ctx.transport, roots: catalog.rootsForDisplay(), demo: catalog.isDemo() };
    },
    'sessions.list': (args) => catalog.list(args.refresh === true),
    'sessions.summaries': (args) => catalog.summaries(args.sessionIds),
    'session.open': (args) => catalog.open(args.sessionId, args.profile, args.leafId),
    'entry.get': (args) => catalog.entry(args.sessionId, args.entryId),
    'session.context': (args) => catalog.context.view(args.sessionId, args.profile, args.leafId),
    'session.forkPreview': (args) => catalog.context.forkPreview(args.sessionId, args.request, args.profile),
    'session.fork': (args) => catalog.context.fork(args.sessionId, args.request, args.profile),
    'session.lineage': (args) => catalog.context.lineage(args.sessionId),
    'session.cancelOpen': async (args) => ({ cancelled: catalog.cancelOpen(args.sessionId) }),
    'session.upload': (args) => catalog.upload(args.name, args.text),
    'session.openDialog': async () => {
      if (!ctx.openDialog) throw new CanopyError('forbidden', 'no native dialog here: choose a file with the Open button (its bytes are uploaded)');
      return catalog.openPaths(await ctx.openDialog());
    },
    'session.find': (args) => catalog.find(args.idOrPath),
  };
}
