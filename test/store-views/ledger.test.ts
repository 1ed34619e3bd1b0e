/**
 * `canopy usage --by provider,model` against pi's own breakdown (`getUsageCostBreakdown`,
 * pi-coding-agent 1.6.0's dist/core/usage-totals.js) over each fork family's entries, on sessions
 * pi's SessionManager wrote with a gateway's responseModel, provider-billed totals, cacheWrite1h and
 * reasoning, tool-result usage, compaction and branch-summary usage, a cache-warming `usage` entry
 * and a /fork; then lines pi's types do not allow, which are listed as problems and never summed.
 */
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli';
import { withDeterminism } from '../fixtures/corpus/determinism';
import { loadPi, type CaEntry, type CaSessionManager } from '../oracle/pi-modules';
import { readJsonl } from './pi-store';

type Breakdown = (entries: CaEntry[]) => { key: string; cost: number; tokens: number }[];

let tmp: string;
let root: string;
let files: { a: string; fork: string };

const usageOf = (n: number, cost: Record<string, unknown>, extra: Record<string, number> = {}) => ({
  input: 100 * n,
  output: 40 * n,
  cacheRead: 10 * n,
  cacheWrite: 6 * n,
  totalTokens: 156 * n,
  ...extra,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...cost },
});

function assistant(n: number, now: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    role: 'assistant',
    content: [{ type: 'text', text: `answer ${n}` }],
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    usage: usageOf(n, { total: n * 0.01 }),
    stopReason: 'stop',
    timestamp: now,
    ...over,
  };
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-ledger-'));
  root = join(tmp, 'sessions');
  const dir = join(root, '--home-bob-proj--');
  mkdirSync(dir, { recursive: true });
  const pi = await loadPi();
  files = await withDeterminism(43, async (det) => {
    det.clock.set(Date.UTC(2026, 11, 1, 9));
    const a: CaSessionManager = pi.ca.SessionManager.create('/home/bob/proj', dir);
    const user = (text: string) => a.appendMessage({ role: 'user', content: text, timestamp: det.clock.now() });
    user('q1');
    a.appendMessage(assistant(1, det.clock.now()));
    user('q2');
    // A gateway routed "auto" to a concrete model and billed it: keyed by the model that answered.
    a.appendMessage(
      assistant(2, det.clock.now(), {
        api: 'openai-completions',
        provider: 'openrouter',
        model: 'auto',
        responseModel: 'anthropic/claude-opus-4.1',
        usage: usageOf(2, { total: 0.5, totalFromProvider: true }, { cacheWrite1h: 4, reasoning: 30 }),
      }),
    );
    a.appendMessage({
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'web_search',
      content: [{ type: 'text', text: 'results' }],
      usage: usageOf(1, { total: 0.002 }),
      isError: false,
      timestamp: det.clock.now(),
    });
    a.appendUsage('cache_warm', 'anthropic', 'claude-sonnet-4-5', usageOf(3, { total: 0.03 }), 'warmed');
    const kept = a.appendMessage(assistant(3, det.clock.now()));
    a.appendCompaction('summary', kept, 5000, undefined, false, usageOf(1, { total: 0.004 }));
    user('q3');
    const abandoned = a.appendMessage(assistant(4, det.clock.now(), { provider: 'openai', model: 'gpt-5' }));
    a.branchWithSummary(kept, 'left a branch', undefined, false, usageOf(1, { total: 0.001 }));
    void abandoned;
    user('q4');
    a.appendMessage(assistant(5, det.clock.now()));
    const aFile = a.getSessionFile()!;
    // A /fork that copies the path (same ids and timestamps) and goes on.
    det.clock.advance(86_400_000);
    const f = pi.ca.SessionManager.open(aFile);
    f.createBranchedSession(f.getLeafId()!);
    f.appendMessage({ role: 'user', content: 'q5', timestamp: det.clock.now() });
    f.appendMessage(assistant(6, det.clock.now(), { provider: 'openai', model: 'gpt-5' }));
    return { a: aFile, fork: f.getSessionFile()! };
  });
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function piBreakdown(): Promise<Breakdown> {
  const dist = join(process.cwd(), 'node_modules/@earendil-works/pi-coding-agent/dist/core/usage-totals.js');
  const mod = (await import(/* @vite-ignore */ pathToFileURL(dist).href)) as { getUsageCostBreakdown: Breakdown };
  return mod.getUsageCostBreakdown;
}

