/** Everything behind the transports, built once: event bus, catalog, handlers. Used by main, `canopy serve` and tests. */
import { EventBus } from './repo/event-bus';
import { createHandlers } from './ipc/handlers';
import { SessionCatalog } from './repo/catalog';
import { AppSearch } from './repo/search/app-search';
import { AppSecrets } from './repo/secrets/app-secrets';
import { AppExport } from './repo/export/app-export';
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
  /** Electron: main's native save dialog for exports (without it, exports are downloads). */
  saveDialog?: (suggestedName: string) => Promise<string | null>;
  /** Environment for the cache and data folders (tests); default process.env. */
  env?: Record<string, string | undefined>;
}

export interface AppServices {
  bus: EventBus;
  catalog: SessionCatalog;
  search: AppSearch;
  secrets: AppSecrets;
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
  const allRoots = [...options.roots, ...(options.demoDir ? [options.demoDir] : [])];
  const env = options.env ? { env: options.env } : {};
  const secrets = new AppSecrets({ roots: allRoots, bus, ...env });
  const exporter = new AppExport({
    catalog,
    roots: allRoots,
    ...env,
    ...(options.saveDialog ? { saveDialog: options.saveDialog } : {}),
  });
  // An append becomes searchable at once, not at the next listing.
  const stopFollowing = bus.subscribe((event, payload) => {
    if (event === 'session.appended') void search.appended((payload as { sessionId: string }).sessionId);
    if (event === 'session.appended') void secrets.appended((payload as { sessionId: string }).sessionId);
  });
  const handlers = createHandlers({
    catalog,
    search,
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
    search,
    secrets,
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
