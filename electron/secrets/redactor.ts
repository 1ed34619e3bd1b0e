/**
 * Redaction with the radar's rules and the user's own values: what the export wing is handed
 * (export/export-build.ts Redactor) by whoever composes the two (app-services, the CLI).
 */
import { redactEntry, redactText, userRedactionMatcher, type UserRedactions } from './rules/redact';
import { matchText } from './rules/scan';
import { SECRET_MATCHERS } from './secretlint-matcher';

const matchersOf = (user?: UserRedactions) =>
  user ? [...SECRET_MATCHERS, userRedactionMatcher(user)] : SECRET_MATCHERS;

export const redactor = {
  redactWith(user?: UserRedactions) {
    const matchers = matchersOf(user);
    return (raw: Record<string, unknown>, entryId: string) => redactEntry(raw, entryId, matchers);
  },
  /** One string redacted (`key`: the JSON key it is the value of), or null when nothing in it matched (the team push). */
  textRedactWith(user?: UserRedactions) {
    const matchers = matchersOf(user);
    return (text: string, key: string | null): string | null => {
      const found = matchText(text, key, matchers);
      return found.length === 0 ? null : redactText(text, found);
    };
  },
};
