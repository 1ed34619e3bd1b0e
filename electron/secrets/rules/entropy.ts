/**
 * High-entropy strings in key positions: `KEY=value`, `key: value`, `"key": "value"` inside a
 * text, and a JSON string whose key names a secret (tool arguments, custom data). The thresholds
 * follow gitleaks' generic-api-key rule (keywords, entropy ≥ 3.5 bits per character); values that
 * are plainly identifiers or digests (UUIDs, hex hashes, paths, words) are not secrets. PURE.
 */
import type { SecretMatch, SecretMatcher } from './types';

const MIN_LENGTH = 16;
const MAX_LENGTH = 512;
export const MIN_ENTROPY = 3.5;

/** Key names that hold secrets (gitleaks' generic keywords, plus a few common spellings). */
const SECRET_KEY =
  /(?:^|[^a-z])(?:api[_-]?key|apikey|access[_-]?key|secret|token|passw(?:or)?d|pwd|passphrase|auth|credential|creds|private[_-]?key|client[_-]?secret|bearer)s?(?:$|[^a-z])/i;
const SECRET_KEY_CAMEL =
  /(?:apiKey|accessKey|secretKey|authToken|accessToken|refreshToken|clientSecret|privateKey|password|secret|token)/;

/** Shannon entropy of `s` in bits per character. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const k of counts.values()) {
    const p = k / n;
    h -= p * Math.log2(p);
  }
  return h;
}

export function isSecretKeyName(key: string): boolean {
  if (key.length > 64) return false;
  return SECRET_KEY.test(key) || SECRET_KEY_CAMEL.test(key);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_DIGEST = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{128})$/i;
/** A secret has no spaces and is not a path, a URL, or a template (base64 may hold '/'). */
const NOT_A_TOKEN = /[\s\\]|^(?:\.{0,2}\/|~\/)|:\/\/|^\$\{|^<|^\{\{|^\$\(|\.(?:ts|js|json|md|py|go|rs)$/;

/** Whether `value` (already cut from its key) looks like a random secret. */
export function looksRandom(value: string): boolean {
  if (value.length < MIN_LENGTH || value.length > MAX_LENGTH) return false;
  if (UUID.test(value) || HEX_DIGEST.test(value) || NOT_A_TOKEN.test(value)) return false;
  // A secret mixes character classes: letters alone are words, digits alone are numbers.
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((r) => r.test(value)).length;
  if (classes < 2) return false;
  return shannonEntropy(value) >= MIN_ENTROPY;
}

/**
 * `KEY=value`, `KEY: value`, `"key": "value"`, `key='value'` in text. The key group is tested
 * with isSecretKeyName, the value with looksRandom. A key starts after a non-key character (the
 * lookbehind): without it every position of a long token would start a 64-character try.
 */
const KEYED =
  /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,63})["']?\s*(?::=|=|:)\s*["'`]?([^\s"'`,;&|)}\]]{16,512})/g;

export const HIGH_ENTROPY_RULE = 'high-entropy';

/** The generic matcher: keyed values in text, and whole strings under a secret-named JSON key. */
export const highEntropyMatcher: SecretMatcher = (text, key) => {
  const out: SecretMatch[] = [];
  if (key !== null && isSecretKeyName(key) && looksRandom(text)) {
    out.push({ start: 0, end: text.length, rule: HIGH_ENTROPY_RULE });
    return out;
  }
  if (text.length < MIN_LENGTH) return out;
  for (const m of text.matchAll(KEYED)) {
    const name = m[1]!;
    const value = m[2]!;
    if (!isSecretKeyName(name) || !looksRandom(value)) continue;
    const start = m.index + m[0].length - value.length;
    out.push({ start, end: start + value.length, rule: HIGH_ENTROPY_RULE });
  }
  return out;
};
