/**
 * Redaction: each match becomes `[REDACTED:<rule>]` in a copy of the entry (the entry itself is
 * never changed); user-given literals and regular expressions are one more matcher. PURE.
 */
import { RE2JS } from 're2js';
import { DeepRedactor, replaceMatches } from './redact-deep';
import { CUSTOM_RULE, type SecretMatch, type SecretMatcher } from './types';

type Rec = Record<string, unknown>;

export function redactionMarker(rule: string): string {
  return `[REDACTED:${rule}]`;
}

/** One replacement, as the preview lists it (masked: the preview is shown, the value never). */
export interface Replacement {
  entryId: string;
  pointer: string;
  rule: string;
  masked: string;
}

/** `text` with every match replaced by its marker (matches sorted, not overlapping). */
export const redactText = replaceMatches;

/**
 * A redacted copy of an entry object (the same object when nothing matched) and what was
 * replaced, masked. Every string is scanned, keys and ids too (redact-deep.ts).
 */
export function redactEntry(
  raw: Rec,
  entryId: string,
  matchers: readonly SecretMatcher[],
): { raw: Rec; replacements: Replacement[] } {
  const r = new DeepRedactor(matchers);
  const out = r.value(raw) as Rec;
  return { raw: out, replacements: r.replacements.map((x) => ({ entryId, ...x })) };
}

/** What the user asked to redact too (kept in settings): literal strings and regular expressions. */
export interface UserRedactions {
  literals: string[];
  regexes: string[];
}

const RE2_FLAGS: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
};

/**
 * A user's regex, compiled for RE2's linear-time engine: a catastrophic pattern such as `(a+)+$`
 * cannot freeze `canopy serve` or an export (a backtracking RegExp can take hours on one line).
 * Throws an Error naming the pattern that RE2 does not accept.
 */
function compileUserRegex(r: string): RE2JS {
  const slashed = /^\/(.+)\/([a-z]*)$/s.exec(r);
  const [source, flags] = slashed ? [slashed[1]!, slashed[2]!] : [r, ''];
  let bits = 0;
  for (const f of flags) bits |= RE2_FLAGS[f] ?? 0;
  try {
    new RegExp(source, flags.replace(/[^dgimsuvy]/g, ''));
  } catch (err) {
    throw new Error(
      `redaction pattern ${JSON.stringify(r)} is not a valid regular expression: ${(err as Error).message}`,
    );
  }
  try {
    return RE2JS.compile(RE2JS.translateRegExp(source), bits);
  } catch (err) {
    throw new Error(
      `redaction pattern ${JSON.stringify(r)} is not supported: ${(err as Error).message} (patterns run in linear time, in RE2's syntax: no backreferences or lookarounds)`,
    );
  }
}

/**
 * A matcher for the user's literals and regexes (case-sensitive as written; a regex may carry
 * `/…/flags`). Throws an Error naming the pattern that is not a valid regex.
 */
export function userRedactionMatcher(user: UserRedactions): SecretMatcher {
  const literals = user.literals.filter((l) => l.length > 0);
  const regexes = user.regexes.filter((r) => r.length > 0).map(compileUserRegex);
  return (text) => {
    const out: SecretMatch[] = [];
    for (const l of literals) {
      for (let i = text.indexOf(l); i >= 0; i = text.indexOf(l, i + l.length))
        out.push({ start: i, end: i + l.length, rule: CUSTOM_RULE });
    }
    for (const re of regexes) {
      const m = re.matcher(text);
      while (m.find()) if (m.end() > m.start()) out.push({ start: m.start(), end: m.end(), rule: CUSTOM_RULE });
    }
    return out;
  };
}
