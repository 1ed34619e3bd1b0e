/**
 * A column of short strings that repeat (an entry's type, its message role): a 16-bit code per
 * row and each distinct string once. Code 0 is "none"; strings past the code space (a damaged or
 * hostile file with tens of thousands of distinct types) are kept per row instead, so no input
 * makes the column fail. PURE.
 */
const NONE = 0;
const OVERFLOW = 0xffff;
/** A rough size of one Map entry with a short string (key, value, hash slot). */
const MAP_SLOT_BYTES = 64;

export class NameColumn {
  private codes = new Uint16Array(1024);
  /** names[code - 1] */
  private readonly names: string[] = [];
  private readonly byName = new Map<string, number>();
  private readonly overflow = new Map<number, string>();
  /** The code of the last string set (consecutive rows mostly share it). */
  private last: string | undefined = undefined;
  private lastCode = NONE;

  /** Bytes held: the code column's buffer and a rough size of each distinct and overflowed string. */
  get bytes(): number {
    let n = this.codes.byteLength;
    for (const name of this.names) n += MAP_SLOT_BYTES + name.length * 2;
    return n + this.overflow.size * MAP_SLOT_BYTES;
  }

  set(i: number, name: string | undefined): void {
    if (i >= this.codes.length) this.reserve(Math.max(i + 1, this.codes.length * 2));
    if (name !== this.last) {
      this.last = name;
      this.lastCode = name === undefined ? NONE : this.codeOf(name);
    }
    this.codes[i] = this.lastCode;
    if (this.lastCode === OVERFLOW) this.overflow.set(i, name!);
  }

  get(i: number): string | undefined {
    const code = this.codes[i]!;
    if (code === NONE) return undefined;
    return code === OVERFLOW ? this.overflow.get(i) : this.names[code - 1];
  }

  /** Room for `n` rows. */
  reserve(n: number): void {
    if (n <= this.codes.length) return;
    const next = new Uint16Array(n);
    next.set(this.codes);
    this.codes = next;
  }

  /** Forgets row `i` (a row taken back). */
  clear(i: number): void {
    this.overflow.delete(i);
  }

  private codeOf(name: string): number {
    let code = this.byName.get(name);
    if (code === undefined) {
      if (this.names.length >= OVERFLOW - 1) return OVERFLOW;
      this.names.push(name);
      code = this.names.length;
      this.byName.set(name, code);
    }
    return code;
  }
}
