import type { StateCreator } from 'zustand/vanilla';
import type { FilterMode } from '../model/filters';
import type { ProfileDto } from '../lib/shared';
import type { CanopyState } from './index';

export interface SettingsSlice {
  filterMode: FilterMode;
  /** null = the profile detected for the file. */
  profileOverride: ProfileDto | null;
  /** H3 `leaf` records are navigation markers: hidden unless asked for. */
  showLeafRecords: boolean;
  graphQuery: string;
  /** Index into the current search hits of the one last jumped to. */
  searchHit: number;

  setFilterMode(mode: FilterMode): void;
  setProfileOverride(profile: ProfileDto | null): void;
  setShowLeafRecords(show: boolean): void;
  setGraphQuery(query: string): void;
  setSearchHit(index: number): void;
}

export const createSettingsSlice: StateCreator<CanopyState, [], [], SettingsSlice> = (set) => ({
  filterMode: 'default',
  profileOverride: null,
  showLeafRecords: false,
  graphQuery: '',
  searchHit: -1,

  setFilterMode: (filterMode) => set({ filterMode }),
  setProfileOverride: (profileOverride) => set({ profileOverride }),
  setShowLeafRecords: (showLeafRecords) => set({ showLeafRecords }),
  setGraphQuery: (graphQuery) => set({ graphQuery, searchHit: -1 }),
  setSearchHit: (searchHit) => set({ searchHit }),
});
