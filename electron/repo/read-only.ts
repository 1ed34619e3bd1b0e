/** Why a listed session cannot be forked next to (null: it can). PURE. */
import { sep } from 'node:path';
import type { SessionRowDto } from '../shared/dto';

export function readOnlyReasonOf(
  demo: boolean,
  row: SessionRowDto | undefined,
  readOnlyRoots: readonly string[],
): string | null {
  if (demo) return 'demo sessions are read-only: Canopy does not write next to them';
  if (row?.origin === 'uploaded') {
    return 'an uploaded session is a copy Canopy holds in memory: fork the file where it lives (`canopy fork FILE`, or open it with `canopy FILE`)';
  }
  if (row && readOnlyRoots.some((r) => row.path.startsWith(`${r}${sep}`)))
    return 'a session from the team database is read-only: fork it on the machine that pushed it';
  return null;
}
