/** Everything behind the transports, built once: event bus, catalog, handlers. Used by main, `canopy serve` and tests. */
import { EventBus } from './repo/event-bus';
import { createHandlers } from './ipc/handlers';
import { SessionCatalog } from './repo/catalog';
import { SessionService } from './repo/session-service';
import { AppSearch } from './repo/search/app-search';
import type { Handlers } from './shared/contract';
import { VERSION } from './version';

export interface AppServicesOptions {
  roots: string[];
  demoDir?: string;
  transport: 'electron' | 'http';
  /** Watch the roots and push `sessions.changed` / `session.appended` (default true). */
  watch?: boolean;
  /** Electron: main's native open dialog (session.openDialog). */
  openDialog?: () => Promise<string[]>;
}

export interface AppServices {
  bus: EventBus;
  catalog: SessionCatalog;
  /** The per-session channels (id → row → open session). */
  sessions: SessionService;
  search: AppSearch;
  handlers: Handlers;
  /** Settles once every watcher is in place (at once when not watching). */
  watching: Promise<void>;
  close(): void;
}

export function createAppServices(options: AppServicesOptions): AppServices {
  const bus = new EventBus();
  const catalog = new SessionCatalog({
    roots: options.roots,
    bus,
    ...(options.demoDir ? { demoDir: options.demoDir } : {}),
  });
  const search = new AppSearch({
    roots: [...options.roots, ...(options.demoDir ? [options.demoDir] : [])],
    bus,
    rows: catalog,
  });
  // An append (or a new file) becomes searchable at once, not at the next listing.
  const stopFollowing = catalog.onRowsChanged((change) => void search.rowsChanged(change));
  const sessions = new SessionService(catalog);
  const handlers = createHandlers({
    catalog,
    sessions,
    search,
    version: VERSION,
    transport: options.transport,
    ...(options.openDialog ? { openDialog: options.openDialog } : {}),
  });
  const stopWatching =
    options.watch === false ? Object.assign(() => {}, { ready: Promise.resolve() }) : catalog.watch();
  return {
    bus,
    catalog,
    sessions,
    search,
    handlers,
    watching: stopWatching.ready,
    close: () => {
      stopWatching();
      stopFollowing();
      search.close();
      catalog.close();
    },
  };
}
