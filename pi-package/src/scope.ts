/**
 * Which sessions a tool may read: by default only those started in pi's current working
 * directory; another project only when the model names it (`scope: "all"` or a folder). PURE.
 */
import { dirname, isAbsolute, resolve } from 'node:path';

export type Scope = { kind: 'all' } | { kind: 'cwd'; cwd: string };

export const SCOPE_HELP =
  'Whose sessions: "project" (default: sessions started in the current working directory), "all" (every project), or an absolute folder (sessions started there).';

export function parseScope(value: string | undefined, cwd: string): Scope {
  const v = (value ?? '').trim();
  if (v === '' || v === 'project') return { kind: 'cwd', cwd: resolve(cwd) };
  if (v === 'all') return { kind: 'all' };
  if (!isAbsolute(v)) throw new Error(`scope must be "project", "all" or an absolute folder, not ${JSON.stringify(v)}`);
  return { kind: 'cwd', cwd: resolve(v) };
}

export function inScope(scope: Scope, sessionCwd: string): boolean {
  return scope.kind === 'all' || resolve(sessionCwd) === scope.cwd;
}

export function describeScope(scope: Scope): string {
  return scope.kind === 'all' ? 'every project' : `sessions started in ${scope.cwd}`;
}

/** `canopy` arguments: pi's sessions root for this session (it may be set apart from the default). */
export function rootArgs(sessionDir: string | undefined): string[] {
  return sessionDir ? ['--root', dirname(sessionDir)] : [];
}
