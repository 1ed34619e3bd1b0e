import type { ExportFormatDto } from '../../lib/shared';

/** Hands the export's text to the browser as a download (`canopy serve`: main sends the content back). */
export function download(name: string, text: string, format: ExportFormatDto): void {
  const type = format === 'html' ? 'text/html' : format === 'md' ? 'text/markdown' : 'application/x-ndjson';
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
