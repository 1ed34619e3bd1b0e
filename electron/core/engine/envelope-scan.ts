/**
 * Reads an entry's envelope from the raw bytes of a line without parsing the line, for lines in
 * the exact shape pi writes. PURE (bytes in, positions out).
 *
 * pi serialises every entry with JSON.stringify, so its keys come in a fixed order:
 *   form A  {"type":"T","id":"I","parentId":null|"P","timestamp":"S",<payload>}
 *           message entries continue with "message":{"role":"R", …}}
 *           leaf, label and context_edit entries continue with "targetId":null|"X"
 *   form B  {"type":"T",<payload>,"id":"I","parentId":null|"P","timestamp":"S"}
 *           (pi-coding-agent writes custom and custom_message entries this way)
 * The scanner accepts only those shapes, with every envelope string free of escapes and control
 * characters, and a line that ends in the closing brace(s) pi writes. Anything else (another key
 * order, whitespace, escapes, a compaction or header line, a line that ends early) is reported as
 * no match and the caller parses the line with JSON.parse. A match says nothing about the bytes
 * after the envelope: the body is parsed (and checked against the envelope) when first read.
 */

/** Where the envelope's strings are in the line. Start/end are byte offsets, end exclusive. */
export interface EnvelopeScan {
  typeStart: number;
  typeEnd: number;
  idStart: number;
  idEnd: number;
  /** -1 when parentId is null. */
  parentStart: number;
  parentEnd: number;
  tsStart: number;
  tsEnd: number;
  /** message entries: `message.role`; -1 otherwise. */
  roleStart: number;
  roleEnd: number;
  /** leaf/label/context_edit: 1 = targetId string at targetStart..targetEnd, 0 = null, -1 = not read. */
  target: number;
  targetStart: number;
  targetEnd: number;
  /** Some envelope string holds a byte >= 0x80 (decode as UTF-8, not Latin-1). */
  nonAscii: boolean;
}

