import type { SessionRowDto, SessionSummaryDto } from '../lib/shared';

/** What a session is called in lists: its name, else its first message, else its file name. */
export function sessionTitle(row: SessionRowDto, summary: SessionSummaryDto | null): string {
  return summary?.name?.trim() || summary?.firstMessage?.trim() || row.fileName;
}
