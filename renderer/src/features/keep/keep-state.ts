/** Which keep dialog is open, and for which session: the palette, the keys and the list share it. */
import { createStore } from 'zustand/vanilla';

export type KeepDialogState =
  { open: null } | { open: 'keep'; sessionId: string; focus?: 'name' | 'tags' | 'trash' } | { open: 'trash' };

export const keepDialog = createStore<KeepDialogState>(() => ({ open: null }));

/** A session whose folder is gone, waiting for the user's choice (fork elsewhere, or cancel). */
export const continueOffer = createStore<{ offer: { sessionId: string; cwd: string } | null }>(() => ({
  offer: null,
}));
