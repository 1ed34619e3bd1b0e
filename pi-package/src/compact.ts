/**
 * A past session's context (what `canopy context --json` says reaches the model at a leaf) as
 * compact text within a token budget. PURE. Tokens are counted as pi estimates them: 4 characters
 * each. The newest messages are kept (the end of a path is what the session came to).
 */

export const CHARS_PER_TOKEN = 4;

/** What `canopy context FILE --json` prints for one file (the fields used here). */
export interface CanopyContext {
  file: string;
  leafId: string | null;
  pathIds: string[];
  contextEntryIds: string[];
  context: { messages?: unknown[] } | null;
  sessionName?: string | null;
}

export interface CompactSession {
  id: string;
  cwd: string;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

function blocksText(content: unknown, withCalls: boolean): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const b of content) {
    if (!isRec(b)) continue;
    if (b.type === 'text') parts.push(str(b.text));
    else if (b.type === 'image') parts.push('[image]');
    else if (b.type === 'toolCall' && withCalls)
      parts.push(`→ ${str(b.name)}(${oneLine(JSON.stringify(b.arguments ?? {}))})`);
  }
  return parts.join(' ');
}

/** One message as one line: `[role] text` (tool calls as `→ name(args)`, results as `← name: text`). */
export function messageLine(m: unknown): string {
  if (!isRec(m)) return `[?] ${oneLine(String(m))}`;
  const role = str(m.role) || '?';
  switch (role) {
    case 'user':
    case 'assistant':
      return `[${role}] ${oneLine(blocksText(m.content, true))}`;
    case 'toolResult':
      return `[tool] ← ${str(m.toolName)}${m.isError ? ' (error)' : ''}: ${oneLine(blocksText(m.content, false))}`;
    case 'bashExecution':
      return `[bash] $ ${oneLine(str(m.command))} → exit ${String(m.exitCode ?? '?')}: ${oneLine(str(m.output))}`;
    case 'branchSummary':
    case 'compactionSummary':
      return `[summary] ${oneLine(str(m.summary))}`;
    case 'custom':
      return `[${str(m.customType) || 'custom'}] ${oneLine(blocksText(m.content, false))}`;
    default:
      return `[${role}] ${oneLine(blocksText(m.content, false))}`;
  }
}

export interface Compacted {
  text: string;
  /** Messages that reach the model at the leaf, and how many of the newest are shown. */
  messages: number;
  shown: number;
  /** Estimated tokens of `text` (≤ the budget). */
  tokens: number;
}

/** The context as text of at most `budget` tokens: a header, then the newest messages that fit, oldest first. */
export function compactContext(ctx: CanopyContext, session: CompactSession, budget: number): Compacted {
  const maxChars = budget * CHARS_PER_TOKEN;
  const messages = ctx.context?.messages ?? [];
  // One message never takes more than an eighth of the budget: a huge tool output leaves room for the rest.
  const perMessage = Math.max(80, Math.floor(maxChars / 8));
  const lines = messages.map((m) => clip(messageLine(m), perMessage));
  const name = ctx.sessionName ? ` "${oneLine(ctx.sessionName)}"` : '';
  const head = (shown: number) =>
    [
      `session ${session.id}${name} in ${session.cwd}`,
      `leaf ${ctx.leafId ?? '(none)'}; path ${ctx.pathIds.length} entries; ${messages.length} messages reach the model; ` +
        (shown === messages.length
          ? 'all shown'
          : `the newest ${shown} shown (older ones left out for the ${budget}-token budget)`),
    ].join('\n');
  let shown = 0;
  let used = head(0).length + 8; // room for the count's digits
  for (let i = lines.length - 1; i >= 0; i--) {
    const cost = lines[i]!.length + 1;
    if (used + cost > maxChars) break;
    used += cost;
    shown++;
  }
  let text = [head(shown), ...lines.slice(lines.length - shown)].join('\n');
  // The header alone may be over a tiny budget: cut it too, the budget is a promise.
  if (text.length > maxChars) text = clip(text, maxChars);
  return { text, messages: messages.length, shown, tokens: Math.ceil(text.length / CHARS_PER_TOKEN) };
}
