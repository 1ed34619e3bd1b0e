import { describe, expect, it } from 'vitest';
import { readSession, readSessionDetailed } from '../../electron/core';
import { assistant, compaction, entry, label, message, ms, session, user } from './helpers';

type Rec = Record<string, any>;
const rt = (x: unknown) => JSON.parse(JSON.stringify(x));
const msgOf = (e: Rec) => e.message as Rec;
const ca = (entries: Rec[], leafId?: string | null) =>
  readSession(session(entries), { profile: 'ca', leafId }) as {
    context: Rec;
    contextEntryIds: string[];
    issues: any[];
  };
const h3 = (entries: Rec[], leafId?: string | null) =>
  readSession(session(entries), { profile: 'h3', leafId }) as {
    context: Rec;
    contextEntryIds: string[];
    issues: any[];
  };

describe('CA selection (buildContextEntries)', () => {
  const table: [string, Rec[], string[]][] = [
    [
      'no compaction: the whole path',
      [user('a', null), assistant('b', 'a'), label('l', 'b', 'a', 'x')],
      ['a', 'b', 'l'],
    ],
    [
      'compaction first, then kept range, then after',
      [user('a', null), assistant('b', 'a'), user('c', 'b'), compaction('k', 'c', 'b'), user('d', 'k')],
      ['k', 'b', 'c', 'd'],
    ],
    [
      'firstKept not on the path: nothing before',
      [user('a', null), assistant('b', 'a'), user('x', 'a'), compaction('k', 'b', 'x'), user('d', 'k')],
      ['k', 'd'],
    ],
    ['firstKept = compaction itself', [user('a', null), compaction('k', 'a', 'k'), user('d', 'k')], ['k', 'd']],
    [
      'retainedTail is ignored by CA',
      [user('a', null), assistant('b', 'a'), compaction('k', 'b', 'a', { retainedTail: [] }), user('d', 'k')],
      ['k', 'a', 'b', 'd'],
    ],
    [
      'kept range leaves out system messages',
      [
        message('s', null, { role: 'system', content: 'sys' }),
        user('a', 's'),
        message('s2', 'a', { role: 'system', content: 'p' }),
        compaction('k', 's2', 's'),
        message('s3', 'k', { role: 'system', content: 'q' }),
      ],
      ['k', 'a', 's3'],
    ],
    [
      'latest compaction wins; an older one inside the kept range stays listed',
      [user('a', null), compaction('k1', 'a', 'a'), user('b', 'k1'), compaction('k2', 'b', 'a'), user('c', 'k2')],
      ['k2', 'a', 'k1', 'b', 'c'],
    ],
  ];
  it.each(table)('%s', (_name, entries, ids) => {
    expect(ca(entries).contextEntryIds).toEqual(ids);
  });
});

