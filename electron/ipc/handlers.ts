/** One handler per channel of the contract (a missing one fails to compile). Thin: the catalog does the work. */
import type { Handlers } from '../shared/contract';
import { CanopyError } from '../shared/errors';
import type { SessionCatalog } from '../repo/catalog';
import { entryPayload } from '../repo/entry-payload';
import type { AppSearch } from '../repo/search/app-search';
import { compareLeaves } from '../repo/compare';

export interface HandlerContext {
  catalog: SessionCatalog;
  /** Absent: search answers that it is unavailable. */
  search?: AppSearch;
  version: string;
  transport: 'electron' | 'http';
  /** Electron: main's native open dialog; the chosen paths (empty when cancelled). */
  openDialog?: () => Promise<string[]>;
}

export function createHandlers(ctx: HandlerContext): Handlers {
  const { catalog, search } = ctx;
  return {
    // After the first listing: only then is it known whether demo sessions are shown.
    'app.info': async () => {
      await catalog.list();
      return {
        version: ctx.version,
        transport: ctx.transport,
        roots: catalog.rootsForDisplay(),
        demo: catalog.isDemo(),
      };
    },
    'sessions.list': async (args) => {
      const listing = await catalog.list(args.refresh === true);
      // Indexing for search starts (or catches up) once the sessions are listed.
      search?.listed(listing);
      return listing;
    },
    'sessions.summaries': (args) => catalog.summaries(args.sessionIds),
    'session.open': (args) => {
      const opening = catalog.open(args.sessionId, args.profile, args.leafId);
      return search ? search.holdDuring(opening) : opening;
    },
    'session.previews': (args) => catalog.previews(args.sessionId, args.entryIds),
    'session.flags': (args) => catalog.flags(args.sessionId),
    'entry.get': (args) => catalog.entry(args.sessionId, args.entryId),
    'entry.payload': ({ sessionId, entryId, ...req }) => entryPayload(catalog, sessionId, entryId, req),
    'session.context': (args) => catalog.context.view(args.sessionId, args.profile, args.leafId),
    'session.forkPreview': (args) => catalog.context.forkPreview(args.sessionId, args.request, args.profile),
    'session.fork': (args) => catalog.context.fork(args.sessionId, args.request, args.profile),
    'session.lineage': (args) => catalog.context.lineage(args.sessionId),
    'session.cancelOpen': async (args) => ({ cancelled: catalog.cancelOpen(args.sessionId) }),
    'search.query': async (args) => {
      if (!search) throw new CanopyError('io', 'search is unavailable here');
      search.listed(await catalog.list());
      return search.query(args.query, args.limit, args.complete === true);
    },
    'search.status': async () => {
      if (!search) throw new CanopyError('io', 'search is unavailable here');
      return search.status();
    },
    'session.upload': (args) => catalog.upload(args.name, args.text),
    'session.openDialog': async () => {
      if (!ctx.openDialog)
        throw new CanopyError(
          'forbidden',
          'no native dialog here: choose a file with the Open button (its bytes are uploaded)',
        );
      return catalog.openPaths(await ctx.openDialog());
    },
    'session.find': (args) => catalog.find(args.idOrPath),
    'session.compare': (args) => compareLeaves(catalog, args),
  };
}
