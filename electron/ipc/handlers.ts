/** One handler per channel of the contract (a missing one fails to compile). Thin: the catalog does the work. */
import type { Handlers } from '../shared/contract';
import type { SessionCatalog } from '../repo/catalog';

export interface HandlerContext {
  catalog: SessionCatalog;
  version: string;
  transport: 'electron' | 'http';
}

export function createHandlers(ctx: HandlerContext): Handlers {
  const { catalog } = ctx;
  return {
    'app.info': async () => ({
      version: ctx.version,
      transport: ctx.transport,
      roots: catalog.rootsForDisplay(),
      demo: catalog.isDemo(),
    }),
    'sessions.list': (args) => catalog.list(args.refresh === true),
    'sessions.summaries': (args) => catalog.summaries(args.sessionIds),
    'session.open': (args) => catalog.open(args.sessionId, args.profile, args.leafId),
    'session.previews': (args) => catalog.previews(args.sessionId, args.entryIds),
    'session.flags': (args) => catalog.flags(args.sessionId),
    'entry.get': (args) => catalog.entry(args.sessionId, args.entryId),
    'session.context': (args) => catalog.context.view(args.sessionId, args.profile, args.leafId),
    'session.forkPreview': (args) => catalog.context.forkPreview(args.sessionId, args.request, args.profile),
    'session.fork': (args) => catalog.context.fork(args.sessionId, args.request, args.profile),
    'session.lineage': (args) => catalog.context.lineage(args.sessionId),
    'session.cancelOpen': async (args) => ({ cancelled: catalog.cancelOpen(args.sessionId) }),
  };
}
