/** Types and roles repeat on every line: one string per distinct ASCII value, matched as bytes, not decoded. */
import type { Decode } from '../types';

/** At most this many distinct values are kept (a file of odd types does not grow the list). */
const MAX_NAMES = 64;

export class InternedNames {
  private readonly names: string[] = [];

  constructor(private readonly decode: Decode) {}

  /** The text of b[start, end): a kept string when an ASCII value was seen before. */
  of(b: Uint8Array, start: number, end: number, ascii: boolean): string {
    if (!ascii) return this.decode(b, start, end, false);
    for (const n of this.names) if (sameText(b, start, end, n)) return n;
    const text = this.decode(b, start, end, true);
    if (this.names.length < MAX_NAMES) this.names.push(text);
    return text;
  }
}

function sameText(b: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let k = 0; k < text.length; k++) if (b[start + k] !== text.charCodeAt(k)) return false;
  return true;
}
