import { describe, expect, it } from 'vitest';
import { plainText, sessionLabel, sessionTitle } from '../../../renderer/src/model/session-title';
import { countOf } from '../../../renderer/src/lib/format';
import { row, summary } from '../fake-api';

describe('plainText', () => {
  it('drops code fences, heading, quote and list marks, emphasis, ticks and link syntax', () => {
    expect(plainText('```ts\nconst a = 1;\n```\nfix it')).toBe('const a = 1; fix it');
    expect(plainText('# Title\n> quoted **bold** and _it_ `code`')).toBe('Title quoted bold and it code');
    expect(plainText('- one\n2. two [link](http://x) ![img](a.png)')).toBe('one two link img');
    expect(plainText('snake_case_name and 2*3*4')).toBe('snake_case_name and 2*3*4');
  });
});

describe('sessionTitle', () => {
  it('is the name, else the first message as plain text, else the file name', () => {
    expect(sessionTitle(row('a', '/p'), summary(' Named ', 'hi'))).toBe('Named');
    expect(sessionTitle(row('a', '/p'), summary(null, '```\nnpm test\n```'))).toBe('npm test');
    expect(sessionTitle(row('a', '/p', { fileName: 'a.jsonl' }), null)).toBe('a.jsonl');
    expect(sessionTitle(row('a', '/p'), summary(null, 'x'.repeat(500))).length).toBe(200);
  });

  it('calls a fork by its own first message, else by when it was forked: forks of one parent differ', () => {
    const fork = (id: string, createdAt: string) =>
      row(id, '/p', { parentSessionId: 'parent', parentSessionPath: '/p/parent.jsonl', createdAt });
    const copied = summary(null, 'the parent question');
    expect(sessionTitle(fork('f1', '2026-03-02T09:05:00Z'), { ...copied, ownFirstMessage: 'try *another* way' })).toBe(
      'try another way',
    );
    const a = sessionTitle(fork('f2', '2026-03-02T09:05:00Z'), copied);
    const b = sessionTitle(fork('f3', '2026-03-02T11:40:00Z'), copied);
    expect(a).toMatch(/^fork .* · the parent question$/);
    expect(a).not.toBe(b);
    expect(sessionTitle(fork('f4', '2026-03-02T09:05:00Z'), summary('Named fork', 'x'))).toBe('Named fork');
  });
});

describe('forks as branches', () => {
  const fork = (id: string) =>
    row(id, '/p', {
      parentSessionId: 'parent',
      parentSessionPath: '/p/parent.jsonl',
      createdAt: '2026-03-02T09:05:00Z',
    });
  const copied = summary(null, 'the parent question');

  it('sibling forks with no prompt of their own are told apart by where they branched off', () => {
    const a = sessionTitle(fork('f1'), { ...copied, branchedAfter: 'use a **stack**' });
    const b = sessionTitle(fork('f2'), { ...copied, branchedAfter: 'use recursion' });
    expect(a).toMatch(/^fork after “use a stack” · /);
    expect(b).toMatch(/^fork after “use recursion” · /);
  });

  it('one line says both: its own first prompt and where it branched off (not for named or unforked sessions)', () => {
    const s = { ...copied, ownFirstMessage: 'try a trie', branchedAfter: 'speed up lookups' };
    expect(sessionLabel(fork('f1'), s)).toBe('try a trie · after “speed up lookups”');
    expect(sessionLabel(fork('f1'), { ...s, name: 'Trie' })).toBe('Trie');
    expect(sessionLabel(row('a', '/p'), summary(null, 'hi'))).toBe('hi');
  });
});

describe('countOf', () => {
  it('puts the noun in the right number', () => {
    expect(countOf(1, 'entry', 'entries')).toBe('1 entry');
    expect(countOf(0, 'hit')).toBe('0 hits');
    expect(countOf(1200, 'session')).toBe('1,200 sessions');
  });
});
