import type { ProfileDto } from '../lib/shared';
import type { ActionContext } from './action-context';

export interface SettingsActions {
  /** Reads the open session again under these rules (null: the profile detected for the file). */
  setProfile(profile: ProfileDto | null): Promise<void>;
}

export function createSettingsActions({ s, actions }: ActionContext): SettingsActions {
  return {
    async setProfile(profile) {
      s().setProfileOverride(profile);
      await actions.reloadGraph();
    },
  };
}
