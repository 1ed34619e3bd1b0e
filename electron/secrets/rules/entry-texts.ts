/**
 * The strings of an entry a secret can hide in: every string value of its JSON (message text,
 * thinking, tool call arguments, tool results, bash commands and output, summaries, custom data),
 * except the envelope, image data and opaque provider signatures. PURE.
 */

export interface EntryText {
  /** JSON pointer (RFC 6901) of the string in the entry object. */
  pointer: string;
  text: string;
  /** The object key the string is the value of; null for an array item. */
  key: string | null;
}

/** Top-level fields that are ids and times, never user data. */
const ENVELOPE = new Set(['type', 'id', 'parentId', 'timestamp', 'targetId', 'firstKeptEntryId', 'fromId']);
/** Opaque blobs providers sign thinking and tool calls with: high entropy by design, not secrets. */
const OPAQUE = new Set(['thinkingSignature', 'thoughtSignature', 'textSignature', 'signature', 'encrypted_content']);

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An image block or attachment: its `data` is base64 pixels, never scanned. */
function isImage(o: Rec): boolean {
  return o.type === 'image' || (typeof o.mimeType === 'string' && o.mimeType.startsWith('image/'));
}

/** Every scannable string of `raw`, in document order (an explicit stack: entries nest deep). */
export function entryTexts(raw: Rec): EntryText[] {
  const out: EntryText[] = [];
  const stack: Array<[unknown, string, string | null, number]> = [];
  const keys = Object.keys(raw);
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i]!;
    if (!ENVELOPE.has(k)) stack.push([raw[k], `/${escapePointer(k)}`, k, 1]);
  }
  while (stack.length > 0) {
    const [value, pointer, key, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.length > 0) out.push({ pointer, text: value, key });
      continue;
    }
    if (depth > 1000) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${pointer}/${i}`, null, depth + 1]);
    } else if (isRecord(value)) {
      const image = isImage(value);
      const ks = Object.keys(value);
      for (let i = ks.length - 1; i >= 0; i--) {
        const k = ks[i]!;
        if (OPAQUE.has(k) || (image && k === 'data')) continue;
        stack.push([value[k], `${pointer}/${escapePointer(k)}`, k, depth + 1]);
      }
    }
  }
  return out;
}
