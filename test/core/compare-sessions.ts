/**
 * A session with two known branches written by pi's own SessionManager (coding agent 1.6.0), and a
 * fork of one branch into another file of the same family. Shared by the compare and `canopy diff` tests.
 *
 *   u1 → a1 (write src/a.ts) → r1 → a1b ─┬→ uA → aA (edit src/a.ts two→TWO, edit src/b.ts, failed edit src/c.ts) → … → leafA
 *                                        └→ uB → aB (edit src/a.ts three→3, failed edit one→ONE, bash) → … → leafB
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPi, type CaSessionManager } from '../oracle/pi-modules';

export const CWD = '/home/alice/proj';

let calls = 0;
function usage(cost: number) {
  return {
    input: 100,
    output: 20,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 120,
    cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost },
  };
}

function user(text: string) {
  return { role: 'user', content: [{ type: 'text', text }], timestamp: Date.now() };
}

function assistant(content: unknown[], cost: number, stopReason = 'toolUse') {
  return {
    role: 'assistant',
    content,
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    usage: usage(cost),
    stopReason,
    timestamp: Date.now(),
  };
}

/** An assistant message calling one tool, and its result. */
function call(sm: CaSessionManager, name: string, args: unknown, cost: number, ok = true): string {
  const id = `call_${++calls}`;
  sm.appendMessage(assistant([{ type: 'toolCall', id, name, arguments: args }], cost));
  return sm.appendMessage({
    role: 'toolResult',
    toolCallId: id,
    toolName: name,
    content: [{ type: 'text', text: ok ? `ok ${name}` : `Could not ${name}: text not found` }],
    isError: !ok,
    timestamp: Date.now(),
  });
}

export interface Family {
  dir: string;
  file: string;
  forkFile: string;
  ancestorId: string;
  leafA: string;
  leafB: string;
  /** The fork's own leaf (after the entries copied from B's path). */
  forkLeaf: string;
  /** pi's own getBranch ids, root first. */
  branchA: string[];
  branchB: string[];
  branchFork: string[];
  cleanup(): void;
}

/** Writes the family into `into` (default: a new temp dir, removed by cleanup). */
export async function writeFamily(into?: string): Promise<Family> {
  const { ca } = await loadPi();
  const dir = into ?? mkdtempSync(join(tmpdir(), 'canopy-compare-'));
  const sm = ca.SessionManager.create(CWD, dir);
  sm.appendMessage(user('create the file'));
  call(sm, 'write', { path: 'src/a.ts', content: 'one\ntwo\nthree\n' }, 0.01);
  const ancestorId = sm.appendMessage(assistant([{ type: 'text', text: 'written' }], 0.005, 'stop'));

  sm.appendMessage(user('make it loud'));
  call(sm, 'edit', { path: 'src/a.ts', edits: [{ oldText: 'two', newText: 'TWO' }] }, 0.02);
  call(sm, 'edit', { path: `${CWD}/src/b.ts`, oldText: 'let x = 1;', newText: 'let x = 2;' }, 0.02);
  call(sm, 'edit', { path: 'src/c.ts', edits: [{ oldText: 'nope', newText: 'yes' }] }, 0.01, false);
  sm.appendThinkingLevelChange('high');
  const leafA = sm.appendMessage(assistant([{ type: 'text', text: 'louder now' }], 0.003, 'stop'));
  const branchA = sm.getBranch(leafA).map((e) => e.id);

  sm.branch(ancestorId);
  sm.appendMessage(user('make it quiet'));
  call(sm, 'edit', { path: 'src/a.ts', edits: JSON.stringify([{ oldText: 'three', newText: '3' }]) }, 0.04);
  call(sm, 'edit', { path: 'src/a.ts', edits: [{ oldText: 'one', newText: 'ONE' }] }, 0.01, false);
  call(sm, 'bash', { command: 'sed -i s/x/y/ src/d.ts' }, 0.01);
  sm.appendModelChange('openai', 'gpt-5');
  const leafB = sm.appendMessage(assistant([{ type: 'text', text: 'quiet now' }], 0.002, 'stop'));
  const branchB = sm.getBranch(leafB).map((e) => e.id);
  const file = sm.getSessionFile()!;

  // A fork of B's branch into a new file of the family, continued there.
  sm.createBranchedSession(leafB);
  sm.appendMessage(user('and shorter'));
  call(sm, 'write', { path: 'src/e.ts', content: 'short\n' }, 0.03);
  const forkLeaf = sm.appendMessage(assistant([{ type: 'text', text: 'short now' }], 0.001, 'stop'));
  const branchFork = sm.getBranch(forkLeaf).map((e) => e.id);
  const forkFile = sm.getSessionFile()!;
  return {
    dir,
    file,
    forkFile,
    ancestorId,
    leafA,
    leafB,
    forkLeaf,
    branchA,
    branchB,
    branchFork,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** pi's entries of a file by id (for the usage each side should sum). */
export function entriesById(file: string): Map<string, Record<string, any>> {
  const out = new Map<string, Record<string, any>>();
  for (const l of readFileSync(file, 'utf8').split('\n').slice(1)) {
    if (!l) continue;
    const e = JSON.parse(l) as Record<string, any>;
    out.set(e.id as string, e);
  }
  return out;
}

/** pi's path walk's common ancestor: the deepest entry both root-first branches hold. */
export function piAncestor(a: string[], b: string[]): string | null {
  const inA = new Set(a);
  for (let k = b.length - 1; k >= 0; k--) if (inA.has(b[k]!)) return b[k]!;
  return null;
}
