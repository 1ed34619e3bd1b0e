/**
 * Real context views for renderer tests: a small session read by electron/core, turned into the
 * DTOs main sends (session.open's graph and session.context's view).
 */
import {
  buildContextView,
  parseSessionText,
  readSessionDetailed,
  type ParsedSession,
  type Profile,
} from '../../electron/core';
import type { ContextViewDto, ForkPreviewDto, LineageDto } from '../../electron/shared/context-dto';
import { packEntryStates } from '../../electron/shared/entry-states';
import type { EntryNodeDto, SessionGraphDto } from '../../electron/shared/dto';

type Rec = Record<string, unknown>;

let t = 0;
const at = () => new Date(Date.UTC(2026, 0, 1) + ++t * 1000).toISOString();
const usage = { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120, cost: { total: 0.01 } };

const user = (id: string, parentId: string | null, text: string): Rec => ({
  type: 'message',
  id,
  parentId,
  timestamp: at(),
  message: { role: 'user', content: text, timestamp: 1 },
});
const assistant = (id: string, parentId: string, text: string): Rec => ({
  type: 'message',
  id,
  parentId,
  timestamp: at(),
  message: {
    role: 'assistant',
    content: [{ type: 'text', text }],
    provider: 'anthropic',
    model: 'claude-x',
    usage,
    stopReason: 'stop',
    timestamp: 2,
  },
});

/**
 * u1 → a1 → m1 (model) → u2 → a2 → c1 (compaction, keeps from u2) → u3 → l1 (label) → b1 (!! bash) → a3 (leaf)
 *            └ x1 → y1 (another branch)
 */
export const FIXTURE_LINES: Rec[] = [
  { type: 'session', version: 3, id: 'sess-1', timestamp: at(), cwd: '/home/alice/proj' },
  user('u1', null, 'Find the slow test'),
  assistant('a1', 'u1', 'It is the watcher test.'),
  user('x1', 'a1', 'Abandoned question'),
  assistant('y1', 'x1', 'An answer on the abandoned branch.'),
  { type: 'model_change', id: 'm1', parentId: 'a1', timestamp: at(), provider: 'openai', modelId: 'gpt-5' },
  user('u2', 'm1', 'Fix it please'),
  assistant('a2', 'u2', 'Fixed: waits for the event now.'),
  {
    type: 'compaction',
    id: 'c1',
    parentId: 'a2',
    timestamp: at(),
    summary: '## Goal\nFix the slow test',
    firstKeptEntryId: 'u2',
    tokensBefore: 5000,
    details: { readFiles: ['a.ts'], modifiedFiles: ['b.ts'] },
  },
  user('u3', 'c1', 'Now run it'),
  { type: 'label', id: 'l1', parentId: 'u3', timestamp: at(), targetId: 'u3', label: 'ran tests' },
  {
    type: 'message',
    id: 'b1',
    parentId: 'l1',
    timestamp: at(),
    message: {
      role: 'bashExecution',
      command: 'npm test',
      output: 'ok',
      exitCode: 0,
      excludeFromContext: true,
      timestamp: 3,
    },
  },
  assistant('a3', 'b1', 'All green.'),
];

export function fixtureSession(): ParsedSession {
  return parseSessionText(FIXTURE_LINES.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

function nodeOf(e: ParsedSession['entries'][number]): EntryNodeDto {
  const m = e.raw.message as Rec | undefined;
  const node: EntryNodeDto = {
    id: e.id,
    parentId: e.parentId,
    type: e.type,
    line: e.line,
    timestamp: e.timestamp,
    preview: `preview of ${e.id}`,
  };
  if (m && typeof m.role === 'string') node.role = m.role;
  if (m?.role === 'assistant') node.hasText = true;
  if (e.type === 'compaction') {
    node.checkpoint = 'first-kept';
    node.firstKeptEntryId = String(e.raw.firstKeptEntryId);
  }
  return node;
}

export function fixture(opts: { profile?: Profile; leafId?: string; sessionId?: string } = {}): {
  graph: SessionGraphDto;
  view: ContextViewDto;
} {
  const s = fixtureSession();
  const profile = opts.profile ?? 'ca';
  const sessionId = opts.sessionId ?? 's1';
  const current = readSessionDetailed(s, { profile });
  const reading = opts.leafId === undefined ? current : readSessionDetailed(s, { profile, leafId: opts.leafId });
  const core = buildContextView(s, reading);
  const view = JSON.parse(
    JSON.stringify({ sessionId, detectedProfile: 'ca', issues: [], ...core, entries: packEntryStates(core.entries) }),
  ) as ContextViewDto;
  const graph: SessionGraphDto = {
    sessionId,
    cwd: '/home/alice/proj',
    path: '/sessions/x.jsonl',
    header: s.header as unknown as Record<string, unknown>,
    profile,
    detectedProfile: 'ca',
    entries: s.entries.map(nodeOf),
    leafId: current.leafId,
    pathIds: current.pathIds,
    contextEntryIds: current.contextEntryIds,
    labels: {},
    sessionName: null,
    issues: [],
    sizeBytes: 4096,
  };
  return { graph, view };
}

export function okPreview(entryCount = 4): Extract<ForkPreviewDto, { ok: true }> {
  return {
    ok: true,
    profile: 'ca',
    fileName: '2026-02-01T10-00-00-000Z_0199aaaa-0000-7000-8000-000000000001.jsonl',
    directory: '/sessions/--home-alice-proj--',
    entryCount,
    newEntryCount: 0,
    leafId: 'a1',
    leafIsNew: false,
    context: { messageCount: 2, tokens: 40 },
  };
}

export function lineage(extra: Partial<LineageDto> = {}): LineageDto {
  return { sessionId: 's1', parent: null, missingParentPath: null, children: [], ...extra };
}