describe('CA projection (buildSessionContext)', () => {
  it('projects each entry type like pi', () => {
    const u = user('a', null);
    const b = assistant('b', 'a');
    const cm = entry('custom_message', 'cm', 'b', {
      customType: 'note',
      content: 'hello',
      display: false,
      details: { x: 1 },
    });
    const cmNull = entry('custom_message', 'cm2', 'cm', { customType: 'n', display: true });
    const bs = entry('branch_summary', 'bs', 'cm2', { fromId: 'b', summary: 'went elsewhere' });
    const bsEmpty = entry('branch_summary', 'bs2', 'bs', { fromId: 'b', summary: '' });
    const custom = entry('custom', 'cu', 'bs2', { customType: 'state', data: { a: 1 } });
    const usage = entry('usage', 'us', 'cu', { kind: 'cache_warm', provider: 'p', model: 'm', usage: { input: 3 } });
    const others = [
      entry('model_change', 'mc', 'us', { provider: 'openai', modelId: 'gpt' }),
      entry('thinking_level_change', 'tl', 'mc', { thinkingLevel: 'high' }),
      label('l', 'tl', 'a', 'x'),
      entry('session_info', 'si', 'l', { name: 'n' }),
      entry('mystery', 'my', 'si', { stuff: 1 }),
    ];
    const r = ca([u, b, cm, cmNull, bs, bsEmpty, custom, usage, ...others]);
    expect(rt(r.context)).toEqual(
      rt({
        messages: [
          msgOf(u),
          msgOf(b),
          {
            role: 'custom',
            customType: 'note',
            content: 'hello',
            display: false,
            details: { x: 1 },
            timestamp: ms(cm.timestamp),
          },
          { role: 'custom', customType: 'n', content: [], display: true, timestamp: ms(cmNull.timestamp) },
          { role: 'branchSummary', summary: 'went elsewhere', fromId: 'b', timestamp: ms(bs.timestamp) },
        ],
        thinkingLevel: 'high',
        model: { provider: 'openai', modelId: 'gpt' },
      }),
    );
  });

  it('returns the stored message object itself', () => {
    const s = session([user('a', null)]);
    const r = readSession(s, { profile: 'ca' }) as { context: Rec };
    expect(r.context.messages[0]).toBe(s.entries[0]!.raw.message);
  });

  const nullContent: [string, Rec, unknown][] = [
    ['user null content → []', { role: 'user', content: null, timestamp: 1 }, []],
    ['assistant missing content → []', { role: 'assistant', provider: 'p', model: 'm', timestamp: 1 }, []],
    ['toolResult null content → []', { role: 'toolResult', toolCallId: 't', content: null, timestamp: 1 }, []],
    ['system null content → ""', { role: 'system', content: null, timestamp: 1 }, ''],
    ['custom null content stays', { role: 'custom', content: null, timestamp: 1 }, null],
    ['bashExecution has no content key', { role: 'bashExecution', command: 'ls', output: '', timestamp: 1 }, undefined],
  ];
  it.each(nullContent)('null content: %s', (_name, msg, content) => {
    const r = ca([message('a', null, msg)]);
    const out = r.context.messages[0];
    expect(out.content).toEqual(content);
    expect(out.role).toBe(msg.role);
  });

  it('compaction: summary message, preceded by systemMessage when present', () => {
    const sys = { role: 'system', content: 'prompt', timestamp: 5 };
    const k = compaction('k', 'a', 'a', { systemMessage: sys, tokensBefore: 42 });
    const r = ca([user('a', null), k, user('b', 'k')]);
    expect(rt(r.context.messages)).toEqual(
      rt([
        sys,
        { role: 'compactionSummary', summary: 'summary k', tokensBefore: 42, timestamp: ms(k.timestamp) },
        msgOf(user('a', null)),
        r.context.messages[3],
      ]),
    );
    expect(r.context.messages.map((m: Rec) => m.role)).toEqual(['system', 'compactionSummary', 'user', 'user']);
  });

  it('an older compaction inside the kept range gives no messages', () => {
    const r = readSessionDetailed(
      session([
        user('a', null),
        compaction('k1', 'a', 'a'),
        user('b', 'k1'),
        compaction('k2', 'b', 'a'),
        user('c', 'k2'),
      ]),
      { profile: 'ca' },
    );
    expect(r.projection.map((p) => [p.entryId, p.messages.length])).toEqual([
      ['k2', 1],
      ['a', 1],
      ['k1', 0],
      ['b', 1],
      ['c', 1],
    ]);
    expect((r.context as Rec).messages.filter((m: Rec) => m.role === 'compactionSummary')).toHaveLength(1);
  });

  it('settings come from the whole path, not only the kept range', () => {
    const r = ca([
      entry('thinking_level_change', 't', null, { thinkingLevel: 'low' }),
      entry('model_change', 'm', 't', { provider: 'x', modelId: 'y' }),
      user('a', 'm'),
      compaction('k', 'a', 'a'),
    ]);
    expect(r.context.thinkingLevel).toBe('low');
    expect(r.context.model).toEqual({ provider: 'x', modelId: 'y' });
  });

  it('an assistant message after a model_change sets the model', () => {
    const r = ca([
      entry('model_change', 'm', null, { provider: 'x', modelId: 'y' }),
      user('a', 'm'),
      assistant('b', 'a', 'r', { provider: 'anthropic', model: 'claude' }),
    ]);
    expect(r.context.model).toEqual({ provider: 'anthropic', modelId: 'claude' });
  });

  it('null leaf: empty context with default settings', () => {
    expect(rt(ca([user('a', null)], null).context)).toEqual({ messages: [], thinkingLevel: 'off', model: null });
  });
});

