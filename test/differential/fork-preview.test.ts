/**
 * The fork preview reads its plan back from values (no text): on every corpus file, for a fork
 * before and at up to 12 entries spread over the file (its first and last among them) and a clone,
 * under both profiles, it equals the preview made the long way, by writing the plan's text as
 * repo/fork.ts does and parsing that text.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildContextView,
  forkFileLines,
  parseSessionText,
  planFork,
  previewFork,
  readSessionDetailed,
  type ForkEnv,
  type ForkRequest,
  type ParsedSession,
} from '../../electron/core';
import { makeCorpus, type CorpusHandle } from './support';

function env(): ForkEnv {
  let n = 0;
  return {
    sourcePath: '/s/src.jsonl',
    newSessionId: '019c0000-0000-7000-8000-0000000000f0',
    now: '2026-02-02T00:00:00.000Z',
    newEntryId: () => `n${n++}`,
  };
}

/** The preview's counts taken from the written text, parsed. */
function fromText(s: ParsedSession, req: ForkRequest) {
  const plan = planFork(s, req, env());
  if (!plan.ok) return plan;
  const planned = parseSessionText([...forkFileLines(plan)].join(''));
  const view = buildContextView(planned, readSessionDetailed(planned, { profile: req.profile }));
  return {
    ok: true as const,
    entryCount: plan.entries.length,
    leafId: plan.leafId,
    messageCount: view.messages.length,
    tokens: view.tokens.total,
  };
}

describe('fork preview read back from values equals read back from text', () => {
  let corpus: CorpusHandle;
  beforeAll(async () => {
    corpus = await makeCorpus('fork-preview', { perWriter: 3 });
  }, 120_000);
  afterAll(() => corpus?.cleanup());

  it('drops what the planner left undefined, as the written file does (a label without a timestamp, a compaction without firstKeptEntryId)', () => {
    const t = (k: number) => `2026-03-01T10:00:0${k}.000Z`;
    const lines = [
      { type: 'session', version: 3, id: '019c0000-0000-7000-8000-0000000000f1', timestamp: t(0), cwd: '/w' },
      {
        type: 'message',
        id: 'u1',
        parentId: null,
        timestamp: t(1),
        message: { role: 'user', content: 'hi', timestamp: 1 },
      },
      { type: 'label', id: 'l1', parentId: 'u1', targetId: 'u1', label: 'start' },
      { type: 'compaction', id: 'c1', parentId: 'l1', timestamp: t(3), summary: 'so far', tokensBefore: 10 },
      {
        type: 'message',
        id: 'u2',
        parentId: 'c1',
        timestamp: t(4),
        message: { role: 'user', content: 'more', timestamp: 4 },
      },
    ];
    const s = parseSessionText(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    for (const profile of ['ca', 'h3'] as const) {
      for (const req of [
        { kind: 'clone', profile },
        { kind: 'fork', profile, entryId: 'u2', position: 'at' },
      ] as ForkRequest[]) {
        const want = fromText(s, req);
        const got = previewFork(s, req, env());
        expect(
          got.ok && {
            ok: got.ok,
            entryCount: got.entryCount,
            leafId: got.leafId,
            messageCount: got.context.messageCount,
            tokens: got.context.tokens,
          },
        ).toEqual(want.ok && want);
      }
    }
  });

  it('on every corpus file, position and profile, at entries spread over each file', () => {
    let compared = 0;
    for (const file of corpus.files) {
      if (file.cyclic) continue;
      const s = parseSessionText(readFileSync(file.path, 'utf8'));
      if (s.fatal) continue;
      for (const profile of ['ca', 'h3'] as const) {
        const requests: ForkRequest[] = [{ kind: 'clone', profile }];
        const step = Math.max(1, Math.ceil(s.entries.length / 11));
        const picked = s.entries.filter((_, k) => k % step === 0 || k === s.entries.length - 1);
        for (const e of picked)
          for (const position of ['before', 'at'] as const)
            requests.push({ kind: 'fork', profile, entryId: e.id, position });
        for (const req of requests) {
          const want = fromText(s, req);
          const got = previewFork(s, req, env());
          if (!want.ok || !got.ok) {
            expect(got.ok, `${file.name} ${JSON.stringify(req)}`).toBe(want.ok);
            continue;
          }
          expect(
            {
              ok: got.ok,
              entryCount: got.entryCount,
              leafId: got.leafId,
              messageCount: got.context.messageCount,
              tokens: got.context.tokens,
            },
            `${file.name} ${JSON.stringify(req)}`,
          ).toEqual(want);
          compared++;
        }
      }
    }
    console.log(`[fork-preview] ${compared} previews compared on ${corpus.files.length} files`);
    expect(compared).toBeGreaterThan(500);
  }, 300_000);
});
