import type { ActionContext } from './action-context';

export interface SessionsActions {
  loadSessions(opts?: { refresh?: boolean }): Promise<void>;
  /** Asks for summaries of these sessions soon, in batches, each id at most once per file version. */
  requestSummaries(sessionIds: readonly string[]): void;
  /** Files from a file input or a drop: their bytes are uploaded (never a path), listed under "Opened", the last one opened. */
  openFiles(files: ReadonlyArray<{ name: string; text(): Promise<string> }>): Promise<void>;
  /** File ▸ Open… in Electron: main's native dialog. */
  openDialog(): Promise<void>;
  /** The listed session named by an id or a file path (the palette); null when none is. */
  findSession(idOrPath: string): Promise<string | null>;
}

export function createSessionsActions({ api, s, check, summaries, actions }: ActionContext): SessionsActions {
  async function loadSessions(opts: { refresh?: boolean } = {}) {
    s().setListing(true);
    const r = check(await api['sessions.list'](opts.refresh ? { refresh: true } : {}));
    s().setListing(false);
    if ('error' in r) {
      s().setListError(r.error);
      return;
    }
    s().setSessionList(r.data);
    summaries.relisted();
    void summaries.fill();
  }

  async function openFiles(files: ReadonlyArray<{ name: string; text(): Promise<string> }>) {
    let last: string | null = null;
    for (const file of files) {
      const r = await api['session.upload']({ name: file.name, text: await file.text() });
      if (r.ok) last = r.data.sessionId;
      else s().showToast(`${file.name}: ${r.error.message}`);
    }
    if (!last) return;
    // The upload's row reaches the list with its sessions.changed (no listing asked for).
    await actions.openSession(last);
  }

  async function openDialog() {
    const r = await api['session.openDialog']({});
    if (!r.ok) return s().showToast(r.error.message);
    await loadSessions({ refresh: true });
    const last = r.data.sessionIds.at(-1);
    if (last) await actions.openSession(last);
  }

  async function findSession(idOrPath: string): Promise<string | null> {
    const r = await api['session.find']({ idOrPath });
    return r.ok ? r.data.sessionId : null;
  }

  return { loadSessions, requestSummaries: summaries.request, openFiles, openDialog, findSession };
}
