/**
 * Test hooks at each step of an archive or restore. `CANOPY_ARCHIVE_DIE_AT=step` (or `step#n`, the
 * n-th time) kills this process with SIGKILL there, so tests can check that `--resume` finishes any
 * cut; an in-process test may instead run a function there (an appender racing the move).
 */
const seen = new Map<string, number>();
let hook: ((step: string) => void) | null = null;

/** Tests: runs `fn` at every step (null: none). */
export function setStepHook(fn: ((step: string) => void) | null): void {
  hook = fn;
}

export function crashPoint(step: string): void {
  hook?.(step);
  const want = process.env.CANOPY_ARCHIVE_DIE_AT;
  if (!want) return;
  const [name, nth] = want.split('#');
  if (name !== step) return;
  const n = (seen.get(step) ?? 0) + 1;
  seen.set(step, n);
  if (n >= Number(nth ?? '1')) process.kill(process.pid, 'SIGKILL');
}
