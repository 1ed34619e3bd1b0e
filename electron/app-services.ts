/** Everything behind the transports, built once: event bus, catalog, handlers. Used by main, `canopy serve` and tests. */
import { EventBus } from './repo/event-bus';
import { createHandlers } from './ipc/handlers';
import { SessionCatalog } from './repo/catalog';
import { AppSearch } from './repo/search/app-search';
import { StoreService } from './repo/store/store-service';
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
  const search = new AppSearch({ roots: [...options.roots, ...(options.demoDir ? [options.demoDir] : [])], bus });
  // An append becomes searchable at once, not at the next listing.
  const stopFollowing = bus.subscribe((event, payload) => {
    if (event === 'session.appended') void search.appended((payload as { sessionId: string }).sessionId);
  });
  const store = new StoreService({
    list: () => catalog.list(),
    readOnlyReason: (id) => catalog.readOnlyReason(id),
    addWritten: (path) => catalog.addWritten(path),
    roots: options.roots,
    relist: () => catalog.list(true),
    bus,
  });
  const handlers = createHandlers({
    catalog,
    search,
    store,
    version: VERSION,
    transport: options.transport,
    ...(options.openDialog ? { openDialog: options.openDialog } : {}),
  });
  const stopWatching =
    options.watch === false ? Object.assign(() => {}, { ready: Promise.resolve() }) : catalog.watch();
  return {
    bus,
    catalog,
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
