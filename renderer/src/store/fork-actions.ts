import { editorTextOf } from '../model/editor-text';
import type { ForkRequestDto, ForkResultDto, PiHandbackDto, ProfileDto } from '../lib/shared';
import type { ActionContext } from './action-context';
import { forkKey } from './fork-slice';

export interface ForkActions {
  /** Asks main what a fork/clone would write (nothing is written); one request per key. */
  previewFork(request: ForkRequestDto): Promise<void>;
  /** Writes the fork, adds its row to the list and opens the new session. null when refused or failed. */
  fork(request: ForkRequestDto): Promise<ForkResultDto | null>;
  /** The running pi (with Canopy's package) that could take the fork `sessionId`; null: none. */
  findHandback(sessionId: string): Promise<PiHandbackDto['pi']>;
  /** Offers the fork to that pi (which asks its user); resolves to what to tell the user. */
  handBack(sessionId: string): Promise<string>;
}

/** The key of the preview the fork panel shows for a request on the open session (file size: appends change a preview). */
export function currentForkKey(
  state: { openSessionId: string | null; profileOverride: ProfileDto | null; graph: { sizeBytes: number } | null },
  request: ForkRequestDto,
): string | null {
  if (!state.openSessionId) return null;
  return forkKey(state.openSessionId, state.profileOverride, request, state.graph?.sizeBytes ?? 0);
}

export function createForkActions({ api, s, check, actions }: ActionContext): ForkActions {
  // One preview at a time: on a long path each takes seconds in main, so arrowing through entries
  // must not queue one per step; the latest request asked for meanwhile runs next, the rest never.
  let running: Promise<void> | null = null;
  let next: ForkRequestDto | null = null;

  async function previewFork(request: ForkRequestDto) {
    const state = s();
    const sessionId = state.openSessionId;
    const key = currentForkKey(state, request);
    if (!sessionId || key === null) return;
    const have = state.forkPreview;
    if (have?.key === key && (have.loading || have.preview)) return;
    state.startForkPreview(key);
    if (running) {
      next = request;
      return running;
    }
    running = (async () => {
      for (let ask: ForkRequestDto | null = request; ask; ask = next, next = null) {
        const now = s();
        const askKey = currentForkKey(now, ask);
        // Asked for before the selection moved on: the panel no longer shows it.
        if (!now.openSessionId || askKey === null || now.forkPreview?.key !== askKey) continue;
        const profile = now.profileOverride;
        const r = check(
          await api['session.forkPreview']({
            sessionId: now.openSessionId,
            request: ask,
            ...(profile ? { profile } : {}),
          }),
        );
        if ('error' in r) s().setForkPreview(askKey, null, r.error);
        else s().setForkPreview(askKey, r.data);
      }
    })().finally(() => (running = null));
    return running;
  }

  async function fork(request: ForkRequestDto): Promise<ForkResultDto | null> {
    const state = s();
    const sessionId = state.openSessionId;
    if (!sessionId || state.forking) return null;
    const profile = state.profileOverride;
    state.setForking(true);
    const r = check(await api['session.fork']({ sessionId, request, ...(profile ? { profile } : {}) }));
    if ('error' in r) {
      s().setForking(false, r.error);
      return null;
    }
    s().setForking(false);
    const detail = state.detail;
    const before = request.kind === 'fork' && request.position === 'before' && detail?.entryId === request.entryId;
    s().setForkOutcome({
      sourceSessionId: sessionId,
      request,
      result: r.data,
      ...(state.graph ? { cwd: state.graph.cwd } : {}),
      ...(before ? { editorText: editorTextOf(detail.raw) } : {}),
    });
    // The answer carries the new row: it joins the list without listing again.
    const row = r.data.row;
    const list = s().sessionList;
    if (row && list)
      s().applySessionsChange({
        added: [row],
        changed: [],
        removed: [],
        projects: list.projects,
        skipped: list.skipped,
      });
    await actions.openSession(r.data.sessionId);
    return r.data;
  }

  async function findHandback(sessionId: string): Promise<PiHandbackDto['pi']> {
    const r = check(await api['pi.handback']({ sessionId, send: false }));
    return 'error' in r ? null : r.data.pi;
  }

  async function handBack(sessionId: string): Promise<string> {
    const r = check(await api['pi.handback']({ sessionId, send: true }));
    if ('error' in r) return r.error.message;
    if (r.data.status === 'asked') return 'pi asks you there: confirm in pi to switch.';
    return r.data.pi ? `pi did not take it: ${r.data.status ?? 'no answer'}` : 'no pi runs with this session now';
  }

  return { previewFork, fork, findHandback, handBack };
}
