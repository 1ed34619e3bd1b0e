/** What an export says about itself (its header). PURE. */
export interface ExportMeta {
  /** Session name, else its first user words, else its id. */
  title: string;
  sessionId: string;
  /** The source file's name (not its path: an export travels). */
  sourceName: string;
  /** The leaf the path runs to (null: the whole session). */
  leafId: string | null;
  scope: 'branch' | 'all';
  generatedAt: string;
  redacted: boolean;
  /** How many values were replaced by `[REDACTED:<rule>]`. */
  replacements: number;
}

export function scopeLine(meta: ExportMeta): string {
  const scope = meta.scope === 'all' ? 'every entry of the session' : `the path to entry ${meta.leafId ?? '(none)'}`;
  const redaction = meta.redacted ? `redacted (${meta.replacements} values replaced)` : 'not redacted';
  return `${scope} · ${redaction} · exported ${meta.generatedAt} by Canopy from ${meta.sourceName}`;
}

/** A one-line preview of a longer text (for a folded block's summary). */
export function firstLine(text: string, max = 100): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