/** The family's entries, each (id, timestamp) once: what pi's breakdown would be given for it. */
function familyEntries(paths: string[]): CaEntry[] {
  const seen = new Set<string>();
  const out: CaEntry[] = [];
  for (const p of paths) {
    for (const e of readJsonl(p).slice(1) as CaEntry[]) {
      const key = `${e.id} ${e.timestamp}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(e);
    }
  }
  return out;
}

type Row = Record<string, any>;

describe('canopy usage as pi 1.6 counts it', () => {
  it("equals pi's getUsageCostBreakdown per provider/model, fork copies counted once", async () => {
    const breakdown = await piBreakdown();
    const expected = breakdown(familyEntries([files.a, files.fork]));
    // The store really holds what the test is about.
    expect(expected.map((r) => r.key).sort()).toEqual(
      ['Tools/summaries', 'anthropic/claude-sonnet-4-5', 'openai/gpt-5', 'openrouter/anthropic/claude-opus-4.1'].sort(),
    );
    const run = await cli('usage', '--root', root, '--by', 'provider,model', '--json');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const groups = run.json.filter((r: Row) => r.kind === 'group');
    expect(groups.every((r: Row) => r.schema === 2)).toBe(true);
    const got = new Map(groups.map((r: Row) => [`${r.provider}/${r.model}`, r]));
    expect([...got.keys()].sort()).toEqual(expected.map((r) => r.key).sort());
    for (const e of expected) {
      const r = got.get(e.key)!;
      expect(r.cost, e.key).toBeCloseTo(e.cost, 12);
      expect(r.input + r.output + r.cacheRead + r.cacheWrite, e.key).toBe(e.tokens);
    }
  });

  it('says what the provider billed apart from the estimate, and breaks out cacheWrite1h and reasoning', async () => {
    const run = await cli('usage', '--root', root, '--by', 'model', '--json');
    const total = run.json.find((r: Row) => r.kind === 'total')!.total;
    const billed = familyEntries([files.a, files.fork]).filter(
      (e) => e.type === 'message' && e.message.usage?.cost?.totalFromProvider === true,
    );
    expect(billed).toHaveLength(1);
    expect(total.billedMessages).toBe(1);
    expect(total.billedCost).toBeCloseTo(billed[0]!.message.usage.cost.total, 12);
    expect(total.estimatedCost).toBeCloseTo(total.cost - total.billedCost, 12);
    expect(total.cacheWrite1h).toBe(4);
    expect(total.reasoning).toBe(30);
    // Parts, never added again: output and cacheWrite are pi's sums as they are.
    const all = familyEntries([files.a, files.fork]);
    const outputs = all.flatMap((e) => {
      const u = e.type === 'message' ? e.message.usage : e.usage;
      return u && typeof u.output === 'number' ? [u.output as number] : [];
    });
    expect(total.output).toBe(outputs.reduce((a, b) => a + b, 0));
  });

  it('lists values pi does not allow and unreal dates as problems with their line, and never sums them', async () => {
    const bad = join(tmp, 'bad');
    const dir = join(bad, '--home-bob-proj--');
    mkdirSync(dir, { recursive: true });
    const copy = join(
      dir,
      readdirSync(join(root, '--home-bob-proj--')).find((f) => files.a.endsWith(f))!,
    );
    copyFileSync(files.a, copy);
    const clean = await cli('usage', '--root', bad, '--json');
    const before = clean.json.find((r: Row) => r.kind === 'total')!.total;
    const lines = readJsonl(copy);
    const last = lines.at(-1)!;
    const line = (id: string, ts: string, cost: number, input = 10) =>
      JSON.stringify({
        type: 'message',
        id,
        parentId: last.id,
        timestamp: ts,
        message: assistant(9, 0, { usage: usageOf(1, { total: cost }, { input }) }),
      }) + '\n';
    appendFileSync(copy, line('neg1', '2026-12-02T10:00:00.000Z', -25));
    appendFileSync(copy, line('neg2', '2026-12-02T10:00:01.000Z', 0.01, -100));
    appendFileSync(copy, line('date', '2026-13-45T10:00:00.000Z', 0.25));
    const run = await cli('usage', '--root', bad, '--by', 'day', '--json');
    expect(run.code).toBe(0);
    const problems = run.json.filter((r: Row) => r.kind === 'problem');
    expect(problems.map((p: Row) => [p.entryId, p.line])).toEqual([
      ['neg1', lines.length + 1],
      ['neg2', lines.length + 2],
      ['date', lines.length + 3],
    ]);
    const total = run.json.find((r: Row) => r.kind === 'total')!.total;
    // The negatives are not summed; the undated record is, under "(no date)", and listed.
    expect(total.cost).toBeCloseTo(before.cost + 0.25, 12);
    expect(run.json.filter((r: Row) => r.kind === 'group').map((r: Row) => r.day)).toContain('(no date)');
    expect(run.json.some((r: Row) => r.day === '2026-13-45')).toBe(false);
    const text = await cli('usage', '--root', bad);
    expect(text.err).toMatch(/:\d+: entry neg1: not counted: usage\.cost\.total is -25/);
  });
});
