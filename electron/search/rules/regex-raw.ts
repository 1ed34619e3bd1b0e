/**
 * A raw-line pre-test for a `re:` regex with no literal to look for. PURE. Like raw-filter.ts it is
 * a necessary condition (it never rejects a line whose parsed text matches), so verification stays
 * exact; it assumes pi's writer (JSON.stringify: numbers written as String(n) writes them).
 *
 * Why it holds: an entry's text (search-text.ts) is string values of the line (and numbers or
 * booleans of tool arguments, written as String gives them), joined by "\n" or " ". A regex is
 * "local" when no atom can match either separator (so a match lies inside one value) and nothing
 * looks outside the match but \b or \B (no ^ $, lookarounds, backreferences): at a value's edge
 * the text has a separator or its end and the line a quote or JSON punctuation, all non-word
 * characters. So a local regex that matches the text matches the line with its escapes decoded,
 * where every value is verbatim. The decoding is skipped when no atom can match a character an
 * escape writes and the line has no \u escape (its matches lie in runs written as is). A match
 * only counts where a text match may start: not in pi's opening (ids, times) nor in a value no
 * text is made of (tool call ids, signatures, image data: NOT_TEXT), where most raw matches are.
 */

export type RegexLineTest = (line: string) => boolean;

interface Shape {
  /** No atom matches a character outside ASCII: the line's bytes read as latin1 hold each match as is. */
  ascii: boolean;
  /** No atom matches `"`, `\`, `/` or a control character, and no \b or \B: escapes never matter but for \u. */
  escapeBlind: boolean;
}

/** Every UTF-16 code unit outside ASCII (an atom matching none of them is ASCII-only). */
let nonAscii: string | null = null;
function nonAsciiUnits(): string {
  if (nonAscii === null) {
    const parts: string[] = [];
    for (let c = 0x80; c < 0x10000; c += 0x1000)
      parts.push(String.fromCharCode(...Array.from({ length: Math.min(0x1000, 0x10000 - c) }, (_, i) => c + i)));
    nonAscii = parts.join('');
  }
  return nonAscii;
}

const ESCAPED_CHARS = `"\\/${String.fromCharCode(...Array.from({ length: 0x20 }, (_, i) => i))}`;
const SEPARATORS = '\n ';
const QUANTIFIER = /\{\d+(?:,\d*)?\}/y;

/** The pattern's atoms (each matching one character), or null when it is not local (see the header). */
function atomsOf(source: string): { atoms: string[]; boundary: boolean } | null {
  const atoms: string[] = [];
  let boundary = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (next === 'b' || next === 'B') {
        boundary = true;
        i++;
      } else if (/[0-9kc]/.test(next)) {
        // \1 (a backreference, or octal), \k<name>, \cX: not worth telling apart.
        if (next !== '0' || /[0-9]/.test(source[i + 2] ?? '')) return null;
        atoms.push('\\0');
        i++;
      } else if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(source.slice(i + 2, i + 4))) {
        atoms.push(source.slice(i, i + 4));
        i += 3;
      } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) {
        atoms.push(source.slice(i, i + 6));
        i += 5;
      } else {
        atoms.push(source.slice(i, i + 2));
        i++;
      }
    } else if (ch === '[') {
      // A class: `]` right after `[` or `[^` closes it (JavaScript's [] and [^]).
      let j = source[i + 1] === '^' ? i + 2 : i + 1;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      atoms.push(source.slice(i, j + 1));
      i = j;
    } else if (ch === '(') {
      if (source[i + 1] === '?') {
        const kind = source.slice(i + 2, i + 4);
        // Lookarounds look outside the match; (?: and (?<name> do not.
        if (kind[0] === '=' || kind[0] === '!' || kind === '<=' || kind === '<!') return null;
        if (kind[0] === ':') i += 2;
        else i = source.indexOf('>', i);
      }
    } else if (ch === '^' || ch === '$') {
      return null;
    } else if (ch === '{') {
      QUANTIFIER.lastIndex = i;
      if (QUANTIFIER.test(source)) i = QUANTIFIER.lastIndex - 1;
      else atoms.push('\\{');
    } else if (!')|*+?'.includes(ch)) {
      atoms.push(ch === '.' ? '.' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    }
  }
  return { atoms, boundary };
}

