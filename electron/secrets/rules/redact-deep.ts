/**
 * Redaction that leaves nothing: every string of a JSON value is scanned — ids, signatures, image
 * data (unless it is well-formed base64 of an image: pixels) and object keys included, unlike the
 * radar's entryTexts (which skips what is never a finding worth showing). A string too deep to walk is not written out. An id that holds a secret becomes
 * `[REDACTED:<rule>:<hash>]`, the same for the same id, so parent links still join. PURE.
 */
import { maskSecret } from './mask';
import { matchText } from './scan';
import type { SecretMatch, SecretMatcher } from './types';

/** Top-level fields that name entries: redacted whole, consistently. */
const ID_FIELDS = new Set(['id', 'parentId', 'targetId', 'firstKeptEntryId', 'fromId']);
const MAX_DEPTH = 1000;
export const TOO_DEEP = '[REDACTED:too-deep]';

export interface DeepReplacement {
  pointer: string;
  rule: string;
  masked: string;
}

/** `text` with every match replaced by `[REDACTED:<rule>]` (matches sorted, not overlapping). */
export function replaceMatches(text: string, matches: readonly SecretMatch[]): string {
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += `${text.slice(at, m.start)}[REDACTED:${m.rule}]`;
    at = m.end;
  }
  return out + text.slice(at);
}

/** FNV-1a, 32 bits, hex: a stand-in for an id that cannot be turned back into it. */
function shortHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** What the first bytes of an image file are (PNG, JPEG, GIF, WebP's RIFF). */
const IMAGE_MAGIC = [/^\x89PNG/, /^\xff\xd8\xff/, /^GIF8/, /^RIFF....WEBP/s];

/**
 * Pixels, not text: well-formed base64 (no other character can be written out in it) of a known
 * image format. Scanning megabytes of them for secrets costs seconds and finds none; a `data` that
 * is anything else (text planted in an image block) is scanned like any string.
 */
function isImageBase64(text: string): boolean {
  if (text.length < 16 || text.length % 4 !== 0 || !BASE64.test(text)) return false;
  let head: string;
  try {
    head = atob(text.slice(0, 16));
  } catch {
    return false;
  }
  return IMAGE_MAGIC.some((m) => m.test(head));
}

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Redacts whole JSON values with one set of matchers; keys (which repeat) are scanned once each. */
export class DeepRedactor {
  private readonly keys = new Map<string, string>();
  readonly replacements: DeepReplacement[] = [];

  constructor(private readonly matchers: readonly SecretMatcher[]) {}

  private text(text: string, key: string | null, pointer: string, idField: boolean): string {
    if (text.length === 0 || (key === 'data' && isImageBase64(text))) return text;
    const matches = matchText(text, key, this.matchers);
    if (matches.length === 0) return text;
    for (const m of matches)
      this.replacements.push({ pointer, rule: m.rule, masked: maskSecret(text.slice(m.start, m.end)) });
    return idField ? `[REDACTED:${matches[0]!.rule}:${shortHash(text)}]` : replaceMatches(text, matches);
  }

  /** A string outside any entry (a title, a file name): scanned as a value of `key`. */
  string(text: string, key: string | null = null): string {
    return this.text(text, key, '', false);
  }

  /** An entry or session id: redacted whole, the same way it is inside entries. */
  id(text: string): string {
    return this.text(text, 'id', '', true);
  }

  private key(key: string, pointer: string): string {
    const known = this.keys.get(key);
    if (known !== undefined) return known;
    const out = this.text(key, null, pointer, false);
    this.keys.set(key, out);
    return out;
  }

  /** A redacted copy of `value` (the same value when nothing matched). */
  value(value: unknown, pointer = '', key: string | null = null, depth = 0): unknown {
    if (typeof value === 'string')
      return this.text(value, key, pointer, depth === 1 && key !== null && ID_FIELDS.has(key));
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_DEPTH) return TOO_DEEP;
    if (Array.isArray(value)) {
      let copy: unknown[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const v = this.value(value[i], `${pointer}/${i}`, null, depth + 1);
        if (v !== value[i]) (copy ??= [...value])[i] = v;
      }
      return copy ?? value;
    }
    const rec = value as Record<string, unknown>;
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(rec)) {
      const at = `${pointer}/${escapePointer(k)}`;
      let nk = this.key(k, at);
      // Two keys redacted alike stay two members.
      while (nk !== k && Object.hasOwn(out, nk)) nk = `${nk}'`;
      const v = this.value(rec[k], at, k, depth + 1);
      if (nk !== k || v !== rec[k]) changed = true;
      out[nk] = v;
    }
    return changed ? out : value;
  }
}
