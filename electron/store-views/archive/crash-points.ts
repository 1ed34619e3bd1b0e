/**
 * Test hook: `CANOPY_ARCHIVE_DIE_AT=step` (or `step#n`, the n-th time) kills this process with
 * SIGKILL when the run reaches that step, so tests can check that `--resume` finishes any cut.
 */
const seen = new Map<string, number>();

export function crashPoint(step: string): void {
  const want = process.env.CANOPY_ARCHIVE_DIE_AT;
  if (!want) return;
  const [name, nth] = want.split('#');
  if (name !== step) return;
  const n = (seen.get(step) ?? 0) + 1;
  seen.set(step, n);
  if (n >= Number(nth ?? '1')) process.kill(process.pid, 'SIGKILL');
}