/** How a regex may be tested on raw lines, or null when only parsing can tell (not local). */
export function regexShape(re: RegExp): Shape | null {
  // Only the flags a `re:` has (i); u or v would change what the atoms above mean, s or m what . ^ $ match.
  if (!/^i?$/.test(re.flags)) return null;
  const found = atomsOf(re.source);
  if (!found) return null;
  let ascii = true;
  let escapeBlind = !found.boundary;
  for (const a of found.atoms) {
    const one = new RegExp(a, re.flags);
    if ([...SEPARATORS].some((c) => one.test(c))) return null;
    if (ascii && one.test(nonAsciiUnits())) ascii = false;
    if (escapeBlind && [...ESCAPED_CHARS].some((c) => one.test(c))) escapeBlind = false;
  }
  return { ascii, escapeBlind };
}

const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(.))/g;
const SHORT: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** A line with its JSON escapes decoded (an escape outside a string makes the line fail to parse anyway). */
export function unescapeJson(line: string): string {
  return line.replace(ESCAPE, (_, hex: string | undefined, c: string) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : (SHORT[c] ?? c),
  );
}

/** The characters a latin1 view's bytes are in UTF-8 (null: not valid UTF-8, left to the parse). */
function utf8Of(latin1: string): string | null {
  try {
    // escape() writes each byte ≥ 0x80 as %XX, which decodeURIComponent reads as UTF-8.
    return decodeURIComponent(escape(latin1));
  } catch {
    return null;
  }
}

const S = String.raw`"[^"\\]*"`;
const OPENING = String.raw`\{"type":${S},"id":${S},"parentId":(?:null|${S}),"timestamp":${S}`;
/**
 * pi's opening of an entry line, where no value is text: the entry's type, id, parent and time, and
 * a message's role, a tool result's call id or an assistant's first tool call id (each matched whole
 * as a JSON value, so the prefix is structure, never part of a string). Ids are where most lines'
 * raw matches of a pattern of classes are.
 */
const PREFIX = new RegExp(
  String.raw`${OPENING}(?:,"message":\{"role":(?:"toolResult","toolCallId":${S}|"assistant","content":\[\{"type":"toolCall","id":${S}|${S}))?`,
  'y',
);
/** Where `text`'s line from `start` opens (past pi's opening, whose values are no text). */
function openingEnd(text: string, start: number): number {
  PREFIX.lastIndex = start;
  return PREFIX.test(text) ? PREFIX.lastIndex : start;
}

/**
 * Where string values no entry's text is made of may sit (search-text.ts reads none of them, for
 * any type or role): a match starting in one is no text match. Arguments' values are never here.
 */
const NOT_TEXT = new Set([
  'message.toolCallId',
  'message.api',
  'message.provider',
  'message.model',
  'message.stopReason',
  'message.content[].type',
  'message.content[].id',
  'message.content[].thinkingSignature',
  'message.content[].textSignature',
  'message.content[].data',
  'message.content[].mimeType',
  'content[].type',
  'content[].data',
  'content[].mimeType',
]);

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * A walk over one line's JSON (strings skipped whole), taken only as far as it is asked about: the
 * place of each string value, so a position in a NOT_TEXT value is known. Asked positions must
 * grow. A line that is not JSON has no such value (the parse gives it no hit anyway).
 */
class LineWalk {
  private at: number;
  // Each open container's place (NOT_TEXT's spelling) and whether it is an array.
  private readonly places: string[] = [];
  private readonly arrays: boolean[] = [];
  private key = '';
  private wantKey = false;

  constructor(
    private readonly text: string,
    start: number,
    private readonly end: number,
  ) {
    this.at = start;
  }

  /** Where the NOT_TEXT value holding `pos` ends (its closing quote), or -1 when `pos` is not in one. */
  notTextEnd(pos: number): number {
    const { text, places, arrays } = this;
    while (this.at <= pos && this.at < this.end) {
      const i = this.at;
      const c = text.charCodeAt(i);
      this.at = i + 1;
      if (c === QUOTE) {
        let j = i + 1;
        for (;;) {
          j = text.indexOf('"', j);
          if (j === -1 || j >= this.end) {
            this.at = this.end; // not JSON
            return -1;
          }
          let k = j;
          while (text.charCodeAt(k - 1) === BACKSLASH) k--;
          if ((j - k) % 2 === 0) break;
          j++;
        }
        this.at = j + 1;
        const value = !this.wantKey;
        if (!value) this.key = text.slice(i + 1, j);
        this.wantKey = false;
        if (pos < j) return value && places.length > 0 && NOT_TEXT.has(this.placeOf()) ? j : -1;
      } else if (c === 123 || c === 91) {
        // { or [: its place is the key it is the value of, or its array's place and [].
        places.push(places.length === 0 ? '' : this.placeOf());
        arrays.push(c === 91);
        this.wantKey = c === 123;
      } else if (c === 125 || c === 93) {
        places.pop();
        arrays.pop();
        this.wantKey = false;
      } else if (c === 44) this.wantKey = arrays[arrays.length - 1] === false;
    }
    return -1;
  }

