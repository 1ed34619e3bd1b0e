/** The user's own redactions (literal strings and regexes), kept in Canopy's data folder. */
import { join } from 'node:path';
import type { RedactionsDto as UserRedactions } from '../shared/share-dto';
import type { Redactor } from './export-build';
import { canopyDataDir } from '../storage/data-dir';
import { readJsonFile, replaceJsonFile } from '../storage/json-file';

export const REDACTIONS_FILE = 'redactions.json';
export const NO_REDACTIONS: UserRedactions = { literals: [], regexes: [] };

type Env = Record<string, string | undefined>;

export function redactionsPath(roots: readonly string[], env: Env = process.env): string {
  return join(canopyDataDir(roots, env), REDACTIONS_FILE);
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export async function loadRedactions(path: string): Promise<UserRedactions> {
  const v = (await readJsonFile(path)) as Partial<Record<keyof UserRedactions, unknown>> | undefined;
  if (typeof v !== 'object' || v === null) return NO_REDACTIONS;
  return { literals: strings(v.literals), regexes: strings(v.regexes) };
}

/** Saves the list after checking every regex compiles (throws an Error naming a bad one). */
export async function saveRedactions(path: string, r: UserRedactions, redactor: Redactor): Promise<void> {
  redactor.redactWith(r);
  await replaceJsonFile(path, { literals: r.literals, regexes: r.regexes });
}
