/**
 * An entry as an export draws it: a heading and blocks (text, thinking, tool call, tool result,
 * bash run, image, note). HTML and Markdown render the same blocks. PURE.
 */

export type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tool-call'; name: string; args: string; diff: string | null }
  | { kind: 'tool-result'; name: string; text: string; isError: boolean; diff: string | null }
  | { kind: 'bash'; command: string; output: string; exitCode: number | null }
  | { kind: 'image'; mimeType: string; data: string }
  | { kind: 'note'; text: string };

export interface EntryView {
  id: string;
  type: string;
  timestamp: string;
  /** Who or what: `user`, `assistant · claude-x`, `tool result · read`, `compaction`, … */
  heading: string;
  /** `user`, `assistant`, `tool`, `bash`, `summary`, `custom`, `meta`: the style of the entry. */
  tone: string;
  blocks: Block[];
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The edit tool's replacements as a diff: each old line out, each new line in. */
function editDiff(args: Rec): string | null {
  let edits: unknown = args.edits;
  if (typeof edits === 'string') {
    try {
      edits = JSON.parse(edits);
    } catch {
      edits = undefined;
    }
  }
  const list = (Array.isArray(edits) ? edits : isRec(edits) ? [edits] : []).filter(isRec);
  if (typeof args.oldText === 'string') list.push(args);
  const parts = list
    .filter((e) => typeof e.oldText === 'string' && typeof e.newText === 'string')
    .map((e) =>
      [
        ...str(e.oldText)
          .split('\n')
          .map((l) => `-${l}`),
        ...str(e.newText)
          .split('\n')
          .map((l) => `+${l}`),
      ].join('\n'),
    );
  return parts.length > 0 ? parts.join('\n') : null;
}

function contentBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content ? [{ kind: 'text', text: content }] : [];
  if (!Array.isArray(content)) return [];
  const out: Block[] = [];
  for (const c of content) {
    if (!isRec(c)) continue;
    if (c.type === 'text' && str(c.text)) out.push({ kind: 'text', text: str(c.text) });
    else if (c.type === 'thinking' && str(c.thinking)) out.push({ kind: 'thinking', text: str(c.thinking) });
    else if (c.type === 'image') out.push({ kind: 'image', mimeType: str(c.mimeType), data: str(c.data) });
    else if (c.type === 'toolCall') {
      const args = isRec(c.arguments) ? c.arguments : {};
      out.push({
        kind: 'tool-call',
        name: str(c.name),
        args: JSON.stringify(c.arguments ?? null, null, 2),
        diff: str(c.name) === 'edit' ? editDiff(args) : null,
      });
    }
  }
  return out;
}

function textOf(blocks: Block[]): string {
  return blocks
    .filter((b): b is Extract<Block, { kind: 'text' }> => b.kind === 'text')
    .map((b) => b.text)
    .join('\n');
}

function messageView(m: Rec): Pick<EntryView, 'heading' | 'tone' | 'blocks'> {
  const role = str(m.role);
  switch (role) {
    case 'user':
      return { heading: 'user', tone: 'user', blocks: contentBlocks(m.content) };
    case 'assistant': {
      const model = str(m.model);
      return {
        heading: model ? `assistant · ${model}` : 'assistant',
        tone: 'assistant',
        blocks: contentBlocks(m.content),
      };
    }
    case 'toolResult': {
      const blocks = contentBlocks(m.content);
      const diff = isRec(m.details) && typeof m.details.diff === 'string' ? m.details.diff : null;
      const result: Block = {
        kind: 'tool-result',
        name: str(m.toolName),
        text: textOf(blocks),
        isError: m.isError === true,
        diff,
      };
      return {
        heading: `tool result · ${str(m.toolName)}`,
        tone: 'tool',
        blocks: [result, ...blocks.filter((b) => b.kind === 'image')],
      };
    }
    case 'bashExecution':
      return {
        heading: 'bash',
        tone: 'bash',
        blocks: [
          {
            kind: 'bash',
            command: str(m.command),
            output: str(m.output),
            exitCode: typeof m.exitCode === 'number' ? m.exitCode : null,
          },
        ],
      };
    default:
      return { heading: role || 'message', tone: 'custom', blocks: contentBlocks(m.content) };
  }
}

/** The view of one entry object (already redacted when the export redacts). */
export function entryView(raw: Rec): EntryView {
  const base = { id: str(raw.id), type: str(raw.type), timestamp: str(raw.timestamp) };
  const note = (heading: string, text: string, tone = 'meta'): EntryView => ({
    ...base,
    heading,
    tone,
    blocks: text ? [{ kind: 'note', text }] : [],
  });
  switch (raw.type) {
    case 'message':
      return {
        ...base,
        ...(isRec(raw.message) ? messageView(raw.message) : { heading: 'message', tone: 'meta', blocks: [] }),
      };
    case 'compaction':
      return {
        ...base,
        heading: 'compaction summary',
        tone: 'summary',
        blocks: [{ kind: 'text', text: str(raw.summary) }],
      };
    case 'branch_summary':
      return {
        ...base,
        heading: 'branch summary',
        tone: 'summary',
        blocks: [{ kind: 'text', text: str(raw.summary) }],
      };
    case 'custom_message':
      return {
        ...base,
        heading: `custom message · ${str(raw.customType)}`,
        tone: 'custom',
        blocks: contentBlocks(raw.content),
      };
    case 'custom':
      return note(
        `custom · ${str(raw.customType)}`,
        raw.data === undefined ? '' : JSON.stringify(raw.data, null, 2),
        'custom',
      );
    case 'model_change':
      return note('model', `${str(raw.provider)}/${str(raw.modelId)}`);
    case 'thinking_level_change':
      return note('thinking level', str(raw.thinkingLevel));
    case 'label':
      return note('label', str(raw.label));
    case 'session_info':
      return note('session name', str(raw.name));
    default: {
      const { id: _i, parentId: _p, type: _t, timestamp: _ts, ...rest } = raw;
      return note(str(raw.type) || 'entry', Object.keys(rest).length ? JSON.stringify(rest, null, 2) : '');
    }
  }
}
