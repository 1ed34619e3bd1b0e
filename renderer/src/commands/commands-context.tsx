import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useServices, type AppServices } from '../app-context';
import { createRegistry, type CommandAction, type CommandRegistry } from './registry';

const RegistryContext = createContext<CommandRegistry | null>(null);

/** One registry per app, seeded with the built-in actions (the shell passes the palette's). */
export function CommandsProvider({
  children,
  registry,
  seed,
}: {
  children: ReactNode;
  registry?: CommandRegistry;
  seed?: (services: AppServices) => CommandAction[];
}) {
  const services = useServices();
  const [own] = useState(() => registry ?? createRegistry(seed?.(services) ?? []));
  return <RegistryContext.Provider value={own}>{children}</RegistryContext.Provider>;
}

/** null outside a CommandsProvider (a panel mounted alone in a test). */
export function useCommandRegistry(): CommandRegistry | null {
  return useContext(RegistryContext);
}

/** The registered actions, re-read when a feature adds or removes some. */
export function useRegisteredActions(): readonly CommandAction[] {
  const registry = useCommandRegistry();
  return useSyncExternalStore(
    (l) => registry?.subscribe(l) ?? (() => {}),
    () => registry?.list() ?? NONE,
  );
}
const NONE: readonly CommandAction[] = [];

/**
 * How a feature contributes actions (for example `{ ...CONTRIBUTED.openFile, run }`): registered
 * while the component is mounted. Pass a stable array (useMemo).
 */
export function useContributedActions(actions: readonly CommandAction[]): void {
  const registry = useCommandRegistry();
  useEffect(() => registry?.register(actions), [registry, actions]);
}
