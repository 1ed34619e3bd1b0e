/**
 * The export wing's facade (docs/architecture.md): a session as HTML or Markdown, redacted, with
 * the ledger of what was written where.
 */
export { AppExport } from './app-export';
export { EXPORT_FORMATS, type ExportFormat, type ExportRequest } from './export-build';
export { prepareExport, recordExport, writeExport } from './export-service';
export { ledgerPath, readLedger } from './ledger';
export { loadRedactions, redactionsPath } from './redaction-settings';
