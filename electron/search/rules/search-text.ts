/**
 * What the cross-session search indexes of one entry line. PURE. Text fields only: image data,
 * signatures and other opaque payloads never reach the index.
 */
import { contentText, isV1Header, lineId } from '../../core';

// A hit in a v1 file names the entry the session view opens: its id derived from its line (core's migrate rule).
export { isV1Header, lineId as v1EntryId };

/** What the trigram index holds of an entry: its text and thinking, every whitespace run one space. */
export function indexedText(f: Pick<SearchFields, 'text' | 'thinking'>): string {
  const body = f.thinking ? `${f.text}\n${f.thinking}` : f.text;
  return body.replace(/\s+/g, ' ');
}

/** The `role:` filter's categories. */
export const SEARCH_ROLES = ['user', 'assistant', 'tool', 'bash', 'summary', 'custom', 'other'] as const;
export type SearchRole = (typeof SEARCH_ROLES)[number];

export interface SearchFields {
  id: string | null;
  parentId: string | null;
  type: string;
  role: SearchRole;
  /** Entry time in ms (NaN when the line has none). */
  time: number;
  /** User/assistant text, tool call names and arguments, tool results, bash, summaries, labels, names. */
  text: string;
  /** Assistant thinking, apart (a match there ranks below one in the text). */
  thinking: string;
  /** Paths named by tool calls (path-like arguments) and found in tool results, one per line. */
  paths: string;
  /** Tool names of the entry's calls or result. */
  tools: string[];
  /** A `session_info` name (null = none here; '' = cleared). */
  sessionName: string | null;
  /** The target of a `leaf` entry (the h3 reader's current position). */
  leafTarget: string | null | undefined;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const PATH_KEYS = new Set(['path', 'file_path', 'filePath', 'file', 'paths', 'files', 'cwd', 'directory', 'dir']);
// A path in free text: at least one slash, no spaces (bounded, so a huge output costs one pass).
// The second form starts only where a run of path characters starts: tried inside a word, it rescans
// the rest of the word at every position (quadratic in the word's length).
const PATH_IN_TEXT = /(?:~|\.{1,2})?(?:\/[\w.@+-]+)+\/?|(?<![\w.@+-])[\w.@+-]+(?:\/[\w.@+-]+)+\/?/g;
const MAX_PATHS_PER_ENTRY = 200;

/** String leaves of a tool call's arguments, in order (numbers and booleans too; keys are not text). */
function argumentText(args: unknown, out: string[], paths: string[] | null, key = ''): void {
  if (typeof args === 'string') {
    out.push(args);
    if (paths && PATH_KEYS.has(key) && paths.length < MAX_PATHS_PER_ENTRY) paths.push(args);
  } else if (typeof args === 'number' || typeof args === 'boolean') out.push(String(args));
  else if (Array.isArray(args)) for (const v of args) argumentText(v, out, paths, key);
  else if (isObj(args)) for (const [k, v] of Object.entries(args)) argumentText(v, out, paths, k);
}

function pathsInText(text: string, paths: string[] | null): void {
  if (!paths || !text.includes('/')) return;
  PATH_IN_TEXT.lastIndex = 0;
  for (let m = PATH_IN_TEXT.exec(text); m !== null && paths.length < MAX_PATHS_PER_ENTRY; m = PATH_IN_TEXT.exec(text)) {
    if (m[0].length > 2) paths.push(m[0]);
  }
}

function messageFields(msg: Obj, f: SearchFields, text: string[], paths: string[] | null): void {
  const role = str(msg.role);
  switch (role) {
    case 'user':
      f.role = 'user';
      text.push(contentText(msg.content));
      return;
    case 'assistant': {
      f.role = 'assistant';
      const thinking: string[] = [];
      if (typeof msg.content === 'string') text.push(msg.content);
      else if (Array.isArray(msg.content)) {
        for (const b of msg.content as unknown[]) {
          if (!isObj(b)) continue;
          if (b.type === 'text' && typeof b.text === 'string') text.push(b.text);
          else if (b.type === 'thinking' && typeof b.thinking === 'string') thinking.push(b.thinking);
          else if (b.type === 'toolCall') {
            const name = str(b.name) ?? '';
            if (name) f.tools.push(name);
            text.push(name);
            argumentText(b.arguments, text, paths);
          }
        }
      }
      if (typeof msg.errorMessage === 'string') text.push(msg.errorMessage);
      f.thinking = thinking.join('\n');
      return;
    }
    case 'toolResult': {
      f.role = 'tool';
      const name = str(msg.toolName) ?? '';
      if (name) f.tools.push(name);
      const result = contentText(msg.content);
      text.push(name, result);
      pathsInText(result, paths);
      return;
    }
    case 'bashExecution': {
      f.role = 'bash';
      const output = str(msg.output) ?? '';
      text.push(str(msg.command) ?? '', output);
      pathsInText(output, paths);
      return;
    }
    case 'branchSummary':
    case 'compactionSummary':
      f.role = 'summary';
      text.push(str(msg.summary) ?? '');
      return;
    case 'custom':
    case 'hookMessage':
      f.role = 'custom';
      text.push(str(msg.customType) ?? '', contentText(msg.content));
      return;
    default:
      text.push(contentText(msg.content));
  }
}

/** Date's range (ECMA-262: ±8.64e15 ms); a number past it cannot be shown as a time. */
const MAX_DATE_MS = 8.64e15;

function timeOfLine(raw: Obj): number {
  const t = raw.timestamp;
  const m = raw.message;
  const ms =
    typeof t === 'string'
      ? Date.parse(t)
      : typeof t === 'number'
        ? t
        : isObj(m) && typeof m.timestamp === 'number'
          ? m.timestamp
          : Number.NaN;
  return Math.abs(ms) <= MAX_DATE_MS ? ms : Number.NaN;
}

/** A hit's time as ISO text; null for none or one out of Date's range (an index may hold one from before). */
export function searchTimeIso(ms: number | null): string | null {
  return ms === null || !(Math.abs(ms) <= MAX_DATE_MS) ? null : new Date(ms).toISOString();
}

/**
 * The searchable fields of one parsed entry line (not the header). `withPaths` false leaves `paths`
 * empty: the indexer never stores them, and finding paths in tool output is a regex pass over it.
 */
export function searchFields(raw: Obj, withPaths = true): SearchFields {
  const type = str(raw.type) ?? '';
  const f: SearchFields = {
    id: str(raw.id) ?? null,
    parentId: str(raw.parentId) ?? null,
    type,
    role: 'other',
    time: timeOfLine(raw),
    text: '',
    thinking: '',
    paths: '',
    tools: [],
    sessionName: null,
    leafTarget: undefined,
  };
  const text: string[] = [];
  const paths: string[] | null = withPaths ? [] : null;
  switch (type) {
    case 'message':
      if (isObj(raw.message)) messageFields(raw.message, f, text, paths);
      break;
    case 'compaction':
    case 'branch_summary':
      f.role = 'summary';
      text.push(str(raw.summary) ?? '');
      break;
    case 'custom_message':
      f.role = 'custom';
      text.push(str(raw.customType) ?? '', contentText(raw.content));
      break;
    case 'custom':
      f.role = 'custom';
      text.push(str(raw.customType) ?? '');
      break;
    case 'label':
      text.push(str(raw.label) ?? '');
      break;
    case 'session_info':
      f.sessionName = str(raw.name)?.trim() ?? '';
      text.push(f.sessionName);
      break;
    case 'leaf':
      f.leafTarget = typeof raw.targetId === 'string' ? raw.targetId : null;
      break;
  }
  f.text = text.filter((t) => t !== '').join('\n');
  f.paths = paths ? paths.join('\n') : '';
  return f;
}
