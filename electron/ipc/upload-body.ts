/**
 * session.upload over HTTP: the body `{"name": "…", "text": "…"}` decoded as it arrives, the text's
 * UTF-8 handed on chunk by chunk (serve writes it to a file), so an upload of any size holds a few
 * buffers, never the body or the text as one string (three 250 MiB uploads held 3.3 GB before).
 *
 * The text is what JSON.parse and a UTF-8 write would give: escapes decoded, lone surrogates as
 * U+FFFD. Raw bytes pass through as sent (a browser sends valid UTF-8; a file may hold invalid
 * bytes anyway, which the readers report).
 */

export class UploadBodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SIMPLE_ESCAPES: Record<number, number> = {
  0x22: 0x22,
  0x5c: 0x5c,
  0x2f: 0x2f,
  0x62: 8,
  0x66: 12,
  0x6e: 10,
  0x72: 13,
  0x74: 9,
};

/** Where the decoder is: between tokens (`expect`), or inside a string (`str`). */
type Expect = 'open' | 'key-or-close' | 'key' | 'colon' | 'value' | 'comma-or-close' | 'end';

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Short strings (a key, the name) are kept as bytes up to this many. */
const MAX_SHORT_BYTES = 4096;

export class UploadDecoder {
  /** The `name` field once read (null until then). */
  name: string | null = null;
  private sawText = false;
  private expect: Expect = 'open';
  /** Inside a string: what it is. */
  private str: 'key' | 'name' | 'text' | null = null;
  private key = '';
  private short: number[] = [];
  /** Inside an escape: -1 none, 0 after the backslash, 1–4 hex digits of \u read. */
  private esc = -1;
  private hex = 0;
  /** A high surrogate waiting for its low half. */
  private high = -1;
  private received = 0;

  constructor(private readonly maxBytes: number) {}

