/**
 * Redaction with the radar's rules and the user's own values: what the export wing is handed
 * (export/export-build.ts Redactor) by whoever composes the two (app-services, the CLI), and what
 * `canopy search --redact` does to a snippet.
 */
import { DeepRedactor } from './rules/redact-deep';
import { redactEntry, redactText, userRedactionMatcher, type UserRedactions } from './rules/redact';
import { entrySecrets, redactSnippet } from './rules/redact-snippet';
import { matchText } from './rules/scan';
import { SECRET_MATCHERS } from './secretlint-matcher';

const matchersWith = (user?: UserRedactions) =>
  user ? [...SECRET_MATCHERS, userRedactionMatcher(user)] : SECRET_MATCHERS;

export const redactor = {
  redactWith(user?: UserRedactions) {
    const matchers = matchersWith(user);
    return (raw: Record<string, unknown>, entryId: string) => redactEntry(raw, entryId, matchers);
  },
  /** One redaction for a whole export: every string of it, keys, ids and the header included. */
  deepWith(user?: UserRedactions) {
    return new DeepRedactor(matchersWith(user));
  },
  /** One string redacted (`key`: the JSON key it is the value of), or null when nothing in it matched (the team push). */
  textRedactWith(user?: UserRedactions) {
    const matchers = matchersWith(user);
    return (text: string, key: string | null): string | null => {
      const found = matchText(text, key, matchers);
      return found.length === 0 ? null : redactText(text, found);
    };
  },
  /** A search snippet without the secrets of its entry (`raw`: the entry's parsed line, null when unread). */
  snippetWith(user?: UserRedactions) {
    const matchers = matchersWith(user);
    return (snippet: string, match: readonly [number, number], raw: Record<string, unknown> | null) =>
      redactSnippet(snippet, match, raw ? entrySecrets(raw, matchers) : [], matchers);
  },
};
