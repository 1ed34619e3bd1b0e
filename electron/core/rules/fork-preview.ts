/**
 * What a fork or clone would write, without writing it: the plan of planFork read back as the new
 * file would be read (same profile), so the preview's counts are those of the real file. PURE.
 */
import { buildContextView } from './context-view';
import { planFork, type ForkEnv, type ForkRequest } from './fork';
import { readSessionDetailed } from './reading';
import { sessionFileName } from './naming';
import { sessionOfValues } from './parse';
import { indexById } from './entries';
import type { ForkPreview } from '../../shared/context-dto';
import type { ParsedSession } from '../types';

export type { ForkPreview } from '../../shared/context-dto';

type Rec = Record<string, unknown>;

/**
 * The value JSON.parse would give for `e` written with JSON.stringify: the planner builds entries
 * from parsed bodies, so only keys it set to undefined (a missing timestamp or firstKeptEntryId)
 * differ; they are dropped as the file would drop them. Nothing else is copied.
 */
function asWritten(e: Rec): Rec {
  for (const k in e) {
    if (e[k] === undefined) return Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined));
  }
  return e;
}

export function previewFork(s: ParsedSession, req: ForkRequest, env: ForkEnv): ForkPreview {
  const plan = planFork(s, req, env);
  if (!plan.ok) return plan;
  const source = indexById(s);
  const fresh = plan.entries.filter((e) => !source.has(e.id as string)).length;
  // The plan read back as the new file would be, without writing and re-parsing its text (a long
  // path's bodies are hundreds of MB): line k + 2 holds entry k.
  const values = [
    { line: 1, value: asWritten(plan.header as unknown as Rec) as unknown },
    ...plan.entries.map((e, k) => ({ line: k + 2, value: asWritten(e) as unknown })),
  ];
  const planned = sessionOfValues(values);
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
