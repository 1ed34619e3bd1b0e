/** Runs secret matchers over an entry's strings and reports masked findings. PURE. */
import { entryTexts } from './entry-texts';
import { maskSecret } from './mask';
import { CUSTOM_RULE, type EntryMatch, type SecretFinding, type SecretMatch, type SecretMatcher } from './types';

/** Characters of a token (base64, base64url, hex, ids): a secret never ends inside a run of them. */
const TOKEN_CHAR = /[A-Za-z0-9+/=_-]/;
/** '=' only pads a token's end: going back, it is the `KEY=` before a value. */
const TOKEN_START_CHAR = /[A-Za-z0-9+/_-]/;

/**
 * `hit` grown to whole tokens at both ends: a rule's range that stops inside its secret (seen with
 * secretlint's AWS secret-key rule, whose range is the key name's offset plus the value's length)
 * must not leave the rest of the value in a redacted copy.
 */
function wholeTokens(text: string, hit: SecretMatch): SecretMatch {
  if (hit.rule === CUSTOM_RULE) return hit;
  let { start, end } = hit;
  while (start > 0 && TOKEN_START_CHAR.test(text[start - 1]!) && TOKEN_START_CHAR.test(text[start]!)) start--;
  while (end < text.length && TOKEN_CHAR.test(text[end]!) && TOKEN_CHAR.test(text[end - 1]!)) end++;
  return { start, end, rule: hit.rule };
}

/**
 * Every matcher's matches in `text`, grown to whole tokens, overlaps merged (the earliest match names the union): two
 * rules finding the same key report it once, and a redaction never splits a secret.
 */
export function matchText(text: string, key: string | null, matchers: readonly SecretMatcher[]): SecretMatch[] {
  const all: SecretMatch[] = [];
  for (const m of matchers) for (const hit of m(text, key)) if (hit.end > hit.start) all.push(wholeTokens(text, hit));
  if (all.length < 2) return all;
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretMatch[] = [{ ...all[0]! }];
  for (let i = 1; i < all.length; i++) {
    const hit = all[i]!;
    const last = out[out.length - 1]!;
    if (hit.start < last.end) last.end = Math.max(last.end, hit.end);
    else out.push({ ...hit });
  }
  return out;
}

/** Matches in every scannable string of an entry object. */
export function scanEntryObject(raw: Record<string, unknown>, matchers: readonly SecretMatcher[]): EntryMatch[] {
  const out: EntryMatch[] = [];
  for (const t of entryTexts(raw)) {
    for (const m of matchText(t.text, t.key, matchers)) out.push({ ...m, pointer: t.pointer });
  }
  return out;
}

/** The findings of one entry, masked: what any output, log or cache may hold. */
export function entryFindings(
  entry: { id: string; line: number; raw: Record<string, unknown> },
  matchers: readonly SecretMatcher[],
): SecretFinding[] {
  const texts = new Map(entryTexts(entry.raw).map((t) => [t.pointer, t]));
  return scanEntryObject(entry.raw, matchers).map((m) => ({
    entryId: entry.id,
    line: entry.line,
    rule: m.rule,
    pointer: m.pointer,
    masked: maskSecret(texts.get(m.pointer)!.text.slice(m.start, m.end)),
  }));
}
