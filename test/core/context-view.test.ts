import { describe, expect, it } from 'vitest';
import { parseSessionText, readSessionDetailed, type Profile } from '../../electron/core';
import { buildContextView, type ContextView, type EntryStateInfo } from '../../electron/core/rules/context-view';
import { assistant, compaction, entry, header, jsonl, label, message, session, ts, user } from './helpers';
import { loadPiContext } from './pi-context-oracle';

type Rec = Record<string, any>;

function view(entries: Rec[], profile: Profile, leafId?: string | null) {
  const s = session(entries);
  const reading = readSessionDetailed(s, { profile, ...(leafId !== undefined ? { leafId } : {}) });
  return { s, reading, v: buildContextView(s, reading) };
}

/** id → [state, by] (by omitted when absent) for compact table assertions. */
function states(v: ContextView): Record<string, [string, string?]> {
  const out: Record<string, [string, string?]> = {};
  for (const e of v.entries) out[e.id] = e.by === undefined ? [e.state] : [e.state, e.by];
  return out;
}
const stateOf = (v: ContextView, id: string): EntryStateInfo => v.entries.find((e) => e.id === id)!;

function usageMsg(input: number, output: number, cost: number, extra: Rec = {}): Rec {
  return {
    role: 'assistant',
    content: [{ type: 'text', text: `spent ${input}` }],
    provider: 'anthropic',
    model: 'claude',
    usage: {
      input,
      output,
      cacheRead: 10,
      cacheWrite: 5,
      totalTokens: input + output + 15,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
    },
    stopReason: 'stop',
    timestamp: 5000 + input,
    ...extra,
  };
}

// u1 → a1 → mc → u2 → a2 → c1(first kept u2) → lb → cu → u3 → a3 (leaf); x1 hangs off a1.
function compactedCa(): Rec[] {
  return [
    user('u1', null),
    assistant('a1', 'u1'),
    entry('model_change', 'mc', 'a1', { provider: 'openai', modelId: 'gpt' }),
    user('u2', 'mc'),
    assistant('a2', 'u2'),
    compaction('c1', 'a2', 'u2', { details: { readFiles: ['a.ts', 7], modifiedFiles: ['b.ts'] } }),
    label('lb', 'c1', 'u1', 'start'),
    entry('custom', 'cu', 'lb', { customType: 'ext', data: {} }),
    user('x1', 'a1'),
    user('u3', 'cu'),
    assistant('a3', 'u3', 'done', { provider: 'anthropic', model: 'opus' }),
  ];
}

