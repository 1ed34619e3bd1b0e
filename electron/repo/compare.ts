/**
 * session.compare: two leaves of listed sessions compared from their common ancestor. The only glue
 * between the open sessions and core's compareBranches (sessions are reached through the session
 * service's `with`, the access the other channels use).
 */
import { compareBranches, readPath, type ParsedSession, type Profile } from '../core';
import type { CompareDto } from '../shared/compare-dto';
import type { CompareLeafArg } from '../shared/contract';
import { CanopyError } from '../shared/errors';
import type { LoadedSession } from './session-service';

export interface CompareSource {
  with<T>(sessionId: string, fn: (loaded: LoadedSession) => T | Promise<T>): Promise<T>;
}

function leafOf(session: ParsedSession, side: CompareLeafArg, profile: Profile | undefined): string {
  if (side.leafId !== undefined) return side.leafId;
  const leaf = readPath(session, profile ? { profile } : {}).leafId;
  if (leaf === null) throw new CanopyError('not_found', `session ${side.sessionId} has no entry to compare`);
  return leaf;
}

export function compareLeaves(
  source: CompareSource,
  args: { a: CompareLeafArg; b: CompareLeafArg; profile?: Profile },
): Promise<CompareDto> {
  const { a, b, profile } = args;
  const run = (sa: ParsedSession, sb: ParsedSession): CompareDto => {
    try {
      return compareBranches(
        { session: sa, leafId: leafOf(sa, a, profile), sessionId: a.sessionId, ...(profile ? { profile } : {}) },
        { session: sb, leafId: leafOf(sb, b, profile), sessionId: b.sessionId, ...(profile ? { profile } : {}) },
      );
    } catch (err) {
      if (err instanceof RangeError) throw new CanopyError('not_found', err.message);
      throw err;
    }
  };
  // Bodies are read inside the callbacks, while the store holds the sessions open.
  if (a.sessionId === b.sessionId) return source.with(a.sessionId, ({ session }) => run(session, session));
  return source.with(a.sessionId, ({ session: sa }) => source.with(b.sessionId, ({ session: sb }) => run(sa, sb)));
}