  /** The text's bytes in `chunk` (possibly empty); throws UploadBodyError on a body that is not the two strings. */
  write(chunk: Buffer): Buffer {
    this.received += chunk.length;
    if (this.received > this.maxBytes) throw new UploadBodyError(413, `request body over ${this.maxBytes} bytes`);
    // Decoded text is never longer than its escaped form, plus one code point finished from the last chunk.
    const out = Buffer.allocUnsafe(chunk.length + 8);
    let at = 0;
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (this.str === null) {
        this.token(chunk[i]!);
        i++;
        continue;
      }
      const b = chunk[i]!;
      if (this.esc >= 0) {
        at = this.escape(b, out, at);
        i++;
        continue;
      }
      if (this.high >= 0 && b !== BACKSLASH) at = this.lone(out, at);
      if (b === QUOTE) {
        this.endString();
        i++;
        continue;
      }
      if (b === BACKSLASH) {
        this.esc = 0;
        i++;
        continue;
      }
      if (b < 0x20) throw bad('a control character in a string');
      if (this.str !== 'text') {
        if (this.short.length >= MAX_SHORT_BYTES) throw bad(`a ${this.str} over ${MAX_SHORT_BYTES} bytes`);
        this.short.push(b);
        i++;
        continue;
      }
      // The text's plain run, copied at once.
      let j = i + 1;
      while (j < n) {
        const c = chunk[j]!;
        if (c === QUOTE || c === BACKSLASH || c < 0x20) break;
        j++;
      }
      chunk.copy(out, at, i, j);
      at += j - i;
      i = j;
    }
    return out.subarray(0, at);
  }

  /** The body ended: throws when it was not a whole object with both strings. */
  end(): void {
    if (this.expect !== 'end' || this.str !== null) throw bad('the body ended early');
    if (this.name === null) throw bad('name must be a string');
    if (!this.sawText) throw bad('text must be a string');
  }

  private token(b: number): void {
    if (isSpace(b)) return;
    switch (this.expect) {
      case 'open':
        if (b !== 0x7b) throw bad('arguments must be an object');
        this.expect = 'key-or-close';
        return;
      case 'key-or-close':
      case 'key':
        if (b === 0x7d && this.expect === 'key-or-close') return void (this.expect = 'end');
        if (b !== QUOTE) throw bad('expected a key');
        this.str = 'key';
        return;
      case 'colon':
        if (b !== 0x3a) throw bad("expected ':'");
        this.expect = 'value';
        return;
      case 'value': {
        const key = this.key as 'name' | 'text';
        if (b !== QUOTE) throw bad(`${key} must be a string`);
        if ((key === 'name' && this.name !== null) || (key === 'text' && this.sawText)) throw bad(`${key} given twice`);
        this.str = key;
        if (key === 'text') this.sawText = true;
        return;
      }
      case 'comma-or-close':
        if (b === 0x2c) return void (this.expect = 'key');
        if (b === 0x7d) return void (this.expect = 'end');
        throw bad("expected ',' or '}'");
      case 'end':
        throw bad('bytes after the object');
    }
  }

  private endString(): void {
    const what = this.str;
    this.str = null;
    if (what === 'text') return void (this.expect = 'comma-or-close');
    const value = Buffer.from(this.short).toString('utf8');
    this.short = [];
    if (what === 'name') {
      this.name = value;
      this.expect = 'comma-or-close';
      return;
    }
    if (value !== 'name' && value !== 'text') throw bad(`unexpected argument "${value.slice(0, 40)}"`);
    this.key = value;
    this.expect = 'colon';
  }

  /** One byte of an escape; returns the new output position. */
  private escape(b: number, out: Buffer, at: number): number {
    if (this.esc === 0) {
      if (b === 0x75) {
        this.esc = 1;
        this.hex = 0;
        return at;
      }
      const simple = SIMPLE_ESCAPES[b];
      if (simple === undefined) throw bad('a bad escape in a string');
      this.esc = -1;
      if (this.high >= 0) at = this.lone(out, at);
      return this.emit(simple, out, at);
    }
    const digit = hexValue(b);
    if (digit < 0) throw bad('a bad \\u escape in a string');
    this.hex = this.hex * 16 + digit;
    if (this.esc < 4) {
      this.esc++;
      return at;
    }
    this.esc = -1;
    const unit = this.hex;
    if (unit >= 0xdc00 && unit <= 0xdfff && this.high >= 0) {
      const cp = 0x10000 + ((this.high - 0xd800) << 10) + (unit - 0xdc00);
      this.high = -1;
      return this.emit(cp, out, at);
    }
    if (this.high >= 0) at = this.lone(out, at);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      this.high = unit;
      return at;
    }
    return this.emit(unit >= 0xdc00 && unit <= 0xdfff ? 0xfffd : unit, out, at);
  }

  /** A high surrogate not followed by its low half: U+FFFD, as a UTF-8 write of the string gives. */
  private lone(out: Buffer, at: number): number {
    this.high = -1;
    return this.emit(0xfffd, out, at);
  }

  private emit(cp: number, out: Buffer, at: number): number {
    if (this.str !== 'text') {
      const bytes = Buffer.from(String.fromCodePoint(cp));
      if (this.short.length + bytes.length > MAX_SHORT_BYTES) throw bad(`a ${this.str} over ${MAX_SHORT_BYTES} bytes`);
      for (const x of bytes) this.short.push(x);
      return at;
    }
    if (cp < 0x80) out[at++] = cp;
    else if (cp < 0x800) {
      out[at++] = 0xc0 | (cp >> 6);
      out[at++] = 0x80 | (cp & 63);
    } else if (cp < 0x10000) {
      out[at++] = 0xe0 | (cp >> 12);
      out[at++] = 0x80 | ((cp >> 6) & 63);
      out[at++] = 0x80 | (cp & 63);
    } else {
      out[at++] = 0xf0 | (cp >> 18);
      out[at++] = 0x80 | ((cp >> 12) & 63);
      out[at++] = 0x80 | ((cp >> 6) & 63);
      out[at++] = 0x80 | (cp & 63);
    }
    return at;
  }
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  return -1;
}

function bad(message: string): UploadBodyError {
  return new UploadBodyError(400, message);
}
