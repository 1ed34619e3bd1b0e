import type { ContinueResultDto, KeepPatchDto, KeepRecordDto, TrashPreviewDto, TrashRecordDto } from '../lib/shared';
import type { ActionContext, Outcome } from './action-context';

export interface KeepActions {
  /** Loads the records and follows keep.changed; returns the stop. */
  followKeep(): () => void;
  /** Changes one session's record (the event brings it to every window). */
  keepSession(sessionId: string, patch: KeepPatchDto): Promise<Outcome<KeepRecordDto | null>>;
  trashPreview(sessionId: string, withForks: boolean): Promise<Outcome<TrashPreviewDto>>;
  trashSession(sessionId: string, withForks: boolean): Promise<Outcome<TrashRecordDto>>;
  loadTrashed(): Promise<Outcome<TrashRecordDto[]>>;
  restoreTrashed(id: string): Promise<Outcome<TrashRecordDto>>;
  /** Continue in pi: the app opens a terminal; serve answers the command (the caller copies it). */
  continueInPi(sessionId: string, fork?: boolean): Promise<Outcome<ContinueResultDto>>;
}

export function createKeepActions({ api, s, check, actions }: ActionContext): KeepActions {
  const afterMove = async () => {
    await actions.loadSessions({ refresh: true });
    await loadTrashed();
  };
  async function loadTrashed() {
    const out = check(await api['trash.list']({}));
    if ('data' in out) s().setTrashed(out.data);
    return out;
  }
  return {
    followKeep() {
      let live = true;
      void api['keep.get']({}).then((r) => {
        if (live && r.ok) s().setKeep(r.data);
      });
      const off = api.on('keep.changed', (e) => s().patchKeep(e.sessionId, e.record));
      return () => {
        live = false;
        off();
      };
    },
    async keepSession(sessionId, patch) {
      const out = check(await api['keep.set']({ sessionId, patch }));
      if ('data' in out) s().patchKeep(sessionId, out.data);
      return out;
    },
    async trashPreview(sessionId, withForks) {
      return check(await api['trash.preview']({ sessionId, withForks }));
    },
    async trashSession(sessionId, withForks) {
      const out = check(await api['trash.move']({ sessionId, withForks }));
      if ('data' in out) {
        if (out.data.files.some((f) => f.sessionId === s().openSessionId)) s().closeSession();
        await afterMove();
      }
      return out;
    },
    loadTrashed,
    async restoreTrashed(id) {
      const out = check(await api['trash.restore']({ id }));
      if ('data' in out) await afterMove();
      return out;
    },
    async continueInPi(sessionId, fork) {
      return check(await api['session.continue']({ sessionId, ...(fork ? { fork: true } : {}) }));
    },
  };
}