export function newEnvelopeScan(): EnvelopeScan {
  return {
    typeStart: 0,
    typeEnd: 0,
    idStart: 0,
    idEnd: 0,
    parentStart: -1,
    parentEnd: -1,
    tsStart: 0,
    tsEnd: 0,
    roleStart: -1,
    roleEnd: -1,
    target: -1,
    targetStart: -1,
    targetEnd: -1,
    nonAscii: false,
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE = 0x7d; // }
const COMMA = 0x2c;

function ascii(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

const OPEN_TYPE = ascii('{"type":"');
const ID_KEY = ascii('","id":"');
const PARENT_KEY = ascii('","parentId":');
const TS_KEY = ascii(',"timestamp":"');
const MESSAGE_ROLE = ascii(',"message":{"role":"');
const TARGET_KEY = ascii(',"targetId":');
const NULL = ascii('null');
const B_TS_KEY = ascii(',"timestamp":"'); // form B, matched backwards
const B_PARENT_KEY = ascii(',"parentId":');
const B_ID_KEY = ascii(',"id":"');

/** Types whose payload the index needs beyond the envelope (or that must never be fast-pathed). */
const TYPE_MESSAGE = ascii('message');
const TYPE_LEAF = ascii('leaf');
const TYPE_LABEL = ascii('label');
const TYPE_CONTEXT_EDIT = ascii('context_edit');
const TYPE_COMPACTION = ascii('compaction');
const TYPE_SESSION = ascii('session');
const TYPE_CUSTOM = ascii('custom');
const TYPE_CUSTOM_MESSAGE = ascii('custom_message');

function matchAt(b: Uint8Array, at: number, end: number, lit: Uint8Array): boolean {
  if (at + lit.length > end) return false;
  for (let k = 0; k < lit.length; k++) if (b[at + k] !== lit[k]) return false;
  return true;
}

function sameBytes(b: Uint8Array, start: number, end: number, lit: Uint8Array): boolean {
  return end - start === lit.length && matchAt(b, start, end, lit);
}

/**
 * End (index of the closing quote) of a JSON string whose content starts at `i`, or -1 when the
 * content has an escape or a control character or the line ends first.
 */
function plainStringEnd(b: Uint8Array, i: number, end: number, out: EnvelopeScan): number {
  for (let j = i; j < end; j++) {
    const c = b[j]!;
    if (c === QUOTE) return j;
    if (c === BACKSLASH || c < 0x20) return -1;
    if (c >= 0x80) out.nonAscii = true;
  }
  return -1;
}

/** Start of a plain JSON string whose closing quote is at `close` (scanning backwards), or -1. */
function plainStringStartBackwards(b: Uint8Array, close: number, floor: number, out: EnvelopeScan): number {
  for (let j = close - 1; j >= floor; j--) {
    const c = b[j]!;
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH || c < 0x20) return -1;
    if (c >= 0x80) out.nonAscii = true;
  }
  return -1;
}

/**
 * Fills `out` and returns true when the line `b[start, end)` (no newline, no trailing CR) has one
 * of pi's envelope shapes; false means: parse the line in full.
 */
export function scanEnvelope(b: Uint8Array, start: number, end: number, out: EnvelopeScan): boolean {
  out.nonAscii = false;
  out.roleStart = -1;
  out.roleEnd = -1;
  out.target = -1;
  if (end - start < 40 || b[end - 1] !== CLOSE || !matchAt(b, start, end, OPEN_TYPE)) return false;
  const typeStart = start + OPEN_TYPE.length;
  const typeEnd = plainStringEnd(b, typeStart, end, out);
  if (typeEnd < 0) return false;
  out.typeStart = typeStart;
  out.typeEnd = typeEnd;
  if (sameBytes(b, typeStart, typeEnd, TYPE_SESSION) || sameBytes(b, typeStart, typeEnd, TYPE_COMPACTION)) return false;
  if (matchAt(b, typeEnd, end, ID_KEY)) return scanFormA(b, typeStart, typeEnd, end, out);
  if (b[typeEnd + 1] !== COMMA) return false;
  if (sameBytes(b, typeStart, typeEnd, TYPE_CUSTOM) || sameBytes(b, typeStart, typeEnd, TYPE_CUSTOM_MESSAGE)) {
    return scanFormB(b, typeEnd + 2, end, out);
  }
  return false;
}

function scanFormA(b: Uint8Array, typeStart: number, typeEnd: number, end: number, out: EnvelopeScan): boolean {
  let i = typeEnd + ID_KEY.length;
  const idEnd = plainStringEnd(b, i, end, out);
  if (idEnd <= i) return false; // -1, or an empty id (pi's envelope check fails: parse in full)
  out.idStart = i;
  out.idEnd = idEnd;
  if (!matchAt(b, idEnd, end, PARENT_KEY)) return false;
  i = idEnd + PARENT_KEY.length;
  if (matchAt(b, i, end, NULL)) {
    out.parentStart = -1;
    out.parentEnd = -1;
    i += NULL.length;
  } else if (b[i] === QUOTE) {
    const pEnd = plainStringEnd(b, i + 1, end, out);
    if (pEnd < 0) return false;
    out.parentStart = i + 1;
    out.parentEnd = pEnd;
    i = pEnd + 1;
  } else {
    return false;
  }
  if (!matchAt(b, i, end, TS_KEY)) return false;
  i += TS_KEY.length;
  const tsEnd = plainStringEnd(b, i, end, out);
  if (tsEnd <= i) return false;
  out.tsStart = i;
  out.tsEnd = tsEnd;
  i = tsEnd + 1;
  const next = b[i];
  if (next !== COMMA && next !== CLOSE) return false;

  if (sameBytes(b, typeStart, typeEnd, TYPE_MESSAGE)) {
    // pi's message objects start with `role`; the line ends with the message's and the entry's braces.
    if (!matchAt(b, i, end, MESSAGE_ROLE) || b[end - 2] !== CLOSE) return false;
    i += MESSAGE_ROLE.length;
    const roleEnd = plainStringEnd(b, i, end, out);
    if (roleEnd < 0) return false;
    const after = b[roleEnd + 1];
    if (after !== COMMA && after !== CLOSE) return false;
    out.roleStart = i;
    out.roleEnd = roleEnd;
    return true;
  }
  const isLeaf = sameBytes(b, typeStart, typeEnd, TYPE_LEAF);
  if (isLeaf || sameBytes(b, typeStart, typeEnd, TYPE_LABEL) || sameBytes(b, typeStart, typeEnd, TYPE_CONTEXT_EDIT)) {
    if (!matchAt(b, i, end, TARGET_KEY)) return false;
    i += TARGET_KEY.length;
    if (matchAt(b, i, end, NULL)) {
      out.target = 0;
      i += NULL.length;
    } else if (b[i] === QUOTE) {
      const tEnd = plainStringEnd(b, i + 1, end, out);
      if (tEnd < 0) return false;
      out.target = 1;
      out.targetStart = i + 1;
      out.targetEnd = tEnd;
      i = tEnd + 1;
    } else {
      return false;
    }
    // A leaf entry is exactly its envelope and targetId; anything after it is unusual.
    if (isLeaf) return i === end - 1;
    return b[i] === COMMA || i === end - 1;
  }
  return true;
}

/** `…,"id":"I","parentId":null|"P","timestamp":"S"}` at the end of the line. */
function scanFormB(b: Uint8Array, floor: number, end: number, out: EnvelopeScan): boolean {
  let close = end - 2;
  if (b[close] !== QUOTE) return false;
  const tsStart = plainStringStartBackwards(b, close, floor, out);
  if (tsStart <= 0 || tsStart === close) return false;
  let at = tsStart - B_TS_KEY.length;
  if (at < floor || !matchAt(b, at, end, B_TS_KEY)) return false;
  out.tsStart = tsStart;
  out.tsEnd = close;
  // parentId value ends right before `,"timestamp"`.
  const valueEnd = at;
  if (valueEnd - NULL.length >= floor && matchAt(b, valueEnd - NULL.length, end, NULL)) {
    out.parentStart = -1;
    out.parentEnd = -1;
    at = valueEnd - NULL.length;
  } else if (b[valueEnd - 1] === QUOTE) {
    close = valueEnd - 1;
    const pStart = plainStringStartBackwards(b, close, floor, out);
    if (pStart <= 0) return false;
    out.parentStart = pStart;
    out.parentEnd = close;
    at = pStart - 1;
  } else {
    return false;
  }
  at -= B_PARENT_KEY.length;
  if (at < floor || !matchAt(b, at, end, B_PARENT_KEY)) return false;
  close = at - 1;
  if (b[close] !== QUOTE) return false;
  const idStart = plainStringStartBackwards(b, close, floor, out);
  if (idStart <= 0 || idStart === close) return false;
  at = idStart - B_ID_KEY.length;
  if (at < floor || !matchAt(b, at, end, B_ID_KEY)) return false;
  // The payload before the envelope must at least start like a key.
  if (at <= floor || b[floor] !== QUOTE) return false;
  out.idStart = idStart;
  out.idEnd = close;
  return true;
}
