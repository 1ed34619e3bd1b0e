import { createContext, useContext, type ComponentType } from 'react';

/** What other features draw on a session row, passed in by the shell (the rows are memoised, deep in a virtual list). */
export interface RowSlots {
  /** Drawn after the title: a feature's mark for this session (e.g. secrets found in it). */
  Marker?: ComponentType<{ sessionId: string }>;
}

const NO_SLOTS: RowSlots = {};
export const RowSlotsContext = createContext<RowSlots>(NO_SLOTS);

export function useRowSlots(): RowSlots {
  return useContext(RowSlotsContext);
}
