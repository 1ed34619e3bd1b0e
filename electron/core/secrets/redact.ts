/**
 * Redaction: each match becomes `[REDACTED:<rule>]` in a copy of the entry (the entry itself is
 * never changed); user-given literals and regular expressions are one more matcher. PURE.
 */
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

/**
 * A matcher for the user's literals and regexes (case-sensitive as written; a regex may carry
 * `/…/flags`). Throws an Error naming the pattern that is not a valid regex.
 */
export function userRedactionMatcher(user: UserRedactions): SecretMatcher {
  const literals = user.literals.filter((l) => l.length > 0);
  const regexes = user.regexes
    .filter((r) => r.length > 0)
    .map((r) => {
      const slashed = /^\/(.+)\/([a-z]*)$/s.exec(r);
      const [source, flags] = slashed ? [slashed[1]!, slashed[2]!] : [r, ''];
      try {
        return new RegExp(source, flags.includes('g') ? flags : `${flags}g`);
      } catch (err) {
        throw new Error(
          `redaction pattern ${JSON.stringify(r)} is not a valid regular expression: ${(err as Error).message}`,
        );
      }
    });
  return (text) => {
    const out: SecretMatch[] = [];
    for (const l of literals) {
      for (let i = text.indexOf(l); i >= 0; i = text.indexOf(l, i + l.length))
        out.push({ start: i, end: i + l.length, rule: CUSTOM_RULE });
    }
    for (const re of regexes) {
      for (const m of text.matchAll(re)) {
        if (m[0].length > 0) out.push({ start: m.index, end: m.index + m[0].length, rule: CUSTOM_RULE });
      }
    }
    return out;
  };
}
