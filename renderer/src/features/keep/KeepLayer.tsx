/**
 * Mounted once by the shell: follows Canopy's records (keep.changed), registers the keep actions
 * (rename/tag/pin/note, trash, restore, Continue in pi) for the open session, and holds the dialogs.
 */
import { useEffect, useMemo } from 'react';
import { useActions, useServices } from '../../app-context';
import { useContributedActions } from '../../commands/commands-context';
import { CONTRIBUTED } from '../../commands/registry';
import { KeepDialog } from './KeepDialog';
import { TrashDialog } from './TrashDialog';
import { ContinueOffer } from './ContinueOffer';
import { useContinueInPi } from './use-continue';

export function KeepLayer() {
  const actions = useActions();
  const { store } = useServices();
  const continueInPi = useContinueInPi();
  useEffect(() => actions.followKeep(), [actions]);
  const contributed = useMemo(() => {
    const open = () => store.getState().openSessionId;
    const enabled = () => open() !== null;
    const dialog = (focus: 'name' | 'trash') => () => {
      const sessionId = open();
      if (sessionId) store.getState().setKeepDialog({ open: 'keep', sessionId, focus });
    };
    return [
      { ...CONTRIBUTED.keepSession, enabled, run: dialog('name') },
      { ...CONTRIBUTED.trashSession, enabled, run: dialog('trash') },
      {
        ...CONTRIBUTED.pinSession,
        enabled,
        run: () => {
          const sessionId = open();
          if (sessionId) void actions.keepSession(sessionId, { pinned: !store.getState().keep[sessionId]?.pinned });
        },
      },
      { ...CONTRIBUTED.restoreTrashed, run: () => store.getState().setKeepDialog({ open: 'trash' }) },
      {
        ...CONTRIBUTED.continueInPi,
        enabled,
        run: () => {
          const sessionId = open();
          if (sessionId) void continueInPi(sessionId);
        },
      },
    ];
  }, [actions, store, continueInPi]);
  useContributedActions(contributed);
  return (
    <>
      <KeepDialog />
      <TrashDialog />
      <ContinueOffer />
    </>
  );
}
