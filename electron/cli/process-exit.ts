/**
 * How the `canopy` process ends when its surroundings go: a reader that closed the pipe
 * (`canopy context … | head`) ends it quietly, and serve told to stop does not wait for work
 * still under way (an index pass, a long request) to finish.
 */

/** Exit code after the reader of stdout went away: nothing more can be told, nothing failed. */
export const EXIT_PIPE_CLOSED = 0;

interface ErrorEmitter {
  on(event: 'error', listener: (err: Error & { code?: string }) => void): unknown;
}

const guarded = new WeakSet<object>();

/** A write to `stream` after its reader closed ends the process quietly (no EPIPE stack trace). */
export function exitQuietlyOnEpipe(stream: ErrorEmitter, exit: (code: number) => void = (c) => process.exit(c)): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') exit(EXIT_PIPE_CLOSED);
    else throw err;
  });
}

/** After serve stopped: anything still running (it holds nothing the user needs) may not keep the process. */
export function exitSoonIfStillRunning(code: number, ms = 50): void {
  setTimeout(() => process.exit(code), ms).unref();
}
