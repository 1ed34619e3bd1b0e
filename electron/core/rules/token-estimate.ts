/**
 * pi's chars/4 token heuristic, per profile. PURE.
 *
 * CA: pi-coding-agent 1.6.0 core/compaction/compaction.js estimateTokens (knows `system`).
 * H3: pi-agent-core 0.82.1 harness/compaction/compaction.js estimateTokens (no `system` case → 0).
 * An image block counts as 4800 chars (1200 tokens) in user/custom/toolResult content; assistant
 * images count nothing. Where pi would throw on a malformed payload, the part counts 0.
 */
import type { Profile } from '../types';

type Rec = Record<string, unknown>;

const ESTIMATED_IMAGE_CHARS = 4800;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null;
const len = (v: unknown): number => (typeof v === 'string' ? v.length : 0);

function textAndImageChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (!isRec(block)) continue;
    if (block.type === 'text' && block.text) chars += len(block.text);
    else if (block.type === 'image') chars += ESTIMATED_IMAGE_CHARS;
  }
  return chars;
}

function jsonLength(value: unknown, profile: Profile): number {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = '[unserializable]';
  }
  // H3's safeJsonStringify writes "undefined" where CA's JSON.stringify(...).length would throw.
  return text === undefined ? (profile === 'h3' ? 'undefined'.length : 0) : text.length;
}

function assistantChars(content: unknown, profile: Profile): number {
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (!isRec(block)) continue;
    if (block.type === 'text') chars += len(block.text);
    else if (block.type === 'thinking') chars += len(block.thinking);
    else if (block.type === 'toolCall') chars += len(block.name) + jsonLength(block.arguments, profile);
  }
  return chars;
}

function systemChars(m: Rec): number {
  let chars = textAndImageChars(m.content);
  if (isRec(m.sections)) {
    for (const section of Object.values(m.sections)) if (section) chars += len(section);
  }
  if (m.toolsAdded) chars += jsonLength(m.toolsAdded, 'ca');
  return chars;
}

/** Estimated tokens of one projected (pre-convertToLlm) message, as the profile's pi computes it. */
export function estimateTokens(message: unknown, profile: Profile): number {
  if (!isRec(message)) return 0;
  let chars: number;
  switch (message.role) {
    case 'system':
      if (profile === 'h3') return 0;
      chars = systemChars(message);
      break;
    case 'user':
    case 'custom':
    case 'toolResult':
      chars = textAndImageChars(message.content);
      break;
    case 'assistant':
      chars = assistantChars(message.content, profile);
      break;
    case 'bashExecution':
      chars = len(message.command) + len(message.output);
      break;
    case 'branchSummary':
    case 'compactionSummary':
      chars = len(message.summary);
      break;
    default:
      return 0;
  }
  return Math.ceil(chars / 4);
}

/** pi's calculateContextTokens: totalTokens, else the sum of the parts. */
export function contextTokensOf(usage: Rec): number {
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  return n(usage.totalTokens) || n(usage.input) + n(usage.output) + n(usage.cacheRead) + n(usage.cacheWrite);
}

/** pi's getAssistantUsage: the usage of an assistant message that did not abort/error and is non-zero. */
export function validAssistantUsage(message: unknown): Rec | undefined {
  if (!isRec(message) || message.role !== 'assistant' || !('usage' in message)) return undefined;
  if (message.stopReason === 'aborted' || message.stopReason === 'error') return undefined;
  const usage = message.usage;
  if (!isRec(usage) || !(contextTokensOf(usage) > 0)) return undefined;
  return usage;
}
