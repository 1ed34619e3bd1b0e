/**
 * Writes an export: built from the session read through a store, written as a brand-new file
 * (temp + fsync + no-clobber link: an existing file is never replaced) or handed back for standard
 * output or a download, and recorded in the share ledger.
 */
import { basename, dirname, resolve } from 'node:path';
import { CanopyError } from '../shared/errors';
import { CreateFileError, createNewFile } from '../storage/create';
import { SessionStore } from '../repo/session-store';
import { buildExport, type BuiltExport, type ExportRequest, type Redactor } from './export-build';
import { recordShare } from './ledger';

export interface ExportOptions {
  store?: SessionStore;
  /** The share ledger's file; no record when absent. */
  ledger?: string;
  now?: () => Date;
  /** The secret radar's redaction (secrets/index.ts `redactor`): needed by a redacted export. */
  redactor?: Redactor;
}

/** Builds the export of `sourcePath` (nothing written). */
export async function prepareExport(
  sourcePath: string,
  req: ExportRequest,
  opts: ExportOptions = {},
): Promise<BuiltExport> {
  const source = resolve(sourcePath);
  return (opts.store ?? new SessionStore()).with(source, (parsed) =>
    buildExport(parsed, source, req, {
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.redactor ? { redactor: opts.redactor } : {}),
    }),
  );
}

/** Records a built export as written to `writtenTo` (a path, `-` or `download`). */
export async function recordExport(
  built: BuiltExport,
  sourcePath: string,
  req: ExportRequest,
  writtenTo: string,
  opts: ExportOptions,
): Promise<void> {
  if (!opts.ledger) return;
  await recordShare(opts.ledger, {
    time: (opts.now ?? (() => new Date()))().toISOString(),
    source: resolve(sourcePath),
    sessionId: built.meta.sessionId,
    leafId: built.meta.leafId,
    scope: built.meta.scope,
    format: req.format,
    redacted: req.redact,
    replacements: built.replacements.length,
    writtenTo,
  });
}

/** Writes a built export to `outPath`, which must not exist; returns the path written. */
export async function writeExport(built: BuiltExport, outPath: string): Promise<string> {
  const out = resolve(outPath);
  try {
    return await createNewFile(dirname(out), basename(out), built.pieces);
  } catch (err) {
    if (err instanceof CreateFileError)
      throw new CanopyError(err.code === 'exists' ? 'already_exists' : 'io', err.message);
    throw err;
  }
}
