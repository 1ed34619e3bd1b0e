/**
 * What a fork or clone would write, without writing it: the plan of planFork read back as the new
 * file would be read (same profile), so the preview's counts are those of the real file. PURE.
 */
import { buildContextView } from './context-view';
import { forkFileLines, planFork, type ForkEnv, type ForkRequest } from './fork';
import { readSessionDetailed } from './reading';
import { sessionFileName } from './naming';
import { parseSession, type RawLine } from './parse';
import { indexById } from './entries';
import type { ForkPreview } from '../../shared/context-dto';
import type { ParsedSession } from '../types';

export type { ForkPreview } from '../../shared/context-dto';

/**
 * An image block's data, left out of the preview's copy: what the preview counts (entries, context
 * messages, estimated tokens: 1200 per image whatever its size) never reads it, and a screenshot-heavy
 * path would otherwise be held twice.
 */
function noImageData(this: unknown, key: string, value: unknown): unknown {
  return key === 'data' && typeof value === 'string' && (this as { type?: unknown }).type === 'image' ? '' : value;
}

/** The new file read back line by line, as repo/fork.ts writes it (forkFileLines). */
function* planLines(lines: Iterable<string>): Generator<RawLine> {
  let line = 0;
  for (const text of lines) yield { line: ++line, text: text.slice(0, -1), complete: true };
}

export function previewFork(s: ParsedSession, req: ForkRequest, env: ForkEnv): ForkPreview {
  const plan = planFork(s, req, env);
  if (!plan.ok) return plan;
  const source = indexById(s);
  const fresh = plan.entries.filter((e) => !source.has(e.id as string)).length;
  const planned = parseSession(planLines(forkFileLines(plan, noImageData)));
  const reading = readSessionDetailed(planned, { profile: req.profile });
  const view = buildContextView(planned, reading);
  return {
    ok: true,
    profile: req.profile,
    fileName: sessionFileName(plan.header.timestamp, plan.header.id),
    entryCount: plan.entries.length,
    newEntryCount: fresh,
    leafId: plan.leafId,
    leafIsNew: plan.leafId !== null && !source.has(plan.leafId),
    context: { messageCount: view.messages.length, tokens: view.tokens.total },
  };
}
