/** Everything behind the transports, built once: event bus, catalog, handlers. Used by main, `canopy serve` and tests. */
import { EventBus } from './repo/event-bus';
import { throttledStatus } from './repo/progress';
import { createHandlers } from './ipc/handlers';
import { SessionCatalog } from './repo/catalog';
import { SessionService } from './repo/session-service';
import { AppSearch } from './search';
import { AppSecrets, redactor } from './secrets';
import { AppExport } from './export';
import { StoreService } from './store-views';
import { OpenGate } from './threads/open-gate';
import { AppKeep } from './keep';
import { SessionOffload } from './repo/session-offload';
import { AppDoctor } from './doctor';
import type { Events, Handlers } from './shared/contract';
import { VERSION } from './version';

export interface AppServicesOptions {
  roots: string[];
  demoDir?: string;
  transport: 'electron' | 'http';
  /** Watch the roots and push `sessions.changed` / `session.appended` (default true). */
  watch?: boolean;
  /** Electron: main's native open dialog (session.openDialog). */
  openDialog?: () => Promise<string[]>;
  /** Electron: main's native save dialog for exports (without it, exports are downloads). */
  saveDialog?: (suggestedName: string) => Promise<string | null>;
  /** Folders opened at start (`canopy serve ~`): like the roots, nothing of Canopy's is written inside them. */
  openedFolders?: readonly string[];
  /** Roots among `roots` that are read-only (the team database's mirror, `canopy serve --db`). */
  readOnlyRoots?: string[];
  /** Build heavy per-session answers (context views) in a worker thread (serve, the app). */
  offload?: boolean;
  /** Environment for the cache and data folders (tests); default process.env. */
  env?: Record<string, string | undefined>;
}

export interface AppServices {
  bus: EventBus;
  catalog: SessionCatalog;
  /** The per-session channels (id → row → open session). */
  sessions: SessionService;
  search: AppSearch;
  secrets: AppSecrets;
  doctor: AppDoctor;
  handlers: Handlers;
  /** Settles once every watcher is in place (at once when not watching). */
  watching: Promise<void>;
  /** Settles once its worker threads have exited (nothing of theirs writes after it). */
  close(): Promise<void>;
}

export function createAppServices(options: AppServicesOptions): AppServices {
  const bus = new EventBus();
  const catalog = new SessionCatalog({
    roots: options.roots,
    bus,
    ...(options.readOnlyRoots ? { readOnlyRoots: options.readOnlyRoots } : {}),
    ...(options.demoDir ? { demoDir: options.demoDir } : {}),
  });
  // Opening a session comes first: indexing, the radar and the store report wait while one opens.
  const gate = new OpenGate();
  const allRoots = [...options.roots, ...(options.demoDir ? [options.demoDir] : []), ...(options.openedFolders ?? [])];
  const env = options.env ? { env: options.env } : {};
  const search = new AppSearch({ roots: allRoots, bus, rows: catalog, gate, ...env });
  // Context views (seconds of work on a long path) are built in a worker thread where the app is served.
  const offload = options.offload ? new SessionOffload() : null;
  const sessions = new SessionService(catalog, offload);
  const secrets = new AppSecrets({ roots: allRoots, bus, gate, ...env });
  const exporter = new AppExport({
    sessions,
    redactor,
    roots: allRoots,
    ...env,
    ...(options.saveDialog ? { saveDialog: options.saveDialog } : {}),
  });
  const store = new StoreService({
    list: () => catalog.list(),
    readOnlyReason: (id) => catalog.readOnlyReason(id),
    addWritten: (path) => catalog.addWritten(path),
    roots: options.roots,
    relist: () => catalog.list(true),
    bus,
    gate,
    ...(options.openedFolders ? { openedFolders: options.openedFolders } : {}),
    ...env,
  });
  // An archive or restore a crash cut is finished (or rolled back) at start; an error says so in the log.
  void store.resumeArchive().catch((err: Error) => console.error(`canopy: archive resume: ${err.message}`));
  const keep = new AppKeep({
    roots: allRoots,
    bus,
    list: () => catalog.list(),
    relist: () => catalog.list(true),
    readOnlyReason: (id) => catalog.readOnlyReason(id),
    ...env,
  });
  const doctor = new AppDoctor({
    list: () => catalog.list(),
    readOnlyReason: (id) => catalog.readOnlyReason(id),
    addWritten: (path) => catalog.addWritten(path),
    // Told per file: at most one event per 100 ms reaches the views (the last one at once).
    progress: throttledStatus(
      (p: Events['doctor.progress']) => bus.emit('doctor.progress', p),
      (p) => p.state !== 'running',
    ),
    pause: gate.pause,
  });
  // New and changed files reach every background pass on arrival, from the catalog's row changes (one subscription).
  const passes = [search, secrets, store];
  const stopFollowing = catalog.onRowsChanged((change) => {
    for (const pass of passes) void pass.rowsChanged(change);
  });
  const handlers = createHandlers({
    keep,
    catalog,
    sessions,
    search,
    store,
    doctor,
    gate,
    version: VERSION,
    transport: options.transport,
    ...(options.openDialog ? { openDialog: options.openDialog } : {}),
    secrets,
    exporter,
  });
  const stopWatching =
    options.watch === false ? Object.assign(() => {}, { ready: Promise.resolve() }) : catalog.watch();
  return {
    bus,
    catalog,
    sessions,
    search,
    secrets,
    doctor,
    handlers,
    watching: stopWatching.ready,
    close: async () => {
      stopWatching();
      stopFollowing();
      sessions.live?.close();
      const ended = Promise.all([search.close(), secrets.close(), offload?.close()]);
      catalog.close();
      await ended;
    },
  };
}