describe('CA context_edit', () => {
  const edit = (id: string, parentId: string, targetId: string, replacement: unknown) =>
    entry('context_edit', id, parentId, { targetId, replacement });
  const base = () => [user('u', null, 'question'), assistant('a', 'u', 'answer')];

  it('null replacement omits the target', () => {
    const r = ca([...base(), edit('e', 'a', 'a', null)]);
    expect(r.context.messages.map((m: Rec) => m.role)).toEqual(['user']);
  });

  it('string content on an assistant target becomes one text block', () => {
    const r = ca([...base(), edit('e', 'a', 'a', { content: 'short' })]);
    expect(r.context.messages[1].content).toEqual([{ type: 'text', text: 'short' }]);
    expect(r.context.messages[1].model).toBe('claude');
  });

  it('string content on a user target stays a string', () => {
    const r = ca([...base(), edit('e', 'a', 'u', { content: 'better question' })]);
    expect(r.context.messages[0]).toEqual({ role: 'user', content: 'better question', timestamp: 1000 });
  });

  it('custom_message target gets the replacement content', () => {
    const cm = entry('custom_message', 'cm', 'a', { customType: 't', content: 'old', display: true });
    const r = ca([...base(), cm, edit('e', 'cm', 'cm', { content: [{ type: 'text', text: 'new' }] })]);
    expect(r.context.messages[2].content).toEqual([{ type: 'text', text: 'new' }]);
  });

  it('the last edit for a target wins', () => {
    const r = ca([...base(), edit('e1', 'a', 'u', null), edit('e2', 'e1', 'u', { content: 'again' })]);
    expect(r.context.messages.map((m: Rec) => m.content)).toEqual(['again', [{ type: 'text', text: 'answer' }]]);
  });

  it('an edit on another branch has no effect', () => {
    const r = ca([...base(), edit('e', 'a', 'u', null), assistant('b', 'u', 'other')], 'b');
    expect(r.context.messages.map((m: Rec) => m.role)).toEqual(['user', 'assistant']);
  });

  it('an edit left outside the kept range by a compaction has no effect', () => {
    const r = ca([
      ...base(),
      edit('e', 'a', 'a', null),
      user('v', 'e'),
      compaction('k', 'v', 'v'),
      edit('e2', 'k', 'zz', null),
    ]);
    expect(r.contextEntryIds).toEqual(['k', 'v', 'e2']);
    expect(r.context.messages.map((m: Rec) => m.role)).toEqual(['compactionSummary', 'user']);
    const kept = ca([...base(), user('v', 'a'), compaction('k', 'v', 'a'), edit('e', 'k', 'a', null)]);
    expect(kept.context.messages.map((m: Rec) => m.role)).toEqual(['compactionSummary', 'user']);
  });

  it('does not change system or summary messages', () => {
    const r = ca([message('s', null, { role: 'system', content: 'p' }), edit('e', 's', 's', { content: 'x' })]);
    expect(r.context.messages[0].content).toBe('p');
  });
});

