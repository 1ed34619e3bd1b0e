/**
 * The common ancestor under the harness's (H3) path rules, on a session pi-agent-core's own Session
 * wrote: a compaction with a retained tail ends H3's walk, so a branch that left before it shares
 * no entry with one after it, while the coding agent's (CA) walk still meets them below it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareBranches, detectProfile, parseSessionText, type ParsedSession } from '../../electron/core';
import { loadPi } from '../oracle/pi-modules';
import { piAncestor } from './compare-sessions';

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], timestamp: Date.now() });
const reply = (text: string) => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  api: 'anthropic-messages',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  usage: {
    input: 10,
    output: 5,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 15,
    cost: { input: 0.001, output: 0.001, cacheRead: 0, cacheWrite: 0, total: 0.002 },
  },
  stopReason: 'stop',
  timestamp: Date.now(),
});

let dir: string;
let s: ParsedSession;
const ids: Record<string, string> = {};
const branches: Record<string, string[]> = {};

beforeAll(async () => {
  const pi = await loadPi();
  dir = mkdtempSync(join(tmpdir(), 'canopy-compare-h3-'));
  const env = new pi.NodeExecutionEnv({ cwd: '/home/alice/proj' });
  const repo = new pi.h3.JsonlSessionRepo({ fs: env, sessionsRoot: dir });
  const session = await repo.create({ cwd: '/home/alice/proj' });
  await session.appendMessage(user('start') as never);
  ids.a1 = await session.appendMessage(reply('started') as never);
  ids.c1 = await session.appendCompaction('summary', undefined, 1000, undefined, undefined, undefined, [
    reply('started') as never,
  ]);
  await session.appendMessage(user('after the checkpoint') as never);
  ids.leafA = await session.appendMessage(reply('A') as never);
  await session.moveTo(ids.c1);
  await session.appendMessage(user('also after it') as never);
  ids.leafC = await session.appendMessage(reply('C') as never);
  await session.moveTo(ids.a1);
  await session.appendMessage(user('before the checkpoint') as never);
  ids.leafB = await session.appendMessage(reply('B') as never);
  for (const k of ['leafA', 'leafB', 'leafC']) branches[k] = (await session.getBranch(ids[k])).map((e) => e.id);
  s = parseSessionText(readFileSync((await session.getMetadata()).path, 'utf8'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compareBranches under H3 path rules', () => {
  it('is an H3 session whose walk stops at the retained-tail compaction', () => {
    expect(detectProfile(s)).toBe('h3');
    expect(branches.leafA![0]).toBe(ids.c1);
  });

  it('two branches after the checkpoint meet at it, as pi’s getBranch walks say', () => {
    const c = compareBranches({ session: s, leafId: ids.leafA! }, { session: s, leafId: ids.leafC! });
    expect(c.ancestorId).toBe(piAncestor(branches.leafA!, branches.leafC!));
    expect(c.ancestorId).toBe(ids.c1);
    expect(c.sides[1].entryIds).toEqual(branches.leafC!.slice(1));
  });

  it('a branch from before the checkpoint shares no entry with one after it (H3), but meets it below (CA)', () => {
    const h3 = compareBranches({ session: s, leafId: ids.leafA! }, { session: s, leafId: ids.leafB! });
    expect(piAncestor(branches.leafA!, branches.leafB!)).toBeNull();
    expect(h3.ancestorId).toBeNull();
    expect(h3.sides[0].entryIds).toEqual(branches.leafA);
    expect(h3.sides[1].entryIds).toEqual(branches.leafB);
    const ca = compareBranches(
      { session: s, leafId: ids.leafA!, profile: 'ca' },
      { session: s, leafId: ids.leafB!, profile: 'ca' },
    );
    expect(ca.ancestorId).toBe(ids.a1);
  });
});
