/**
 * What a fork or clone would write, without writing it: the plan of planFork read back as the new
 * file would be read (same profile), so the preview's counts are those of the real file. PURE.
 */
import { buildContextView } from './context-view';
import { planFork, type ForkEnv, type ForkRequest } from './fork';
import { readSessionDetailed } from './reading';
import { sessionFileName } from './naming';
import { parseSessionText } from './parse';
import { indexById } from './entries';
import type { ForkPreview } from '../../shared/context-dto';
import type { ParsedSession } from '../types';

export type { ForkPreview } from '../../shared/context-dto';

/** The new file's text exactly as repo/fork.ts serialises it. */
function serialise(header: unknown, entries: readonly unknown[]): string {
  let out = `${JSON.stringify(header)}\n`;
  for (const e of entries) out += `${JSON.stringify(e)}\n`;
  return out;
}

export function previewFork(s: ParsedSession, req: ForkRequest, env: ForkEnv): ForkPreview {
  const plan = planFork(s, req, env);
  if (!plan.ok) return plan;
  const source = indexById(s);
  const fresh = plan.entries.filter((e) => !source.has(e.id as string)).length;
  const planned = parseSessionText(serialise(plan.header, plan.entries));
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
