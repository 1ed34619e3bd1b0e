/**
 * CA 1.6.0 system prompt and tool set at the end of a context: pi-ai's getCurrentSystemMessage
 * (utils/transcript.js) replayed over the context's `system` messages, keeping which entry set
 * each part. PURE.
 *
 * Rules (pi's): every non-empty `content` text is appended to the prompt (joined by a blank line);
 * `sections` replace by name in place, `null` removes one;
 * `toolsRemoved` then `toolsAdded` of each message update the tool set by name.
 */
import { estimateTokens } from './token-estimate';
import type { SourcedText, SystemState } from '../../shared/context-dto';

export type { SourcedText, SourcedTool, SystemSection, SystemState } from '../../shared/context-dto';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null;

/** pi-ai contentText: a string, or the text blocks joined by "\n". */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is Rec => isRec(b) && b.type === 'text')
    .map((b) => (typeof b.text === 'string' ? b.text : String(b.text)))
    .join('\n');
}

function toolName(tool: unknown): string | undefined {
  return isRec(tool) && typeof tool.name === 'string' ? tool.name : undefined;
}

/** Replays the system messages of `messages` (each with its source entry); null when pi finds none. */
export function replaySystem(messages: { message: unknown; entryId: string }[]): SystemState | null {
  const parts: SourcedText[] = [];
  const sections = new Map<string, { text: string; entryId: string }>();
  const tools = new Map<string, { tool: unknown; entryId: string }>();
  const removed = new Map<string, string>();
  const entryIds: string[] = [];
  let timestamp: unknown;
  for (const { message, entryId } of messages) {
    if (!isRec(message) || message.role !== 'system') continue;
    if (entryIds[entryIds.length - 1] !== entryId) entryIds.push(entryId);
    timestamp ??= message.timestamp;
    const text = contentText(message.content);
    if (text.length > 0) parts.push({ text, entryId });
    if (isRec(message.sections)) {
      for (const [name, value] of Object.entries(message.sections)) {
        if (value === null) sections.delete(name);
        else sections.set(name, { text: String(value), entryId });
      }
    }
    for (const tool of Array.isArray(message.toolsRemoved) ? message.toolsRemoved : []) {
      const name = toolName(tool);
      if (name === undefined) continue;
      tools.delete(name);
      removed.set(name, entryId);
    }
    for (const tool of Array.isArray(message.toolsAdded) ? message.toolsAdded : []) {
      const name = toolName(tool);
      if (name === undefined) continue;
      tools.set(name, { tool, entryId });
      removed.delete(name);
    }
  }
  if (timestamp === undefined && tools.size === 0) return null;
  const replayed: Rec = { role: 'system', content: parts.map((p) => p.text).join('\n\n') };
  if (sections.size > 0) replayed.sections = Object.fromEntries([...sections].map(([k, v]) => [k, v.text]));
  if (tools.size > 0) replayed.toolsAdded = [...tools.values()].map((t) => t.tool);
  return {
    prompt: replayed.content as string,
    promptParts: parts,
    sections: [...sections].map(([name, v]) => ({ name, text: v.text, entryId: v.entryId })),
    tools: [...tools].map(([name, v]) => ({ name, entryId: v.entryId })),
    removedTools: [...removed].map(([name, entryId]) => ({ name, entryId })),
    entryIds,
    tokens: estimateTokens(replayed, 'ca'),
  };
}
