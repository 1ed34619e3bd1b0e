/**
 * What a graph node needs to draw one entry: a one-line preview and a few flags. PURE. Reads the
 * entry body once; the result is small (bounded preview), so a 400k-entry graph stays compact.
 */
import type { EntryPreview } from '../../shared/dto';
import type { Entry, SkimKeys } from '../types';

export type { CheckpointKind, EntryPreview } from '../../shared/dto';

export const PREVIEW_CHARS = 160;

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** JavaScript's `\s` (and what String.prototype.trim removes). */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** `text.trim() !== ''` without copying the text (a reply can be megabytes long). */
export function hasNonSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) return true;
  return false;
}

/**
 * Collapse whitespace and cut to a bounded length: `text.slice(0, 4 * max)` with every run of
 * whitespace made one space and trimmed, cut to `max - 1` characters and "…" when longer than
 * `max`. One pass that stops as soon as the answer is known (20k previews: no regex, no copies);
 * text whose first `max + 1` characters are words between single spaces is one slice.
 */
export function oneLine(text: string, max = PREVIEW_CHARS): string {
  // Most previews start with words separated by single spaces: then the answer is a plain slice.
  const head = Math.min(text.length, max + 1);
  let plain = head > 0;
  for (let i = 0; i < head && plain; i++) {
    const c = text.charCodeAt(i);
    // A space is plain between two other characters; any other whitespace is not.
    if (isSpace(c)) plain = c === 32 && i > 0 && i < head - 1 && text.charCodeAt(i - 1) !== 32;
  }
  if (plain) return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  const end = Math.min(text.length, max * 4);
  let out = '';
  let length = 0;
  let space = false;
  let runStart = -1;
  for (let i = 0; i < end; i++) {
    if (isSpace(text.charCodeAt(i))) {
      if (runStart >= 0) {
        out += text.slice(runStart, i);
        runStart = -1;
      }
      space = length > 0;
      continue;
    }
    if (space) {
      out += ' ';
      length++;
      space = false;
    }
    if (runStart < 0) runStart = i;
    length++;
    if (length > max) {
      out += text.slice(runStart, i + 1);
      return `${out.slice(0, max - 1)}…`;
    }
  }
  if (runStart >= 0) out += text.slice(runStart, end);
  return out;
}

/** How much of a content's text a preview can show (oneLine reads at most 4 × PREVIEW_CHARS). */
const TEXT_LIMIT = PREVIEW_CHARS * 4;

/**
 * Strings previewEntry reads in part or not at all, by key: `prefix` values are read up to
 * TEXT_LIMIT units (through oneLine or contentText) and tested for being blank, `drop` values are
 * never read. A reader may cut them (json-skim.ts) and get the same preview: keep these lists true
 * when previewEntry changes (test/core/json-skim.test.ts checks them on long values).
 */
export const PREVIEW_SKIM_KEYS: SkimKeys = {
  prefix: ['text', 'content', 'summary', 'errorMessage', 'command'],
  keep: TEXT_LIMIT + 1,
  drop: [
    'thinking',
    'thinkingSignature',
    'textSignature',
    'data',
    'output',
    'oldText',
    'newText',
    'diff',
    'partialJson',
  ],
};

/**
 * Text of a message content (string or blocks), text blocks only, joined by spaces; with `limit`,
 * only the first `limit` characters are certain (a 1 MB tool output is not copied for a preview).
 */
export function contentText(content: unknown, limit = Infinity): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  let length = -1;
  for (const block of content) {
    if (length >= limit) break;
    if (isObj(block) && block.type === 'text' && typeof block.text === 'string') {
      const room = limit - length - 1;
      parts.push(block.text.length > room ? block.text.slice(0, room) : block.text);
      length += 1 + block.text.length;
    }
  }
  return parts.join(' ');
}

function countImages(content: unknown): number {
  return Array.isArray(content) ? content.filter((b) => isObj(b) && b.type === 'image').length : 0;
}

