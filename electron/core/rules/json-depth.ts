/**
 * JSON with a nesting limit. V8's JSON.parse reads any depth, but JSON.stringify, structured clone
 * (Electron IPC) and recursive walks overflow the stack a few thousand levels down; pi's own
 * writer could never have written such a line. So a value nested deeper than MAX_DEPTH is cut at
 * that depth: each deeper container becomes TOO_DEEP_MARKER and the line gets a `too_deep` issue.
 * Values within the limit are returned exactly as JSON.parse gives them. PURE.
 */

/** Containers deeper than this are replaced (pi's sessions nest a few dozen levels at most). */
export const MAX_DEPTH = 1000;

export const TOO_DEEP_MARKER = `[Canopy: value nested deeper than ${MAX_DEPTH} levels, not shown]`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the JSON text `text` nests arrays/objects more than `limit` levels deep. Strings are
 * skipped with indexOf (bodies are mostly text), so this costs a fraction of JSON.parse.
 */
export function nestingExceeds(text: string, limit = MAX_DEPTH): boolean {
  // Every level opens with one character.
  if (text.length <= limit) return false;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i;
      for (;;) {
        j = text.indexOf('"', j + 1);
        if (j < 0) return false; // unclosed string: not JSON, the parser says so
        let k = j - 1;
        while (text.charCodeAt(k) === BACKSLASH) k--;
        if ((j - 1 - k) % 2 === 0) break;
      }
      i = j;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

/**
 * Replaces, in place and without recursion, every container more than `limit` levels deep (the
 * value itself is level 1) with TOO_DEEP_MARKER. Returns the value (a marker if it is itself too deep).
 */
export function cutDeep(value: unknown, limit = MAX_DEPTH): unknown {
  if (!isContainer(value)) return value;
  if (limit < 1) return TOO_DEEP_MARKER;
  const stack: { v: Container; depth: number }[] = [{ v: value, depth: 1 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child = v[i];
        if (!isContainer(child)) continue;
        if (depth >= limit) v[i] = TOO_DEEP_MARKER;
        else stack.push({ v: child, depth: depth + 1 });
      }
      continue;
    }
    for (const key of Object.keys(v)) {
      const child = v[key];
      if (!isContainer(child)) continue;
      // defineProperty: a "__proto__" key is an own property of JSON.parse's result and must stay one.
      if (depth >= limit)
        Object.defineProperty(v, key, { value: TOO_DEEP_MARKER, enumerable: true, writable: true, configurable: true });
      else stack.push({ v: child, depth: depth + 1 });
    }
  }
  return value;
}

/** JSON.parse (it throws the same SyntaxError) with the nesting limit applied. */
export function parseBounded(text: string, limit = MAX_DEPTH): { value: unknown; tooDeep: boolean } {
  const value: unknown = JSON.parse(text);
  if (!isContainer(value) || !nestingExceeds(text, limit)) return { value, tooDeep: false };
  return { value: cutDeep(value, limit), tooDeep: true };
}

export function tooDeepMessage(line: number): string {
  return `line ${line} nests values deeper than ${MAX_DEPTH} levels; the deeper parts are shown as a marker`;
}
