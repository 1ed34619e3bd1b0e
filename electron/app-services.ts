/** Everything behind the transports, built once: event bus, catalog, handlers. Used by main, `canopy serve` and tests. */
import { EventBus } from './ipc/events';
import { createHandlers } from './ipc/handlers';
import { SessionCatalog } from './repo/catalog';
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
  handlers: Handlers;
  close(): void;
}

export function createAppServices(options: AppServicesOptions): AppServices {
  const bus = new EventBus();
  const catalog = new SessionCatalog({ roots: options.roots, bus, ...(options.demoDir ? { demoDir: options.demoDir } : {}) });
  const handlers = createHandlers({ catalog, version: VERSION, transport: options.transport, ...(options.openDialog ? { openDialog: options.openDialog } : {}) });
  const stopWatching = options.watch === false ? () => {} : catalog.watch();
  return {
    bus,
    catalog,
    handlers,
    close: () => {
      stopWatching();
      catalog.close();
    },
  };
}
