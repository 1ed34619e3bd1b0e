import type { SessionRowDto, SessionSummaryDto } from '../lib/shared';
import { branchText, type BranchLabel } from './branch-label';

const TITLE_CHARS = 200;

/**
 * Markdown as one line of plain text: code fences and their language tags, heading marks,
 * emphasis, inline code ticks, link and image syntax, quote and list marks go; whitespace runs
 * become one space.
 */
export function plainText(markdown: string): string {
  return markdown
    .replace(/^\s*(```|~~~)[^\n]*$/gm, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+(?=\S)|\d+\.\s+)/gm, '')
    .replace(/(\*\*|__)(?=\S)([^*_]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^*_]*?\S)[*_](?=$|[^\w*])/g, '$1$2')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(text: string): string {
  return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;
}

/** "Mar 2, 14:05": when a fork was made (its header time), to tell apart forks without a message of their own. */
function forkTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
}

export function isFork(row: SessionRowDto): boolean {
  return row.parentSessionId !== null || row.parentSessionPath !== null;
}

/** A fork as a branch: where it left its parent (the last prompt it copied) and its own first prompt. */
export function forkLabel(summary: SessionSummaryDto | null): BranchLabel {
  const after = summary?.branchedAfter ? plainText(summary.branchedAfter) : '';
  const first = summary?.ownFirstMessage ? plainText(summary.ownFirstMessage) : '';
  return { after: after.length > 80 ? `${after.slice(0, 79)}…` : after, first };
}

/**
 * A session on one line where nothing else says what a fork is (the fork strip, search groups,
 * the compare picker): its title, and for a fork with a prompt of its own, where it branched off.
 */
export function sessionLabel(row: SessionRowDto, summary: SessionSummaryDto | null): string {
  const title = sessionTitle(row, summary);
  if (!isFork(row) || summary?.name?.trim()) return title;
  const label = forkLabel(summary);
  return label.first && label.after ? clip(`${title} · after “${label.after}”`) : title;
}

/**
 * What a session is called everywhere (list, search, palette, tabs): its name, else its first user
 * message as plain text, else its file name. A fork shares its parent's first message (the path is
 * copied), so it is called by its own first message, else "fork of <that message> · <when>".
 */
export function sessionTitle(row: SessionRowDto, summary: SessionSummaryDto | null): string {
  const name = summary?.name?.trim();
  if (name) return clip(name);
  const first = summary?.firstMessage ? plainText(summary.firstMessage) : '';
  if (isFork(row)) {
    const own = summary?.ownFirstMessage ? plainText(summary.ownFirstMessage) : '';
    if (own) return clip(own);
    // No prompt of its own yet: where it branched off tells sibling forks apart.
    const label = forkLabel(summary);
    if (label.after) return clip(`fork ${branchText(label)} · ${forkTime(row.createdAt)}`);
    if (summary) return clip(`fork ${forkTime(row.createdAt)}${first ? ` · ${first}` : ''}`);
  }
  return clip(first || row.fileName);
}
