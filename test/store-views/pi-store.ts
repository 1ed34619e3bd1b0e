/**
 * A small store written by pi's own SessionManager (coding agent 1.6.0): sessions over several UTC
 * days and models, an abandoned branch, a /fork (createBranchedSession before a user message), a
 * /clone of the fork (at its leaf) that goes on, an unpriced model, and an image-bearing session.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withDeterminism } from '../fixtures/corpus/determinism';
import { loadPi, type CaSessionManager } from '../oracle/pi-modules';

export const CWD_A = '/home/alice/proj';
export const CWD_B = '/home/alice/other';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 3, 22, 0, 0);

function assistant(model: string, n: number, now: number, priced = true): Record<string, unknown> {
  const input = 100 * n;
  const output = 20 * n;
  const cacheRead = 7 * n;
  const cacheWrite = 3 * n;
  const cost = priced
    ? { input: n * 0.001, output: n * 0.002, cacheRead: 0, cacheWrite: 0, total: n * 0.003 }
    : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  return {
    role: 'assistant',
    content: [{ type: 'text', text: `answer ${n}` }],
    api: 'anthropic-messages',
    provider: priced ? 'anthropic' : 'local',
    model,
    usage: { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost },
    stopReason: 'stop',
    timestamp: now,
  };
}

const user = (text: string, now: number, image?: string): Record<string, unknown> => ({
  role: 'user',
  content: image
    ? [
        { type: 'text', text },
        { type: 'image', data: image, mimeType: 'image/png' },
      ]
    : text,
  timestamp: now,
});

export interface PiStore {
  root: string;
  files: { a: string; fork: string; clone: string; other: string };
}

/** Writes the store under `root` (a sessions root). */
export async function writePiStore(root: string): Promise<PiStore> {
  const pi = await loadPi();
  const SM = pi.ca.SessionManager;
  return withDeterminism(24, async (det) => {
    const dirA = join(root, '--home-alice-proj--');
    const dirB = join(root, '--home-alice-other--');
    mkdirSync(dirA, { recursive: true });
    mkdirSync(dirB, { recursive: true });
    det.clock.set(T0);
    const a: CaSessionManager = SM.create(CWD_A, dirA);
    let n = 1;
    const turn = (sm: CaSessionManager, model: string, priced = true, image?: string): string => {
      sm.appendMessage(user(`question ${n}`, det.clock.now(), image));
      det.clock.advance(90 * 60_000); // turns cross UTC midnight
      return sm.appendMessage(assistant(model, n++, det.clock.now(), priced));
    };
    turn(a, 'claude-sonnet-4-5');
    const branchPoint = turn(a, 'claude-opus-4-1');
    turn(a, 'claude-sonnet-4-5');
    turn(a, 'claude-opus-4-1'); // abandoned below
    a.branch(branchPoint);
    turn(a, 'claude-sonnet-4-5');
    const aFile = a.getSessionFile()!;

    // /fork before the second user message: the fork holds the first turn, copied verbatim.
    det.clock.advance(DAY);
    const src = SM.open(aFile);
    const secondUser = src.getEntries().filter((e) => e.type === 'message' && e.message?.role === 'user')[1]!;
    src.createBranchedSession(secondUser.parentId!);
    turn(src, 'gpt-5-codex');
    turn(src, 'claude-sonnet-4-5');
    const forkFile = src.getSessionFile()!;

    // /clone of the fork at its leaf, then it goes on.
    det.clock.advance(DAY);
    const c = SM.open(forkFile);
    c.createBranchedSession(c.getLeafId()!);
    turn(c, 'gpt-5-codex');
    const cloneFile = c.getSessionFile()!;

    // Another project, an unpriced local model, and a screenshot.
    det.clock.advance(DAY);
    const o = SM.create(CWD_B, dirB);
    turn(o, 'qwen-local', false, 'iVBORw0KGgo'.repeat(3000));
    turn(o, 'claude-sonnet-4-5');
    return { root, files: { a: aFile, fork: forkFile, clone: cloneFile, other: o.getSessionFile()! } };
  });
}

/** A written session's lines, parsed (tests read what pi wrote). */
export type JsonLine = Record<string, any>;
export function readJsonl(file: string): JsonLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as JsonLine);
}
