/** One handler per channel of the contract (a missing one fails to compile). Thin: the catalog and the sessions do the work. */
import type { Handlers } from '../shared/contract';
import { CanopyError } from '../shared/errors';
import type { SessionCatalog } from '../repo/catalog';
import { SessionService } from '../repo/session-service';
import type { AppSearch } from '../search';
import type { AppSecrets } from '../secrets';
import type { AppExport } from '../export';
import type { StoreService } from '../store-views';
import type { OpenGate } from '../threads/open-gate';
import { compareLeaves } from '../repo/compare';
import type { AppKeep } from '../keep';
import { continueInPi } from '../continue';
import { emptyRootNotes } from '../repo/roots';
import type { AppDoctor } from '../doctor';
import { handBack } from '../repo/pi-handback';

export interface HandlerContext {
  catalog: SessionCatalog;
  /** The per-session channels (default: a service over `catalog`). */
  sessions?: SessionService;
  /** Absent: search answers that it is unavailable. */
  search?: AppSearch;
  version: string;
  transport: 'electron' | 'http';
  /** Electron: main's native open dialog; the chosen paths (empty when cancelled). */
  openDialog?: () => Promise<string[]>;
  /** Absent: the secret radar and exports answer that they are unavailable. */
  secrets?: AppSecrets;
  exporter?: AppExport;
  /** The whole-store views (usage, storage, slim copies); absent: they answer unavailable. */
  store?: StoreService;
  /** Background passes wait on it while a session opens. */
  gate?: OpenGate;
  /** Names, tags, pins, notes and the trash; absent: they answer unavailable. */
  keep?: AppKeep;
  /** Tests: the environment "Continue in pi" launches with (default process.env). */
  continueEnv?: NodeJS.ProcessEnv;
  /** Absent: the doctor answers that it is unavailable. */
  doctor?: AppDoctor;
}