describe('H3 selection and projection (Session.buildContext)', () => {
  it('compaction with retainedTail: summary + tail messages, nothing older', () => {
    const tail = [{ role: 'user', content: 'kept', timestamp: 1 }];
    const k = compaction('k', 'b', 'a', { retainedTail: tail, tokensBefore: 7 });
    const r = h3([user('a', null), assistant('b', 'a'), k, user('d', 'k')]);
    expect(r.contextEntryIds).toEqual(['k', 'd']);
    expect(rt(r.context.messages)).toEqual(
      rt([
        { role: 'compactionSummary', summary: 'summary k', tokensBefore: 7, timestamp: ms(k.timestamp) },
        ...tail,
        msgOf(user('d', 'k')),
      ]),
    );
  });

  it('retainedTail [] is a checkpoint with no tail messages', () => {
    const r = h3([user('a', null), compaction('k', 'a', 'a', { retainedTail: [] }), user('d', 'k')]);
    expect(r.contextEntryIds).toEqual(['k', 'd']);
    expect(r.context.messages.map((m: Rec) => m.role)).toEqual(['compactionSummary', 'user']);
  });

  it('firstKept range keeps system messages (no filtering in H3)', () => {
    const r = h3([
      message('s', null, { role: 'system', content: 'x' }),
      user('a', 's'),
      compaction('k', 'a', 's'),
      user('d', 'k'),
    ]);
    expect(r.contextEntryIds).toEqual(['k', 's', 'a', 'd']);
  });

  it('an older compaction inside the kept range projects a second summary', () => {
    const r = h3([
      user('a', null),
      compaction('k1', 'a', 'a'),
      user('b', 'k1'),
      compaction('k2', 'b', 'a'),
      user('c', 'k2'),
    ]);
    expect(r.context.messages.filter((m: Rec) => m.role === 'compactionSummary')).toHaveLength(2);
  });

  it('messages pass unchanged (no null-content fix, custom_message content as stored)', () => {
    const cm = entry('custom_message', 'cm', 'a', { customType: 't', display: true });
    const r = h3([message('a', null, { role: 'user', content: null, timestamp: 1 }), cm]);
    expect(r.context.messages[0].content).toBeNull();
    expect('content' in r.context.messages[1]).toBe(true);
    expect(r.context.messages[1].content).toBeUndefined();
  });

  it('custom entries and context_edit entries project nothing', () => {
    const r = h3([
      user('a', null),
      entry('custom', 'c', 'a', { customType: 'x' }),
      entry('context_edit', 'e', 'c', { targetId: 'a', replacement: null }),
    ]);
    expect(r.context.messages).toHaveLength(1);
  });

  it('state comes from the truncated path', () => {
    const r = h3([
      entry('thinking_level_change', 't', null, { thinkingLevel: 'high' }),
      entry('active_tools_change', 'at', 't', { activeToolNames: ['read', 'bash'] }),
      user('a', 'at'),
      compaction('k', 'a', 'a', { retainedTail: [] }),
      user('d', 'k'),
    ]);
    expect(rt(r.context)).toEqual(
      rt({ thinkingLevel: 'off', model: null, activeToolNames: null, messages: r.context.messages }),
    );
    const untruncated = h3([
      entry('active_tools_change', 'at', null, { activeToolNames: ['read'] }),
      user('a', 'at'),
      entry('active_tools_change', 'at2', 'a', { activeToolNames: ['bash'] }),
    ]);
    expect(untruncated.context.activeToolNames).toEqual(['bash']);
  });
});

describe('malformed payloads never throw', () => {
  it.each([
    ['message entry without message', [entry('message', 'a', null)]],
    ['message null', [entry('message', 'a', null, { message: null })]],
    ['context_edit without replacement', [user('a', null), entry('context_edit', 'e', 'a', { targetId: 'a' })]],
    ['retainedTail object', [user('a', null), compaction('k', 'a', 'a', { retainedTail: { x: 1 } })]],
    ['activeToolNames number', [entry('active_tools_change', 'a', null, { activeToolNames: 5 })]],
    ['label number (H3)', [user('a', null), label('l', 'a', 'a', 5 as unknown as string)]],
  ])('%s', (_name, entries) => {
    for (const profile of ['ca', 'h3'] as const) {
      const r = readSession(session(entries), { profile });
      expect(JSON.parse(JSON.stringify(r))).toBeTruthy();
    }
    const kinds = [
      ...readSession(session(entries), { profile: 'ca' }).issues,
      ...readSession(session(entries), { profile: 'h3' }).issues,
    ].map((i) => i.kind);
    expect(kinds).toContain('malformed_entry');
  });
});
