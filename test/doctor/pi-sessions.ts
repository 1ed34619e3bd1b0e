/**
 * Sessions written by pi 1.6.0's own SessionManager for the doctor's tests, the helpers that damage
 * them the way old pi versions did, and pi's reading of a file (its context, path and leaf).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadPi, type CaSessionManager } from '../oracle/pi-modules';

export const CWD = '/home/alice/proj';

const USAGE = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 },
};

const T0 = Date.UTC(2026, 10, 1, 9);
let clock = T0;
const tick = (): number => (clock += 1000);

export const user = (text: string): Record<string, unknown> => ({ role: 'user', content: text, timestamp: tick() });

export function assistant(content: unknown[], stopReason?: string): Record<string, unknown> {
  const calls = content.some((c) => (c as { type?: string }).type === 'toolCall');
  return {
    role: 'assistant',
    content,
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    usage: USAGE,
    stopReason: stopReason ?? (calls ? 'toolUse' : 'stop'),
    timestamp: tick(),
  };
}

export const text = (t: string) => ({ type: 'text', text: t });
export const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({
  type: 'toolCall',
  id,
  name,
  arguments: args,
});

export function result(toolCallId: string, toolName: string, out: string, isError = false, timestamp = tick()) {
  return {
    role: 'toolResult',
    toolCallId,
    toolName,
    content: [{ type: 'text', text: out }],
    details: isError ? {} : { ok: true },
    isError,
    timestamp,
  };
}

/** pi 1.6.0's result for a call Esc stopped before it ran (agent-loop's error result). */
export const aborted = (toolCallId: string, toolName: string, timestamp: number) => ({
  ...result(toolCallId, toolName, 'Operation aborted', true, timestamp),
  details: {},
});

/** A new session in `dir`, built by `build` through pi's SessionManager; returns its file. */
export async function piSession(dir: string, build: (sm: CaSessionManager) => void): Promise<string> {
  const pi = await loadPi();
  mkdirSync(dir, { recursive: true });
  clock = T0; // two builds of one session give their messages the same times
  const sm = pi.ca.SessionManager.create(CWD, dir);
  build(sm);
  return sm.getSessionFile()!;
}

export const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
export const linesOf = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter(Boolean);

/** Writes `lines` (each without its newline) as a file next to nothing else: the damaged copy. */
export function writeLines(file: string, lines: string[]): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
  return file;
}

let scratchN = 0;

/** pi 1.6.0's reading of a file, opened from a copy (SessionManager.open may rewrite what it opens). */
export async function piRead(file: string, scratchDir: string) {
  const pi = await loadPi();
  mkdirSync(scratchDir, { recursive: true });
  const scratch = join(scratchDir, `read-${scratchN++}.jsonl`);
  copyFileSync(file, scratch);
  const sm = pi.ca.SessionManager.open(scratch, join(scratchDir, 'dir'));
  const entries = sm.getEntries();
  const ids = new Set(entries.map((e) => e.id));
  return {
    header: sm.getHeader()!,
    leaf: sm.getLeafId(),
    path: sm.getBranch(),
    /** Entries whose parent is in no line of the file. */
    dangling: entries.filter((e) => e.parentId !== null && !ids.has(e.parentId)).map((e) => e.id),
    context: JSON.parse(JSON.stringify(sm.buildSessionContext())) as {
      messages: any[];
      model: unknown;
      thinkingLevel: string;
    },
  };
}