export function createHandlers(ctx: HandlerContext): Handlers {
  const { catalog, search } = ctx;
  const first = <T>(work: Promise<T>): Promise<T> => (ctx.gate ? ctx.gate.during(work) : work);
  const sessions = ctx.sessions ?? new SessionService(catalog);
  return {
    // After the first listing: only then is it known whether demo sessions are shown.
    'app.info': async () => {
      const listing = await catalog.list();
      const rootNotes = emptyRootNotes(catalog.roots, listing);
      return {
        version: ctx.version,
        transport: ctx.transport,
        roots: catalog.rootsForDisplay(),
        demo: catalog.isDemo(),
        ...(rootNotes.length > 0 ? { rootNotes } : {}),
      };
    },
    'sessions.list': async (args) => {
      const listing = await catalog.list(args.refresh === true);
      // Indexing for search starts (or catches up) once the sessions are listed.
      search?.listed(listing);
      ctx.secrets?.listed(listing);
      return listing;
    },
    'sessions.summaries': (args) => catalog.summaries(args.sessionIds),
    // What the user waits for comes first: background passes pause while these run.
    'session.open': (args) => first(sessions.get(args.sessionId).graph(args)),
    'session.previews': (args) => first(sessions.get(args.sessionId).previews(args.entryIds)),
    'session.flags': (args) => sessions.get(args.sessionId).flags(),
    'entry.get': (args) => first(sessions.get(args.sessionId).entry(args.entryId)),
    'entry.payload': ({ sessionId, entryId, ...req }) => first(sessions.get(sessionId).payload(entryId, req)),
    'session.context': (args) => first(sessions.get(args.sessionId).context(args)),
    'session.forkPreview': (args) => sessions.get(args.sessionId).forkPreview(args.request, args.profile),
    'session.fork': (args) => sessions.get(args.sessionId).fork(args.request, args.profile),
    'session.lineage': (args) => sessions.get(args.sessionId).lineage(),
    'session.cancelOpen': async (args) => ({ cancelled: sessions.cancelOpen(args.sessionId) }),
    'search.query': async (args) => {
      if (!search) throw new CanopyError('io', 'search is unavailable here');
      search.listed(await catalog.list());
      return search.query(args.query, args.limit, args.cursor);
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
    'store.report': (args) => needStore(ctx).get(args.refresh === true),
    'store.slimPreview': (args) => needStore(ctx).slimPreview(args),
    'store.slim': (args) => needStore(ctx).slim(args),
    'store.archivePreview': (args) => needStore(ctx).archivePreview(args.staleDays),
    'store.archive': (args) => needStore(ctx).archive(args.staleDays, args.familyIds),
    ...shareHandlers(ctx, sessions),
    'session.compare': (args) => compareLeaves(sessions, args),
    'doctor.examine': (args) => needDoctor(ctx).examine(args.sessionId),
    'doctor.repair': (args) => needDoctor(ctx).repair(args.sessionId),
    'doctor.store': async (args) => needDoctor(ctx).storeReport(args.refresh === true),
    'pi.handback': (args) => handBack(catalog, args),
    ...keepHandlers(ctx),
  };
}

/** The keep wing's channels (keep-dto.ts) and "Continue in pi". */
function keepHandlers(
  ctx: HandlerContext,
): Pick<
  Handlers,
  'keep.get' | 'keep.set' | 'trash.preview' | 'trash.move' | 'trash.list' | 'trash.restore' | 'session.continue'
> {
  const keep = (): AppKeep => {
    if (!ctx.keep) throw new CanopyError('io', 'keeping names, tags and the trash is unavailable here');
    return ctx.keep;
  };
  return {
    'keep.get': () => keep().records(),
    'keep.set': (args) => keep().set(args.sessionId, args.patch),
    'trash.preview': (args) => keep().trashPreview(args.sessionId, args.withForks),
    'trash.move': (args) => keep().trash(args.sessionId, args.withForks),
    'trash.list': () => keep().trashed(),
    'trash.restore': (args) => keep().restore(args.id),
    'session.continue': async (args) => {
      const row = (await ctx.catalog.list()).sessions.find((r) => r.sessionId === args.sessionId);
      if (!row) throw new CanopyError('not_found', `no session ${args.sessionId}`);
      return continueInPi(row, args.fork === true, {
        launches: ctx.transport === 'electron',
        ...(ctx.continueEnv ? { env: ctx.continueEnv } : {}),
      });
    },
  };
}

/** The secret radar's and exports' channels (share-dto.ts). */
function shareHandlers(
  ctx: HandlerContext,
  sessions: SessionService,
): Pick<
  Handlers,
  | 'secrets.status'
  | 'secrets.counts'
  | 'secrets.session'
  | 'secrets.reveal'
  | 'export.preview'
  | 'export.write'
  | 'export.ledger'
  | 'redactions.get'
  | 'redactions.set'
> {
  const secrets = (): AppSecrets => {
    if (!ctx.secrets) throw new CanopyError('io', 'the secret radar is unavailable here');
    return ctx.secrets;
  };
  const exporter = (): AppExport => {
    if (!ctx.exporter) throw new CanopyError('io', 'export is unavailable here');
    return ctx.exporter;
  };
  return {
    'secrets.status': async () => secrets().status(),
    'secrets.counts': async () => {
      secrets().listed(await ctx.catalog.list());
      return secrets().counts();
    },
    'secrets.session': (args) => secrets().session(args.sessionId),
    'secrets.reveal': (args) => secrets().reveal(sessions, args.sessionId, args.index),
    'export.preview': (args) => exporter().preview(args),
    'export.write': (args) => exporter().write(args),
    'export.ledger': () => exporter().ledger(),
    'redactions.get': () => exporter().redactions(),
    'redactions.set': (args) => exporter().setRedactions(args),
  };
}

function needDoctor(ctx: HandlerContext): AppDoctor {
  if (!ctx.doctor) throw new CanopyError('io', 'the doctor is unavailable here');
  return ctx.doctor;
}

function needStore(ctx: HandlerContext): StoreService {
  if (!ctx.store) throw new CanopyError('io', 'the store views are unavailable here');
  return ctx.store;
}