  private placeOf(): string {
    const n = this.places.length - 1;
    if (this.arrays[n]) return `${this.places[n]}[]`;
    return this.places[n] ? `${this.places[n]}.${this.key}` : this.key;
  }
}

/**
 * Whether `scan` matches in `text` starting in [from, end) outside the line's values no text is made of
 * (a text match starts inside a text value); the leftmost start at or after `from` is `next`
 * (-1: not searched yet). Returns the answer and the last search's start and leftmost match.
 */
function matchFrom(
  scan: RegExp,
  text: string,
  start: number,
  from: number,
  end: number,
  next: number,
): { found: boolean; searched: number; next: number } {
  let searched = from;
  if (next < 0) next = leftmost(scan, text, from);
  let walk: LineWalk | null = null;
  while (next < end) {
    walk ??= new LineWalk(text, start, end);
    const skip = walk.notTextEnd(next);
    if (skip < 0) return { found: true, searched, next };
    // Every match starting before the value's closing quote starts in it.
    searched = skip;
    next = leftmost(scan, text, searched);
  }
  return { found: false, searched, next };
}

function leftmost(scan: RegExp, text: string, from: number): number {
  scan.lastIndex = from;
  const m = scan.exec(text);
  return m ? m.index : Number.POSITIVE_INFINITY;
}

/**
 * The pre-test of a local regex on one raw line as latin1 (as raw-filter's tests take it), or null
 * for a regex that is not local. A block of lines may be tested at once: a match in one line is a
 * match in the block (lines are apart by "\n", a non-word character).
 */
export function regexLineTest(re: RegExp): RegexLineTest | null {
  const shape = regexShape(re);
  if (!shape) return null;
  const scan = new RegExp(re.source, `${re.flags}g`);
  return (latin1) => {
    // A pattern that may match a character outside ASCII is tested on the characters the line's bytes are.
    const line = shape.ascii ? latin1 : utf8Of(latin1);
    if (line === null) return true;
    const from = openingEnd(line, 0);
    const raw = !line.includes('\\') || (shape.escapeBlind && !line.includes('\\u'));
    if (raw) return matchFrom(scan, line, 0, from, line.length, -1).found;
    // The prefix has no backslash: decoding leaves it where it was (the ids after it may move).
    scan.lastIndex = from;
    return scan.test(unescapeJson(line));
  };
}

/** Which of a span's lines may match (each line [starts[k], ends[k]) of the span, in order, apart). */
export type RegexSpanTest = (span: string, starts: readonly number[], ends: readonly number[]) => boolean[];

/**
 * regexLineTest for many lines of one span (their bytes as latin1) with one scan, for a pattern
 * that is ASCII-only and escape-blind (the raw span holds every match as is): the leftmost match
 * at or after a line's searched start (past pi's opening) is found once and serves every line up
 * to it, so no line is made a string. A line with a \u escape is tested alone, decoded.
 */
export function regexSpanTest(re: RegExp): RegexSpanTest | null {
  const shape = regexShape(re);
  const one = regexLineTest(re);
  if (!shape?.ascii || !shape.escapeBlind || !one) return null;
  const scan = new RegExp(re.source, `${re.flags}g`);
  return (span, starts, ends) => {
    const out = new Array<boolean>(starts.length).fill(false);
    let searched = Number.POSITIVE_INFINITY;
    let next = -1;
    let u = span.indexOf('\\u');
    for (let k = 0; k < starts.length; k++) {
      const start = starts[k]!;
      const end = ends[k]!;
      while (u !== -1 && u < start) u = span.indexOf('\\u', u + 1);
      if (u !== -1 && u < end) {
        out[k] = one(span.slice(start, end));
        continue;
      }
      const from = openingEnd(span, start);
      // No match starts in [searched, next): a line searched from inside that range shares it.
      const r = matchFrom(scan, span, start, from, end, searched <= from && next >= from ? next : -1);
      ({ searched, next } = r);
      out[k] = r.found;
    }
    return out;
  };
}