function messagePreview(msg: Obj, out: EntryPreview): void {
  const role = str(msg.role) ?? 'unknown';
  out.role = role;
  switch (role) {
    case 'assistant': {
      // One pass over the blocks: the tool calls' names, and whether a text block is not blank.
      const tools: string[] = [];
      let blockText = false;
      if (Array.isArray(msg.content)) {
        for (const b of msg.content as unknown[]) {
          if (!isObj(b)) continue;
          if (b.type === 'toolCall') tools.push(str(b.name) ?? '?');
          else if (!blockText && b.type === 'text' && typeof b.text === 'string') blockText = hasNonSpace(b.text);
        }
      }
      if (tools.length) out.toolNames = tools;
      out.stopReason = str(msg.stopReason);
      out.isError = msg.stopReason === 'error' || msg.stopReason === 'aborted';
      const provider = str(msg.provider);
      const model = str(msg.model);
      if (model) out.model = provider ? `${provider}/${model}` : model;
      const text = contentText(msg.content, TEXT_LIMIT);
      out.hasText = typeof msg.content === 'string' ? hasNonSpace(msg.content) : blockText;
      out.preview = oneLine(
        text ||
          (tools.length
            ? `→ ${tools.join(', ')}`
            : (str(msg.errorMessage) ?? (msg.stopReason === 'aborted' ? '(aborted)' : '(no content)'))),
      );
      return;
    }
    case 'toolResult': {
      out.toolNames = [str(msg.toolName) ?? '?'];
      out.isError = msg.isError === true;
      out.preview = oneLine(`[${str(msg.toolName) ?? 'tool'}] ${contentText(msg.content, TEXT_LIMIT)}`);
      return;
    }
    case 'bashExecution':
      out.isError = typeof msg.exitCode === 'number' && msg.exitCode !== 0;
      out.preview = oneLine(`${msg.excludeFromContext === true ? '!!' : '!'} ${str(msg.command) ?? ''}`);
      return;
    case 'custom':
    case 'hookMessage':
      out.customType = str(msg.customType);
      out.preview = oneLine(`[${str(msg.customType) ?? 'custom'}] ${contentText(msg.content, TEXT_LIMIT)}`);
      return;
    case 'system':
      out.preview = oneLine(`system: ${contentText(msg.content, TEXT_LIMIT) || '(prompt update)'}`);
      return;
    default: {
      const images = countImages(msg.content);
      const text = contentText(msg.content, TEXT_LIMIT);
      out.preview = oneLine(text || (images ? `(${images} image${images > 1 ? 's' : ''})` : '(empty)'));
    }
  }
}

export function previewEntry(entry: Entry): EntryPreview {
  const raw = entry.raw;
  const out: EntryPreview = { preview: '' };
  switch (entry.type) {
    case 'message':
      if (isObj(raw.message)) messagePreview(raw.message, out);
      else out.preview = '(malformed message)';
      break;
    case 'compaction': {
      const retained = 'retainedTail' in raw && Boolean(raw.retainedTail);
      const firstKept = str(raw.firstKeptEntryId);
      out.checkpoint = retained ? 'retained-tail' : firstKept ? 'first-kept' : 'none';
      if (firstKept) out.firstKeptEntryId = firstKept;
      if (typeof raw.tokensBefore === 'number') out.tokensBefore = raw.tokensBefore;
      out.preview = oneLine(str(raw.summary) ?? '');
      break;
    }
    case 'branch_summary':
      out.preview = oneLine(str(raw.summary) ?? '');
      break;
    case 'model_change':
      out.model = `${str(raw.provider) ?? '?'}/${str(raw.modelId) ?? '?'}`;
      out.preview = out.model;
      break;
    case 'thinking_level_change':
      out.preview = `thinking: ${str(raw.thinkingLevel) ?? '?'}`;
      break;
    case 'active_tools_change':
      out.preview = `tools: ${Array.isArray(raw.activeToolNames) ? raw.activeToolNames.join(', ') : '?'}`;
      break;
    case 'label':
      out.targetId = str(raw.targetId) ?? null;
      out.preview = str(raw.label) ? `label "${oneLine(str(raw.label) ?? '', 60)}"` : 'label cleared';
      break;
    case 'session_info':
      out.preview = `name: ${oneLine(str(raw.name) ?? '', 80)}`;
      break;
    case 'leaf':
      out.targetId = typeof raw.targetId === 'string' ? raw.targetId : null;
      out.preview = `→ ${out.targetId ?? '(before first entry)'}`;
      break;
    case 'custom':
      out.customType = str(raw.customType);
      out.preview = `[${out.customType ?? 'custom'}]`;
      break;
    case 'custom_message':
      out.customType = str(raw.customType);
      out.preview = oneLine(`[${out.customType ?? 'custom'}] ${contentText(raw.content, TEXT_LIMIT)}`);
      break;
    case 'context_edit':
      out.targetId = str(raw.targetId) ?? null;
      out.preview = `${raw.replacement === null ? 'omit' : 'replace'} ${out.targetId ?? '?'}`;
      break;
    case 'usage':
      out.preview = `usage: ${str(raw.kind) ?? '?'}`;
      break;
    default:
      out.preview = `(${entry.type || 'untyped'})`;
  }
  return out;
}
