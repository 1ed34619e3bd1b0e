/**
 * What leaves the machine for the team database: every string of a line's value and every object
 * key is scanned by the secret rules and the user's redactions, values of opaque signature fields are
 * never sent (nothing in them is meant for a reader, and they cannot be scanned for meaning), and
 * image data becomes a sized placeholder unless kept. PURE.
 */

/** Keys whose values are provider blobs (thinking signatures, encrypted reasoning): sent as their size. */
const OPAQUE_KEYS = new Set([
  'signature',
  'thinkingSignature',
  'thoughtSignature',
  'textSignature',
  'encrypted_content',
]);

/**
 * The text a string becomes, or null when nothing in it matched (the secret radar's rules and the
 * user's redactions; handed in by whoever composes this wing with the secrets wing).
 */
export type TextRedact = (text: string, key: string | null) => string | null;

/** Redacts nothing: what `--no-redact` pushes. */
export const NO_REDACTION: TextRedact = () => null;

export interface BodyOptions {
  redact: TextRedact;
  keepImages: boolean;
}

export interface Redacted<T> {
  value: T;
  /** Strings (values or keys) that held a match. */
  redactions: number;
}

/** `text` with every match replaced, and whether one was. */
export function redactString(text: string, key: string | null, redact: TextRedact): Redacted<string> {
  const out = redact(text, key);
  return out === null ? { value: text, redactions: 0 } : { value: out, redactions: 1 };
}

/** A redacted deep copy of a parsed line. */
export function redactBody(value: unknown, opts: BodyOptions): Redacted<unknown> {
  let redactions = 0;
  const walk = (v: unknown, key: string | null): unknown => {
    if (typeof v === 'string') {
      if (key !== null && OPAQUE_KEYS.has(key)) return `[omitted: ${v.length} characters]`;
      const r = redactString(v, key, opts.redact);
      redactions += r.redactions;
      return r.value;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, null));
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Record<string, unknown>;
    const image = o.type === 'image' && typeof o.data === 'string' && !opts.keepImages;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) {
      const name = redactString(k, null, opts.redact);
      redactions += name.redactions;
      out[name.value] =
        image && k === 'data' ? `[image: ${Math.floor(((x as string).length * 3) / 4)} bytes]` : walk(x, k);
    }
    return out;
  };
  const out = walk(value, null);
  return { value: out, redactions };
}
