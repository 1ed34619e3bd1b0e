/**
 * Exports for the app: previews (every replacement, masked) and writes of a listed session, by
 * id. Electron writes where the user chooses in main's save dialog (a new file only); `canopy
 * serve` hands the text back for the browser to download. Each write goes in the share ledger.
 */
import { basename } from 'node:path';
import type { SessionService } from '../repo/session-service';
import { CanopyError } from '../shared/errors';
import type {
  ExportPreviewDto,
  ExportRequestDto,
  ExportWriteDto,
  LedgerEntryDto,
  RedactionsDto,
} from '../shared/share-dto';
import { buildExport, type BuiltExport, type ExportRequest, type Redactor } from './export-build';
import { recordExport, writeExport } from './export-service';
import { ledgerPath, readLedger } from './ledger';
import { loadRedactions, redactionsPath, saveRedactions } from './redaction-settings';

export interface AppExportOptions {
  sessions: SessionService;
  roots: readonly string[];
  env?: Record<string, string | undefined>;
  /** The secret radar's redaction (secrets/index.ts `redactor`), given by app-services. */
  redactor: Redactor;
  /** Electron: main's save dialog with a suggested name; the chosen path, or null when cancelled. */
  saveDialog?: (suggestedName: string) => Promise<string | null>;
}

export class AppExport {
  constructor(private readonly options: AppExportOptions) {}

  private dataPaths(): { ledger: string; redactions: string } {
    const env = this.options.env ?? process.env;
    try {
      return { ledger: ledgerPath(this.options.roots, env), redactions: redactionsPath(this.options.roots, env) };
    } catch (err) {
      throw new CanopyError('io', err instanceof Error ? err.message : String(err));
    }
  }

  private async build(dto: ExportRequestDto): Promise<{ built: BuiltExport; req: ExportRequest; path: string }> {
    const req: ExportRequest = {
      format: dto.format,
      redact: dto.redact,
      ...(dto.leafId !== undefined ? { leafId: dto.leafId } : {}),
      ...(dto.all ? { all: true } : {}),
      ...(dto.redact ? { user: await loadRedactions(this.dataPaths().redactions) } : {}),
    };
    return this.options.sessions.with(dto.sessionId, ({ session, path }) => ({
      built: buildExport(session, path, req, { redactor: this.options.redactor }),
      req,
      path,
    }));
  }

  async preview(dto: ExportRequestDto): Promise<ExportPreviewDto> {
    const { built } = await this.build(dto);
    return {
      suggestedName: built.suggestedName,
      leafId: built.meta.leafId,
      bytes: built.pieces.reduce((n, p) => n + Buffer.byteLength(p), 0),
      replacements: built.replacements,
    };
  }

  async write(dto: ExportRequestDto): Promise<ExportWriteDto> {
    const { built, req, path } = await this.build(dto);
    const ledger = { ledger: this.dataPaths().ledger };
    const base = { fileName: built.suggestedName, replacements: built.replacements.length };
    if (!this.options.saveDialog) {
      await recordExport(built, path, req, 'download', ledger);
      return { ...base, writtenTo: null, content: built.pieces.join('') };
    }
    const chosen = await this.options.saveDialog(built.suggestedName);
    if (chosen === null) return { ...base, writtenTo: null, content: null };
    const written = await writeExport(built, chosen);
    await recordExport(built, path, req, written, ledger);
    return { ...base, fileName: basename(written), writtenTo: written, content: null };
  }

  async ledger(): Promise<LedgerEntryDto[]> {
    return (await readLedger(this.dataPaths().ledger)).map(({ source: _source, ...e }) => e);
  }

  redactions(): Promise<RedactionsDto> {
    return loadRedactions(this.dataPaths().redactions);
  }

  async setRedactions(r: RedactionsDto): Promise<RedactionsDto> {
    try {
      await saveRedactions(this.dataPaths().redactions, r, this.options.redactor);
    } catch (err) {
      if (err instanceof CanopyError) throw err;
      throw new CanopyError('invalid_argument', err instanceof Error ? err.message : String(err));
    }
    return r;
  }
}
