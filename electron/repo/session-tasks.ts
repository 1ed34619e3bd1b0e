/**
 * The session.open calls running, per session: each has an AbortController (session.cancelOpen
 * aborts it) and reports its progress as `session.progress` events, once it has run for 200 ms
 * and then at most every 100 ms per phase (a 1 GB file is a thousand 1 MiB reads).
 */
import type { Events } from '../shared/contract';
import { CanopyError } from '../shared/errors';
import { delayedProgress } from './progress';

type Progress = Events['session.progress'];

export interface OpenTask {
  signal: AbortSignal;
  /** The progress callback of one phase (undefined when nobody listens). */
  progress(phase: Progress['phase']): ((done: number, total: number) => void) | undefined;
}

export const PROGRESS_DELAY_MS = 200;
export const PROGRESS_GAP_MS = 100;

/** A graph open, or the flags pass over every body that follows it (session.flags). */
export type TaskKind = 'open' | 'flags';

export class OpenTasks {
  private readonly running = new Map<string, Set<{ controller: AbortController; kind: TaskKind }>>();

  constructor(
    private readonly emit?: (payload: Progress) => void,
    private readonly delayMs = PROGRESS_DELAY_MS,
  ) {}

  /** Runs one open of `sessionId`; an abort through cancel() becomes CanopyError `cancelled`. */
  async run<T>(sessionId: string, fn: (task: OpenTask) => Promise<T>, kind: TaskKind = 'open'): Promise<T> {
    const controller = new AbortController();
    let set = this.running.get(sessionId);
    if (!set) this.running.set(sessionId, (set = new Set()));
    const entry = { controller, kind };
    set.add(entry);
    const { emit } = this;
    const start = performance.now();
    const task: OpenTask = {
      signal: controller.signal,
      // The delay counts from the start of the open, not of the phase: a later phase reports at once.
      progress: (phase) =>
        emit &&
        delayedProgress(
          (done, total) => emit({ sessionId, phase, done, total }),
          this.delayMs - (performance.now() - start),
          PROGRESS_GAP_MS,
        ),
    };
    try {
      return await fn(task);
    } catch (err) {
      if (controller.signal.aborted) throw new CanopyError('cancelled', 'opening the session was cancelled');
      throw err;
    } finally {
      set.delete(entry);
      if (set.size === 0) this.running.delete(sessionId);
    }
  }

  /** Aborts every running open of `sessionId`; false when none was running. */
  cancel(sessionId: string): boolean {
    const set = this.running.get(sessionId);
    if (!set) return false;
    for (const t of set) t.controller.abort();
    return true;
  }

  /** Aborts the running tasks of `kind` of every session but `sessionId` (the user switched to it). */
  cancelOthers(sessionId: string, kind: TaskKind): void {
    for (const [id, set] of this.running) {
      if (id === sessionId) continue;
      for (const t of set) if (t.kind === kind) t.controller.abort();
    }
  }
}
