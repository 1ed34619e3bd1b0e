/**
 * The session worker thread: answers what is heavy to build for one session (its context view,
 * seconds of work on a million-entry path; a big session's graph) from its own copy of the file's
 * index, and writes the answer as all-ASCII JSON bytes, moved to the main thread without a copy
 * (repo/session-offload.ts).
 * The copy follows the file as the main thread's does: unchanged → reused, grown → the new lines.
 */
import { parentPort } from 'node:worker_threads';
import { CanopyError } from '../shared/errors';
import { SessionStore } from './session-store';
import { asciiJsonBytes } from './encoded-json';
import { errorValue } from '../threads/error-value';
import { movableBuffer } from '../threads/movable';
import type { SessionTask } from './session-offload';
import type { OpenTask } from './session-tasks';

const port = parentPort;
if (!port) throw new Error('session-worker runs only as a worker thread');

// One big session at a time is what this thread holds (the main thread keeps the one in view).
const store = new SessionStore({ budgetBytes: 256 * 1024 * 1024 });
/** A lazy graph reads no bodies: nothing to cancel mid-way, no progress to report. */
const NO_TASK: OpenTask = { signal: new AbortController().signal, progress: () => undefined };

async function run(task: SessionTask): Promise<Buffer> {
  const value = await store.with<unknown>(
    task.path,
    (session, open) => {
      if (session.fatal) throw new CanopyError(session.fatal.code, session.fatal.message);
      if (task.kind === 'graph') {
        const opts = {
          lazy: true,
          profile: task.profile,
          ...(task.leafId !== undefined ? { leafId: task.leafId } : {}),
        };
        return open.graph(session, task.row, NO_TASK, opts);
      }
      return open.context(session, task.sessionId, task.profile, task.leafId);
    },
    task.writerIdleMs !== undefined ? { writerIdleMs: task.writerIdleMs } : {},
  );
  return asciiJsonBytes(value);
}

port.on('message', ({ id, task }: { id: number; task: SessionTask }) => {
  run(task).then(
    (bytes) => {
      // Moved, not copied, when the bytes fill memory of their own.
      const buffer = movableBuffer(bytes);
      port.postMessage({ id, ok: true, value: buffer }, [buffer]);
    },
    (err: unknown) => port.postMessage({ id, ok: false, error: errorValue(err) }),
  );
});
