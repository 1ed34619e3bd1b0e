/** What the indexer answers for a file it could not read as a session: no header, or a header pi refuses. */
import { MISSING_HEADER, type HeaderDecision } from '../rules/parse';
import { plainSession } from '../rules/entries';
import type { Issue, ParsedSession } from '../types';

/** No header line was found: pi's missing-header issue at line 1, and nothing else read. */
export function headerlessSession(issues: readonly Issue[]): ParsedSession {
  return plainSession({
    header: null,
    format: null,
    migrated: false,
    entries: [],
    issues: [...issues, { line: 1, kind: 'invalid_header', message: MISSING_HEADER }],
    fatal: { code: 'invalid_session', message: MISSING_HEADER },
  });
}

/** The header was refused (a format pi does not read): its issue and fatal error. */
export function refusedSession(issues: readonly Issue[], f: Extract<HeaderDecision, { ok: false }>): ParsedSession {
  return plainSession({
    header: null,
    format: f.format,
    migrated: false,
    entries: [],
    issues: [...issues, f.issue],
    fatal: f.fatal,
  });
}
