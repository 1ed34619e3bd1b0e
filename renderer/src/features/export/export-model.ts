/** The export dialog's choices as a request, and how its preview is summarised. */
import type { ExportFormatDto, ExportRequestDto } from '../../lib/shared';

export type ExportScope = 'branch' | 'selected' | 'whatif' | 'all';

export const FORMAT_LABELS: Record<ExportFormatDto, string> = {
  html: 'HTML page',
  md: 'Markdown',
  jsonl: 'pi session (JSONL)',
};

export function exportRequest(
  sessionId: string,
  format: ExportFormatDto,
  scope: ExportScope,
  redact: boolean,
  leaves: { selected: string | null; whatIf: string | null },
): ExportRequestDto {
  const base = { sessionId, format, redact };
  if (scope === 'all') return { ...base, all: true };
  const leaf = scope === 'selected' ? leaves.selected : scope === 'whatif' ? leaves.whatIf : null;
  return leaf ? { ...base, leafId: leaf } : base;
}

/** "12 values (github 3, aws 2, …)". */
export function countByRule(rules: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of rules) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`);
  return `${rules.length} value${rules.length === 1 ? '' : 's'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** Lines of a textarea as a list (blank lines dropped). */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
