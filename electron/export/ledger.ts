/**
 * The share ledger: every export Canopy writes is recorded (when, which session and leaf, which
 * format, redacted or not, where it went) in Canopy's own data folder, never in a root, so a user
 * can find what they shared.
 */
import { join } from 'node:path';
import { canopyDataDir } from '../storage/data-dir';
import { appendJsonLine, readTextLines } from '../storage/json-file';
import type { ExportFormat } from './export-build';

export const LEDGER_FILE = 'share-ledger.jsonl';

export interface LedgerEntry {
  time: string;
  /** The source session file and its id. */
  source: string;
  sessionId: string;
  leafId: string | null;
  scope: 'branch' | 'all';
  format: ExportFormat;
  redacted: boolean;
  replacements: number;
  /** The written file; `-` for standard output, `download` for a browser download. */
  writtenTo: string;
}

type Env = Record<string, string | undefined>;

export function ledgerPath(roots: readonly string[], env: Env = process.env): string {
  return join(canopyDataDir(roots, env), LEDGER_FILE);
}

export async function recordShare(path: string, entry: LedgerEntry): Promise<void> {
  await appendJsonLine(path, entry);
}

/** Every recorded export, newest first; a damaged line is skipped. */
export async function readLedger(path: string): Promise<LedgerEntry[]> {
  const out: LedgerEntry[] = [];
  for (const line of await readTextLines(path)) {
    try {
      const v = JSON.parse(line) as LedgerEntry;
      if (typeof v === 'object' && v !== null && typeof v.time === 'string') out.push(v);
    } catch {
      /* a torn line: the rest still lists */
    }
  }
  return out.reverse();
}
