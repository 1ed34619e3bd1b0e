import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Api } from './lib/shared';
import type { Actions, CanopyState, CanopyStore } from './store';

export interface AppServices {
  api: Api;
  store: CanopyStore;
  actions: Actions;
}

const ServicesContext = createContext<AppServices | null>(null);

export function AppProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('AppProvider is missing');
  return services;
}

/** Narrow subscription to the store: components re-render only when their slice changes. */
export function useCanopy<T>(selector: (state: CanopyState) => T): T {
  return useStore(useServices().store, selector);
}

export function useActions(): Actions {
  return useServices().actions;
}
