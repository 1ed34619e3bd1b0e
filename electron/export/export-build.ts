/**
 * Builds an export of a read session: which entries (the path to a leaf, or all of them), redacted
 * or not, rendered as HTML, Markdown or a new pi session file (JSONL: pi's own clone plan, so pi
 * resumes it and its header's parentSession names the source). Nothing is written here.
 */
import { basename } from 'node:path';
import { forkFileLines, readPath, sessionName, type ParsedSession } from '../core';
import { firstLine, type ExportMeta } from './rules/export-meta';
import { renderHtml } from './rules/html';
import { renderMarkdown } from './rules/markdown';
import { CanopyError } from '../shared/errors';
import { planForkOf, type ForkOptions } from '../repo/fork';
import type { ExportPreviewDto, RedactionsDto } from '../shared/share-dto';

export type ExportFormat = 'html' | 'md' | 'jsonl';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['html', 'md', 'jsonl'];
export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = { html: 'html', md: 'md', jsonl: 'jsonl' };

export interface ExportRequest {
  format: ExportFormat;
  /** The leaf of the exported path; undefined: the session's current leaf. */
  leafId?: string;
  /** Every entry of the session instead of one path. */
  all?: boolean;
  redact: boolean;
  /** The user's own literals and regexes, redacted too (when `redact`). */
  user?: RedactionsDto;
}

type Rec = Record<string, unknown>;
/** One value replaced, as the preview lists it (masked: the value itself is never shown). */
export type Replacement = ExportPreviewDto['replacements'][number];
/** A copy of one entry with its secrets replaced by markers, and what was replaced. */
export type RedactEntry = (raw: Rec, entryId: string) => { raw: Rec; replacements: Replacement[] };

/**
 * What an export asks of the secret radar (secrets/redactor.ts), handed in by whoever composes the
 * two wings (app-services, the CLI): wings never import each other.
 */
export interface Redactor {
  /** The radar's rules plus the user's own values; throws an Error naming a user regex that does not compile. */
  redactWith(user?: RedactionsDto): RedactEntry;
  /** One redaction for a whole export (secrets/rules/redact-deep.ts): every string passes through it. */
  deepWith(user?: RedactionsDto): DeepRedaction;
}

/** Redacts whole JSON values, ids (to a stable hash, so links still join) and single strings; keeps what it replaced. */
export interface DeepRedaction {
  readonly replacements: readonly Omit<Replacement, 'entryId'>[];
  value(value: unknown): unknown;
  id(text: string): string;
  string(text: string, key?: string | null): string;
}

export interface BuiltExport {
  meta: ExportMeta;
  /** The file's text, in pieces. */
  pieces: string[];
  replacements: Replacement[];
  /** A file name for it: `<session id>[-<leaf>][.redacted].<ext>`. */
  suggestedName: string;
}

function titleOf(parsed: ParsedSession, raws: Rec[]): string {
  const name = sessionName(parsed);
  if (name) return name;
  for (const r of raws) {
    const m = r.message as { role?: unknown; content?: unknown } | undefined;
    if (r.type !== 'message' || m?.role !== 'user') continue;
    const c = m.content;
    const text =
      typeof c === 'string' ? c : Array.isArray(c) ? c.map((b) => (b as { text?: unknown }).text ?? '').join(' ') : '';
    if (typeof text === 'string' && text.trim()) return firstLine(text, 80);
  }
  return parsed.header?.id ?? 'session';
}

export function buildExport(
  parsed: ParsedSession,
  sourcePath: string,
  req: ExportRequest,
  opts: Omit<ForkOptions, 'profile'> & { redactor?: Redactor } = {},
): BuiltExport {
  if (parsed.fatal || !parsed.header)
    throw new CanopyError('invalid_session', parsed.fatal?.message ?? 'not a pi session');
  const all = req.all === true;
  if (req.leafId !== undefined && !parsed.entriesOf('ca').byId.has(req.leafId))
    throw new CanopyError('not_found', `no entry ${JSON.stringify(req.leafId)} in ${sourcePath}`);
  if (req.redact && !opts.redactor) throw new CanopyError('internal', 'a redacted export needs the secret radar');
  const replacements: Replacement[] = [];
  // One redactor for the whole export: every string of the output passes through it.
  const redactor = req.redact ? opts.redactor!.deepWith(req.user) : null;
  const taken = (entryId: string, from: number): void => {
    for (const r of redactor!.replacements.slice(from)) replacements.push({ entryId, ...r });
  };
  const redact = (raw: Rec): Rec => {
    if (!redactor) return raw;
    const from = redactor.replacements.length;
    const out = redactor.value(raw) as Rec;
    taken(typeof out.id === 'string' ? out.id : '', from);
    return out;
  };
  const redactOther = <T>(f: (r: DeepRedaction) => T, plain: T): T => {
    if (!redactor) return plain;
    const from = redactor.replacements.length;
    const out = f(redactor);
    taken('', from);
    return out;
  };
  let leafId: string | null;
  let raws: Rec[];
  let jsonl: string[] | null = null;
  const now = (opts.now ?? (() => new Date()))().toISOString();
  if (req.format === 'jsonl') {
    const { plan } = planForkOf(
      parsed,
      sourcePath,
      { kind: 'clone', ...(req.leafId !== undefined ? { leafId: req.leafId } : {}) },
      opts,
    );
    if (!plan.ok) throw new CanopyError('invalid_session', `pi would refuse this branch: ${plan.error.message}`);
    leafId = all ? null : plan.leafId;
    raws = (all ? parsed.entries.map((e) => e.raw) : plan.entries).map(redact);
    // The header too (cwd, parentSession's path): its fields are the user's as much as any entry's.
    const header = redactOther((r) => r.value(plan.header) as typeof plan.header, plan.header);
    jsonl = [...forkFileLines({ ...plan, header, entries: raws })];
  } else {
    const reading = readPath(parsed, req.leafId !== undefined ? { leafId: req.leafId } : {});
    leafId = all ? null : reading.leafId;
    const byId = parsed.entriesOf(reading.profile).byId;
    const source = all ? parsed.entries : reading.pathIds().map((id) => byId.get(id)!);
    raws = source.map((e) => redact(e.raw));
  }
  const sessionId = redactOther((r) => r.id(parsed.header!.id), parsed.header.id);
  const title = titleOf(parsed, raws);
  const meta: ExportMeta = {
    title: redactOther((r) => r.string(title, 'name'), title),
    sessionId,
    sourceName: redactOther((r) => r.string(basename(sourcePath)), basename(sourcePath)),
    leafId: leafId === null ? null : redactOther((r) => r.id(leafId), leafId),
    scope: all ? 'all' : 'branch',
    generatedAt: now,
    redacted: req.redact,
    replacements: replacements.length,
  };
  const pieces = jsonl ?? [...(req.format === 'html' ? renderHtml(meta, raws) : renderMarkdown(meta, raws))];
  const tag = all ? '-all' : meta.leafId ? `-${meta.leafId}` : '';
  const name = `${sessionId}${tag}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  const suggestedName = `${name}${req.redact ? '.redacted' : ''}.${EXPORT_EXTENSIONS[req.format]}`;
  return { meta, pieces, replacements, suggestedName };
}