describe('entry states (CA)', () => {
  it('marks summarised, kept, state-only and other-branch entries with reasons', () => {
    const { v } = view(compactedCa(), 'ca');
    expect(states(v)).toEqual({
      u1: ['summarised', 'c1'],
      a1: ['summarised', 'c1'],
      mc: ['summarised', 'c1'],
      u2: ['included'],
      a2: ['included'],
      c1: ['included'],
      lb: ['not-projected'],
      cu: ['not-projected'],
      x1: ['other-branch'],
      u3: ['included'],
      a3: ['included'],
    });
    expect(stateOf(v, 'u2').reason).toMatch(/kept range/);
    expect(stateOf(v, 'lb').reason).toMatch(/label/);
    expect(stateOf(v, 'cu').reason).toMatch(/extension state/);
    expect(stateOf(v, 'x1').reason).toMatch(/not on the path/);
    expect(v.counts).toEqual({
      included: 5,
      summarised: 3,
      'other-branch': 1,
      'not-projected': 2,
      edited: 0,
      excluded: 0,
    });
    expect(v.messages.map((m) => [m.entryId, m.role, m.sentAs])).toEqual([
      ['c1', 'compactionSummary', 'user'],
      ['u2', 'user', 'user'],
      ['a2', 'assistant', 'assistant'],
      ['u3', 'user', 'user'],
      ['a3', 'assistant', 'assistant'],
    ]);
    expect(v.messages[0]!.preview).toBe('summary c1');
    expect(v.messages[4]!.preview).toBe('done');
  });

  it('follows a hypothetical leaf onto another branch', () => {
    const { v } = view(compactedCa(), 'ca', 'x1');
    expect(states(v)).toMatchObject({
      u1: ['included'],
      a1: ['included'],
      x1: ['included'],
      mc: ['other-branch'],
      c1: ['other-branch'],
      a3: ['other-branch'],
    });
    expect(v.compactions).toEqual([]);
    expect(v.state.model).toEqual({ value: { provider: 'anthropic', modelId: 'claude' }, entryId: 'a1' });
  });

  it('gives an empty context and no path for a null leaf', () => {
    const { v } = view(compactedCa(), 'ca', null);
    expect(new Set(v.entries.map((e) => e.state))).toEqual(new Set(['other-branch']));
    expect(v.entries[0]!.reason).toMatch(/no leaf/);
    expect(v.messages).toEqual([]);
    expect(v.tokens.total).toBe(0);
  });

  it('drops system messages of the kept range (1.6.0) and replays the prompt from the compaction', () => {
    const tools = (...names: string[]) => names.map((name) => ({ name, description: `${name} tool`, parameters: {} }));
    const entries = [
      message('s0', null, {
        role: 'system',
        content: 'base',
        sections: { rules: 'R1', style: 'S1' },
        toolsAdded: tools('read', 'bash'),
        timestamp: 1,
      }),
      user('u1', 's0'),
      assistant('a1', 'u1'),
      message('s1', 'a1', {
        role: 'system',
        content: '',
        sections: { rules: 'R2' },
        toolsRemoved: [{ name: 'bash' }],
        toolsAdded: tools('edit'),
        timestamp: 2,
      }),
      user('u2', 's1'),
      compaction('c1', 'u2', 'u1', {
        systemMessage: {
          role: 'system',
          content: 'base',
          sections: { rules: 'R2', style: 'S1' },
          toolsAdded: tools('read', 'edit'),
          timestamp: 3,
        },
      }),
      message('s2', 'c1', {
        role: 'system',
        content: [{ type: 'text', text: 'extra' }],
        sections: { style: null },
        timestamp: 4,
      }),
      user('u3', 's2'),
    ];
    const { v } = view(entries, 'ca');
    expect(states(v)).toMatchObject({
      s0: ['summarised', 'c1'],
      s1: ['summarised', 'c1'],
      u1: ['included'],
      s2: ['included'],
    });
    expect(stateOf(v, 's1').reason).toMatch(/kept range: CA 1\.6\.0 drops it/);
    expect(v.messages.map((m) => [m.entryId, m.role])).toEqual([
      ['c1', 'system'],
      ['c1', 'compactionSummary'],
      ['u1', 'user'],
      ['a1', 'assistant'],
      ['u2', 'user'],
      ['s2', 'system'],
      ['u3', 'user'],
    ]);
    const sys = v.state.system!;
    expect(sys.prompt).toBe('base\n\nextra');
    expect(sys.promptParts).toEqual([
      { text: 'base', entryId: 'c1' },
      { text: 'extra', entryId: 's2' },
    ]);
    expect(sys.sections).toEqual([{ name: 'rules', text: 'R2', entryId: 'c1' }]);
    expect(sys.tools).toEqual([
      { name: 'read', entryId: 'c1' },
      { name: 'edit', entryId: 'c1' },
    ]);
    expect(sys.entryIds).toEqual(['c1', 's2']);

    // Before the compaction every system message replays, and removals are kept with their entry.
    const before = view(entries, 'ca', 'u2').v.state.system!;
    expect(before.prompt).toBe('base');
    expect(before.sections).toEqual([
      { name: 'rules', text: 'R2', entryId: 's1' },
      { name: 'style', text: 'S1', entryId: 's0' },
    ]);
    expect(before.tools).toEqual([
      { name: 'read', entryId: 's0' },
      { name: 'edit', entryId: 's1' },
    ]);
    expect(before.removedTools).toEqual([{ name: 'bash', entryId: 's1' }]);
  });

  it('applies CA 1.6.0 context edits: omitted, replaced, superseded; H3 ignores them', () => {
    const entries = [
      user('u1', null),
      assistant('a1', 'u1'),
      user('u2', 'a1'),
      assistant('a2', 'u2'),
      entry('context_edit', 'e1', 'a2', { targetId: 'u2', replacement: null }),
      entry('context_edit', 'e2', 'e1', { targetId: 'a1', replacement: { content: [{ type: 'text', text: 'x' }] } }),
      entry('context_edit', 'e3', 'e2', {
        targetId: 'a1',
        replacement: { content: [{ type: 'text', text: 'shorter' }] },
      }),
      entry('context_edit', 'e4', 'e3', { targetId: 'x9', replacement: null }),
    ];
    const { v } = view(entries, 'ca');
    expect(states(v)).toEqual({
      u1: ['included'],
      a1: ['edited', 'e3'],
      u2: ['edited', 'e1'],
      a2: ['included'],
      e1: ['not-projected'],
      e2: ['not-projected'],
      e3: ['not-projected'],
      e4: ['not-projected'],
    });
    expect(stateOf(v, 'u2').reason).toMatch(/omitted/);
    expect(stateOf(v, 'a1').reason).toMatch(/replaced/);
    expect(stateOf(v, 'e2').reason).toMatch(/superseded/);
    expect(stateOf(v, 'e3')).toMatchObject({
      targetId: 'a1',
      reason: expect.stringMatching(/changes what its target sends/),
    });
    expect(stateOf(v, 'e4').reason).toMatch(/not in the context/);
    expect(v.messages.map((m) => [m.entryId, m.preview])).toEqual([
      ['u1', 'text of u1'],
      ['a1', 'shorter'],
      ['a2', 'reply a2'],
    ]);

    const h3 = view(entries, 'h3').v;
    expect(states(h3)).toMatchObject({ a1: ['included'], u2: ['included'], e1: ['not-projected'] });
    expect(stateOf(h3, 'e1').reason).toMatch(/H3 ignores/);
  });

  it('excludes !! bash runs (and H3 excludes system messages) from what is sent', () => {
    const bash = (id: string, parent: string, exclude: boolean) =>
      message(id, parent, {
        role: 'bashExecution',
        command: 'ls',
        output: 'a b',
        exitCode: 0,
        cancelled: false,
        truncated: false,
        excludeFromContext: exclude,
        timestamp: 9,
      });
    const entries = [
      user('u1', null),
      bash('b1', 'u1', true),
      bash('b2', 'b1', false),
      message('s1', 'b2', { role: 'system', content: 'sys', timestamp: 1 }),
      message('w1', 's1', { role: 'weird', content: 'x' }),
      entry('branch_summary', 'bs', 'w1', { fromId: 'u1', summary: '' }),
      entry('mystery', 'my', 'bs'),
    ];
    const ca = view(entries, 'ca').v;
    expect(states(ca)).toEqual({
      u1: ['included'],
      b1: ['excluded'],
      b2: ['included'],
      s1: ['included'],
      w1: ['excluded'],
      bs: ['not-projected'],
      my: ['not-projected'],
    });
    expect(stateOf(ca, 'b1').reason).toBe('!! run: dropped by convertToLlm');
    expect(stateOf(ca, 'w1').reason).toMatch(/"weird" is dropped/);
    expect(stateOf(ca, 'bs').reason).toMatch(/empty branch summary/);
    expect(stateOf(ca, 'my').reason).toMatch(/unknown entry type "mystery"/);
    expect(ca.messages.map((m) => [m.entryId, m.sentAs])).toEqual([
      ['u1', 'user'],
      ['b2', 'user'],
      ['s1', 'system'],
    ]);
    const h3 = view(entries, 'h3').v;
    expect(stateOf(h3, 's1')).toMatchObject({
      state: 'excluded',
      reason: expect.stringMatching(/H3's convertToLlm drops it/),
    });
    expect(h3.state.system).toBeNull();
  });

  it('keeps an older compaction inside the kept range: CA projects nothing for it, H3 a second summary', () => {
    const entries = [
      user('u1', null),
      compaction('k1', 'u1', 'u1'),
      user('u2', 'k1'),
      compaction('k2', 'u2', 'u1'),
      user('u3', 'k2'),
    ];
    const ca = view(entries, 'ca').v;
    expect(stateOf(ca, 'k1')).toMatchObject({
      state: 'not-projected',
      by: 'k2',
      reason: expect.stringMatching(/older compaction/),
    });
    expect(ca.compactions.map((c) => [c.id, c.active, c.state])).toEqual([
      ['k1', false, 'not-projected'],
      ['k2', true, 'included'],
    ]);
    const h3 = view(entries, 'h3').v;
    expect(stateOf(h3, 'k1').state).toBe('included');
    expect(h3.messages.filter((m) => m.role === 'compactionSummary').map((m) => m.entryId)).toEqual(['k2', 'k1']);
  });

  it('a line that repeats an id is other-branch (pi indexes the later one)', () => {
    const { v } = view([user('u1', null), assistant('a1', 'u1'), assistant('a1', 'u1', 'second')], 'ca');
    expect(v.entries.map((e) => [e.id, e.line, e.state])).toEqual([
      ['u1', 2, 'included'],
      ['a1', 3, 'other-branch'],
      ['a1', 4, 'included'],
    ]);
  });
});

// H3 retainedTail: m0, at, u1, a1 above the checkpoint; c1 holds copies of u2 and a2.
function retainedH3(): Rec[] {
  const u2 = user('u2', 'a1');
  const a2 = message('a2', 'u2', usageMsg(200, 20, 0.2));
  return [
    entry('model_change', 'm0', null, { provider: 'openai', modelId: 'gpt' }),
    entry('active_tools_change', 'at', 'm0', { activeToolNames: ['read', 'bash'] }),
    user('u1', 'at'),
    message('a1', 'u1', usageMsg(100, 10, 0.1)),
    u2,
    a2,
    compaction('c1', 'a2', 'u2', {
      retainedTail: [u2.message, a2.message],
      usage: { input: 50, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 55, cost: { total: 0.05 } },
    }),
    entry('thinking_level_change', 'tl', 'c1', { thinkingLevel: 'high' }),
    user('u3', 'tl'),
    message('a3', 'u3', usageMsg(300, 30, 0.3)),
    user('z1', 'a1'),
    message('z2', 'z1', usageMsg(1000, 100, 1)),
  ];
}

describe('entry states (H3 checkpoints)', () => {
  it('summarises everything above a retainedTail checkpoint and attributes the copies', () => {
    const { v } = view(retainedH3(), 'h3', 'a3');
    expect(states(v)).toEqual({
      m0: ['summarised', 'c1'],
      at: ['summarised', 'c1'],
      u1: ['summarised', 'c1'],
      a1: ['summarised', 'c1'],
      u2: ['summarised', 'c1'],
      a2: ['summarised', 'c1'],
      c1: ['included'],
      tl: ['not-projected'],
      u3: ['included'],
      a3: ['included'],
      z1: ['other-branch'],
      z2: ['other-branch'],
    });
    expect(stateOf(v, 'u2').reason).toMatch(/copy inside the compaction's retainedTail/);
    expect(stateOf(v, 'u1').reason).toMatch(/retainedTail checkpoint/);
    expect(stateOf(v, 'c1').reason).toMatch(/2 retained messages/);
    expect(v.messages.map((m) => [m.entryId, m.role, m.copyOf])).toEqual([
      ['c1', 'compactionSummary', undefined],
      ['c1', 'user', 'u2'],
      ['c1', 'assistant', 'a2'],
      ['u3', 'user', undefined],
      ['a3', 'assistant', undefined],
    ]);
    // H3 derives state from the truncated path: the tool and model changes above it are lost.
    expect(v.state.activeTools).toEqual({ value: null, entryId: null });
    expect(v.state.thinkingLevel).toEqual({ value: 'high', entryId: 'tl' });
    expect(v.state.model).toEqual({ value: { provider: 'anthropic', modelId: 'claude' }, entryId: 'a3' });
    expect(v.compactions).toEqual([
      expect.objectContaining({
        id: 'c1',
        active: true,
        retainedTailCount: 2,
        firstKeptEntryId: 'u2',
        firstKeptOnPath: false,
        hiddenIds: ['m0', 'at', 'u1', 'a1', 'u2', 'a2'],
      }),
    ]);
  });

  it('reads the same file under CA: retainedTail ignored, first kept range sent', () => {
    const { v } = view(retainedH3(), 'ca', 'a3');
    expect(states(v)).toMatchObject({
      at: ['summarised', 'c1'],
      u1: ['summarised', 'c1'],
      u2: ['included'],
      a2: ['included'],
      tl: ['not-projected'],
    });
    expect(v.messages.map((m) => m.entryId)).toEqual(['c1', 'u2', 'a2', 'u3', 'a3']);
    expect(v.state.activeTools.value).toBeNull();
    expect(v.state.model.entryId).toBe('a3');
    expect(v.compactions[0]).toMatchObject({
      hiddenIds: ['m0', 'at', 'u1', 'a1'],
      firstKeptOnPath: true,
      retainedTailCount: 2,
    });
  });

  it('keeps the active tools when the checkpoint is below the change', () => {
    const entries = [
      user('u1', null),
      entry('active_tools_change', 'at', 'u1', { activeToolNames: ['read'] }),
      user('u2', 'at'),
    ];
    const { v, reading } = view(entries, 'h3');
    expect(v.state.activeTools).toEqual({ value: ['read'], entryId: 'at' });
    expect((reading.context as Rec).activeToolNames).toEqual(v.state.activeTools.value);
  });

  it('attributes entries above a first-kept stop to the compaction that made the walk stop', () => {
    // k2 keeps from u1 (before k1); walking up, k1 overwrites the stop with its own first kept (a1).
    const entries = [
      user('u0', null),
      user('u1', 'u0'),
      assistant('a1', 'u1'),
      compaction('k1', 'a1', 'a1'),
      user('u2', 'k1'),
      compaction('k2', 'u2', 'u1'),
      user('u3', 'k2'),
    ];
    const { v, reading } = view(entries, 'h3');
    expect(reading.pathIds).toEqual(['a1', 'k1', 'u2', 'k2', 'u3']);
    expect(reading.contextEntryIds).toEqual(['k2', 'u3']);
    expect(states(v)).toMatchObject({
      u0: ['summarised', 'k1'],
      u1: ['summarised', 'k1'],
      a1: ['summarised', 'k2'],
      k1: ['summarised', 'k2'],
      u2: ['summarised', 'k2'],
    });
    expect(stateOf(v, 'u1').reason).toMatch(/first kept entry/);
  });
});

describe('usage and cost', () => {
  it('keeps two ledgers that never double count retainedTail copies', () => {
    const { v } = view(retainedH3(), 'h3', 'a3');
    // Active chain: a1 (100/10), a2 (200/20), c1 (50/5), a3 (300/30); z2 (1000/100) is on another branch.
    expect(v.cost.activePath).toMatchObject({
      records: { assistant: 3, toolResult: 0, compaction: 1, branchSummary: 0, usage: 0 },
      input: 650,
      output: 65,
      cacheRead: 30,
      cacheWrite: 15,
      totalTokens: 650 + 65 + 30 + 15,
      cachedTokens: 30,
      uncachedTokens: 650 + 15,
    });
    expect(v.cost.activePath.costTotal).toBeCloseTo(0.65, 10);
    expect(v.cost.allBranches.input).toBe(1650);
    expect(v.cost.allBranches.costTotal).toBeCloseTo(1.65, 10);
    expect(v.lastUsage).toMatchObject({ entryId: 'a3', input: 300, output: 30, contextTokens: 345, messageIndex: 4 });
  });

  it('skips usage records that are not all numbers, and counts CA usage entries and tool results', () => {
    const entries = [
      user('u1', null),
      message(
        'a1',
        'u1',
        usageMsg(100, 10, 0.1, { usage: { input: 1, output: '2', cacheRead: 0, cacheWrite: 0, cost: { total: 1 } } }),
      ),
      entry('usage', 'us', 'a1', {
        kind: 'title',
        provider: 'p',
        model: 'm',
        usage: { input: 7, output: 3, cacheRead: 0, cacheWrite: 0, totalTokens: 10, cost: { total: 0.5 } },
      }),
      message('t1', 'us', {
        role: 'toolResult',
        toolCallId: 'c',
        toolName: 'x',
        content: [],
        usage: { input: 2, output: 2, cacheRead: 0, cacheWrite: 0, cost: { total: 0.25 } },
        timestamp: 1,
      }),
      entry('branch_summary', 'bs', 't1', {
        fromId: 'u1',
        summary: 's',
        usage: { input: 4, output: 1, cacheRead: 0, cacheWrite: 0, cost: { total: 0.125 } },
      }),
    ];
    const { v } = view(entries, 'ca');
    expect(v.cost.activePath.records).toEqual({
      assistant: 0,
      toolResult: 1,
      compaction: 0,
      branchSummary: 1,
      usage: 1,
    });
    expect(v.cost.activePath.input).toBe(13);
    expect(v.cost.activePath.costTotal).toBe(0.875);
    // pi's getAssistantUsage still takes it (its context size is non-zero); the odd field reads as null.
    expect(v.lastUsage).toMatchObject({ entryId: 'a1', input: 1, output: null, costTotal: 1 });
  });
});

describe('compaction inspector', () => {
  it('lists what each compaction summarised, once', () => {
    const entries = [
      user('u1', null),
      assistant('a1', 'u1'),
      compaction('c1', 'a1', 'a1'),
      user('u2', 'c1'),
      assistant('a2', 'u2'),
      compaction('c2', 'a2', 'u2', {
        details: { readFiles: ['r.ts', 3], modifiedFiles: ['m.ts'] },
        tokensBefore: 4321,
      }),
      user('u3', 'c2'),
    ];
    const { v } = view(entries, 'ca');
    expect(v.compactions.map((c) => [c.id, c.active, c.hiddenIds])).toEqual([
      ['c1', false, ['u1']],
      ['c2', true, ['a1', 'c1']],
    ]);
    expect(v.compactions[1]).toMatchObject({
      readFiles: ['r.ts'],
      modifiedFiles: ['m.ts'],
      tokensBefore: 4321,
      retainedTailCount: null,
      summary: 'summary c2',
    });
    expect(states(v)).toMatchObject({
      u1: ['summarised', 'c1'],
      a1: ['summarised', 'c2'],
      c1: ['summarised', 'c2'],
      u2: ['included'],
    });
  });
});

describe('against pi', () => {
  it.each<[string, () => Rec[], Profile, string | undefined]>([
    ['CA compacted', compactedCa, 'ca', undefined],
    ['H3 retainedTail', retainedH3, 'h3', 'a3'],
    ['H3 file read by CA', retainedH3, 'ca', 'a3'],
    ['images and tool calls', imagesAndTools, 'ca', undefined],
    ['images and tool calls (H3)', imagesAndTools, 'h3', undefined],
  ])(
    '%s: per-message estimates, what convertToLlm keeps, and the context size match pi',
    async (_name, build, profile, leaf) => {
      const pi = await loadPiContext();
      const raw = build();
      const { s, reading, v } = view(raw, profile, leaf);
      const projected = reading.projection.flatMap((p) => p.messages);
      const kept = projected.filter((m) => pi.convertToLlm(profile, [m]).length === 1);
      expect(v.messages.map((m) => m.sentAs)).toEqual(kept.map((m) => pi.convertToLlm(profile, [m])[0]!.role));
      expect(v.messages.map((m) => m.tokens)).toEqual(kept.map((m) => pi.estimateTokens(profile, m)));
      const branch = reading.pathIds.map((id) => s.entries.find((e) => e.id === id)!.raw);
      expect(v.contextTokens.tokens).toBe(pi.contextTokens(profile, raw, reading.leafId, projected, branch));
    },
  );

  it('replays the system prompt as getCurrentSystemMessage does', async () => {
    const pi = await loadPiContext();
    const tool = (name: string) => ({ name, description: 'd', parameters: { type: 'object' } });
    const entries = [
      message('s0', null, {
        role: 'system',
        content: 'base',
        sections: { a: 'A', b: 'B' },
        toolsAdded: [tool('x'), tool('y')],
        timestamp: 1,
      }),
      user('u1', 's0'),
      message('s1', 'u1', {
        role: 'system',
        content: [
          { type: 'text', text: 'more' },
          { type: 'text', text: 'lines' },
        ],
        sections: { a: 'A2', b: null, c: 'C' },
        toolsRemoved: [{ name: 'x' }],
        timestamp: 2,
      }),
      message('s2', 's1', { role: 'system', content: '', toolsAdded: [tool('x')], timestamp: 3 }),
    ];
    const { reading, v } = view(entries, 'ca');
    const expected = pi.currentSystem(reading.projection.flatMap((p) => p.messages));
    const sys = v.state.system!;
    expect(sys.prompt).toBe(expected.content);
    expect(Object.fromEntries(sys.sections.map((x) => [x.name, x.text]))).toEqual(expected.sections);
    expect(sys.sections.map((x) => x.name)).toEqual(Object.keys(expected.sections));
    expect(sys.tools.map((t) => t.name)).toEqual(expected.toolsAdded.map((t: Rec) => t.name));
    expect(sys.tools).toEqual([
      { name: 'y', entryId: 's0' },
      { name: 'x', entryId: 's2' },
    ]);
    expect(sys.tokens).toBe(pi.estimateTokens('ca', expected));
  });

  it('ledger over all branches equals H3 getSessionStats', async () => {
    const pi = await loadPiContext();
    const raw = retainedH3();
    const { v } = view(raw, 'h3');
    const stats = await pi.h3Stats(raw);
    expect(v.cost.allBranches.totalTokens).toBe(stats.totalTokens);
    expect(v.cost.allBranches.cachedTokens).toBe(stats.cachedTokens);
    expect(v.cost.allBranches.uncachedTokens).toBe(stats.uncachedTokens);
    expect(v.cost.allBranches.costTotal).toBeCloseTo(stats.costTotal, 10);
  });
});

function imagesAndTools(): Rec[] {
  return [
    user('u1', null, 'look', {
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'see this' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
        timestamp: 1,
      },
    }),
    message('a1', 'u1', {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hmm, let me think' },
        { type: 'toolCall', id: 't', name: 'read', arguments: { path: '/a/b.ts' } },
      ],
      provider: 'p',
      model: 'm',
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { total: 0 } },
      stopReason: 'toolUse',
      timestamp: 2,
    }),
    message('t1', 'a1', {
      role: 'toolResult',
      toolCallId: 't',
      toolName: 'read',
      content: [
        { type: 'image', data: 'x' },
        { type: 'text', text: 'file body' },
      ],
      timestamp: 3,
    }),
    entry('custom_message', 'cm', 't1', { customType: 'note', content: 'a custom note', display: true }),
    entry('branch_summary', 'bs', 'cm', { fromId: 'u1', summary: 'the other branch did X' }),
    message('b1', 'bs', {
      role: 'bashExecution',
      command: 'npm test',
      output: 'ok',
      exitCode: 1,
      cancelled: false,
      truncated: false,
      timestamp: 4,
    }),
    message('b2', 'b1', {
      role: 'bashExecution',
      command: 'secret',
      output: 'zzz',
      exitCode: 0,
      excludeFromContext: true,
      timestamp: 5,
    }),
    message('a2', 'b2', usageMsg(40, 4, 0.01, { stopReason: 'error' })),
  ];
}

describe('scale', () => {
  it('handles a 100k-entry chain without recursion', () => {
    // Small plain entries (the helpers' builders are too slow at this size).
    const values: Rec[] = [header()];
    for (let i = 0; i < 100_000; i++) {
      values.push({
        type: 'message',
        id: `e${i}`,
        parentId: i ? `e${i - 1}` : null,
        timestamp: ts(i),
        message: { role: i % 2 ? 'assistant' : 'user', content: 'x' },
      });
    }
    values.push(compaction('c', 'e99999', 'e99990'));
    const s = parseSessionText(jsonl(values));
    const v = buildContextView(s, readSessionDetailed(s, { profile: 'ca' }));
    expect(v.counts.summarised).toBe(99_990);
    expect(v.messages).toHaveLength(11);
    expect(v.compactions[0]!.hiddenIds).toHaveLength(99_990);
  });

  it('stops at a parentId cycle', () => {
    const { v } = view([user('a', 'b'), user('b', 'a')], 'ca');
    expect(v.entries.map((e) => e.state)).toEqual(['included', 'included']);
  });
});
