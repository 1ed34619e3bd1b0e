import type { StateCreator } from 'zustand/vanilla';
import type { SecretsStatusDto } from '../lib/shared';
import type { CanopyState } from './index';

/** What sharing needs to know before anything leaves: the secrets radar's counts and progress. */
export interface ShareSlice {
  /** Possible secrets per session id (the list's markers, the open session's banner). */
  secretCounts: Record<string, number>;
  /** The radar's scan (null before main answered). */
  secretsStatus: SecretsStatusDto | null;

  setSecretCounts(counts: Record<string, number>): void;
  setSecretsStatus(status: SecretsStatusDto): void;
}

export const createShareSlice: StateCreator<CanopyState, [], [], ShareSlice> = (set) => ({
  secretCounts: {},
  secretsStatus: null,

  setSecretCounts: (secretCounts) => set({ secretCounts }),
  setSecretsStatus: (secretsStatus) => set({ secretsStatus }),
});
