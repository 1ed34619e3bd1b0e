/**
 * `canopy usage` against an independent sum over a store pi itself wrote (forks and clones by
 * pi's createBranchedSession): every assistant message counted once per fork family.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli';
import { readJsonl, writePiStore, type PiStore } from './pi-store';

let store: PiStore;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-usage-'));
  store = await writePiStore(join(tmp, 'sessions'));
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const jsonl = readJsonl;

function allFiles(root: string): string[] {
  return readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((f) => join(root, d, f)));
}

/** The oracle: families by parentSession, (id, timestamp) once per family, summed per day and model. */
function independentSum(root: string) {
  const files = allFiles(root);
  const parent = new Map<string, string>();
  for (const f of files) {
    const h = jsonl(f)[0]!;
    if (h.parentSession) parent.set(f, h.parentSession as string);
  }
  const familyOf = (f: string): string => (parent.has(f) ? familyOf(parent.get(f)!) : f);
  const seen = new Set<string>();
  const groups = new Map<
    string,
    { cost: number; messages: number; input: number; output: number; cacheRead: number; cacheWrite: number }
  >();
  let perFileCost = 0;
  let perFileMessages = 0;
  for (const f of files) {
    for (const e of jsonl(f).slice(1)) {
      if (e.type !== 'message' || e.message.role !== 'assistant') continue;
      const u = e.message.usage;
      perFileCost += u.cost.total;
      perFileMessages++;
      const key = `${familyOf(f)} ${e.id} ${e.timestamp}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const g = `${new Date(e.timestamp).toISOString().slice(0, 10)} ${e.message.model}`;
      const t = groups.get(g) ?? { cost: 0, messages: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      t.cost += u.cost.total;
      t.messages++;
      t.input += u.input;
      t.output += u.output;
      t.cacheRead += u.cacheRead;
      t.cacheWrite += u.cacheWrite;
      groups.set(g, t);
    }
  }
  return { groups, perFileCost, perFileMessages };
}

describe('canopy usage', () => {
  it('counts each message once per fork family, per day and model, as an independent sum does', async () => {
    const run = await cli('usage', '--root', store.root, '--by', 'day,model', '--json');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const oracle = independentSum(store.root);
    const rows = run.json.slice(0, -1);
    const got = new Map(rows.map((r) => [`${r.day} ${r.model}`, r]));
    expect([...got.keys()].sort()).toEqual([...oracle.groups.keys()].sort());
    for (const [k, t] of oracle.groups) {
      const r = got.get(k)!;
      expect(r.messages, k).toBe(t.messages);
      expect(r.cost, k).toBeCloseTo(t.cost, 10);
      for (const f of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) expect(r[f], `${k} ${f}`).toBe(t[f]);
    }
    const last = run.json.at(-1)!;
    const msgs = [...oracle.groups.values()].reduce((n, t) => n + t.messages, 0);
    expect(last.total.messages).toBe(msgs);
    // The fork copied one turn and the clone copied the fork's three: duplicates are what a per-file sum adds.
    expect(last.duplicates.messages).toBe(oracle.perFileMessages - msgs);
    expect(last.duplicates.messages).toBe(4);
    expect(last.total.cost + last.duplicates.cost).toBeCloseTo(oracle.perFileCost, 10);
  });

  it('splits spend into active path, other sessions and abandoned branches, and flags unpriced models', async () => {
    const run = await cli('usage', '--root', store.root, '--by', 'session', '--json');
    const rows = run.json.slice(0, -1);
    for (const r of rows) {
      expect(r.active.messages + r.otherSessions.messages + r.abandoned.messages).toBe(r.messages);
    }
    const a = rows.find((r) => r.session === jsonl(store.files.a)[0]!.id)!;
    // Session A: turns 1, 2 and 5 on its path, turns 3–4 abandoned (no fork carries them).
    expect(a.messages).toBe(5);
    expect(a.active.messages).toBe(3);
    expect(a.abandoned.messages).toBe(2);
    const last = run.json.at(-1)!;
    expect(last.total.unpricedMessages).toBe(1);
    expect(last.total.unpricedModels).toEqual(['local/qwen-local']);
    const byModel = await cli('usage', '--root', store.root, '--by', 'model', '--json');
    const qwen = byModel.json.find((r) => r.model === 'qwen-local')!;
    expect(qwen.unpricedMessages).toBe(1);
    expect(qwen.input).toBeGreaterThan(0);
  });

  it('filters by UTC day and refuses bad options with exit 2', async () => {
    const all = await cli('usage', '--root', store.root, '--by', 'day', '--json');
    const days = all.json.slice(0, -1).map((r) => r.day as string);
    expect(days).toEqual([...days].sort());
    const one = await cli(
      'usage',
      '--root',
      store.root,
      '--by',
      'day',
      '--since',
      days[1]!,
      '--until',
      days[1]!,
      '--json',
    );
    expect(one.json.slice(0, -1).map((r) => r.day)).toEqual([days[1]]);
    expect((await cli('usage', '--root', store.root, '--by', 'week')).code).toBe(2);
    expect((await cli('usage', '--root', store.root, '--since', 'yesterday')).code).toBe(2);
  });
});
