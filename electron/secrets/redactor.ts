/**
 * Redaction with the radar's rules and the user's own values: what the export wing is handed
 * (export/export-build.ts Redactor) by whoever composes the two (app-services, the CLI).
 */
import { redactEntry, userRedactionMatcher, type UserRedactions } from './rules/redact';
import { SECRET_MATCHERS } from './secretlint-matcher';

export const redactor = {
  redactWith(user?: UserRedactions) {
    const matchers = user ? [...SECRET_MATCHERS, userRedactionMatcher(user)] : SECRET_MATCHERS;
    return (raw: Record<string, unknown>, entryId: string) => redactEntry(raw, entryId, matchers);
  },
};
