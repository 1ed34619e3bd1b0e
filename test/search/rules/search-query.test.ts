import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fuzzyContains,
  makeSnippet,
  matchEntry,
  parseSearchQuery,
  regexLiterals,
  requiredSubstrings,
  termsMetBySession,
  type SearchQuery,
} from '../../../electron/search/rules/search-query';
import { indexedText, searchFields } from '../../../electron/search/rules/search-text';

function parse(text: string): SearchQuery {
  const r = parseSearchQuery(text);
  if (!r.ok) throw new Error(r.error);
  return r.query;
}

describe('parseSearchQuery', () => {
  it.each([
    [
      'foo bar',
      [
        ['word', 'foo'],
        ['word', 'bar'],
      ],
    ],
    [
      'foo "node  cve" bar',
      [
        ['word', 'foo'],
        ['phrase', 'node cve'],
        ['word', 'bar'],
      ],
    ],
    // pi: an unclosed quote falls back to splitting on whitespace.
    [
      'say "hello world',
      [
        ['word', 'say'],
        ['word', '"hello'],
        ['word', 'world'],
      ],
    ],
    [
      '  spaced   out  ',
      [
        ['word', 'spaced'],
        ['word', 'out'],
      ],
    ],
    [
      'C:\\dir http://x',
      [
        ['word', 'C:\\dir'],
        ['word', 'http://x'],
      ],
    ],
  ])('%j → terms', (text, terms) => {
    expect(parse(text).terms.map((t) => [t.kind, t.value])).toEqual(terms);
  });

  it('takes filters and leaves the rest as terms', () => {
    const q = parse(
      'project:canopy role:bash tool:Read file:"src/a b.ts" after:2026-01-02 before:2026-02-01 branch:active npm',
    );
    expect(q.terms.map((t) => t.value)).toEqual(['npm']);
    expect(q.filters).toEqual({
      projects: ['canopy'],
      roles: ['bash'],
      tools: ['read'],
      files: ['src/a b.ts'],
      after: Date.parse('2026-01-02'),
      before: Date.parse('2026-02-01'),
      activeBranch: true,
    });
  });

  it('re: takes the rest of the query as a case-insensitive pattern, filters before it', () => {
    const q = parse('role:tool re:npm (ci|install) --x');
    expect(q.regex?.source).toBe('npm (ci|install) --x');
    expect(q.regex?.flags).toBe('i');
    expect(q.filters.roles).toEqual(['tool']);
    expect(q.terms).toEqual([]);
  });

  it.each([
    ['re:(unclosed', /re: is not a valid regular expression/],
    ['re:', /re: needs a pattern/],
    ['role:robot x', /role: is one of/],
    ['after:yesterday x', /after: wants a date/],
    ['branch:other x', /branch: only takes "active"/],
    ['   ', /empty/],
    ['tool: x', /tool: needs a value/],
  ])('%j is a bad query', (text, message) => {
    const r = parseSearchQuery(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });
});

describe('matching as pi does', () => {
  const none = [false, false, false];
  it('words are case-insensitive substrings that must all match; a phrase matches across whitespace runs', () => {
    const q = parse('Config "load  the" FILE');
    expect(matchEntry(q, none, 'we loadconfig;\nload\n\tthe file', '')).not.toBeNull();
    expect(matchEntry(q, none, 'loadconfig load the', '')).toBeNull();
    expect(matchEntry(q, none, 'loadthe config file', '')).toBeNull();
  });

  it('a term may match the thinking field, reported as such', () => {
    const q = parse('secret');
    expect(matchEntry(q, [false], 'nothing here', 'a Secret plan')).toEqual({ field: 'thinking', start: 2, end: 8 });
  });

  it('terms met by the session need not be in the entry, but one term must be', () => {
    const q = parse('canopy bug');
    const met = termsMetBySession(q, { id: 'abc', path: '/s/x.jsonl', cwd: '/work/canopy', name: null });
    expect(met).toEqual([true, false]);
    expect(matchEntry(q, met, 'a bug here', '')).toMatchObject({ start: 2, end: 5 });
    expect(matchEntry(q, met, 'canopy only', '')).toBeNull();
  });

  it('words match the name and cwd fuzzily (in order, with gaps), ids only literally', () => {
    expect(fuzzyContains('cnpy', '/work/canopy')).toBe(true);
    expect(fuzzyContains('ypc', '/work/canopy')).toBe(false);
    const q = parse('wrkcnp 019c');
    expect(termsMetBySession(q, { id: '019c-aa', path: '/p', cwd: '/work/canopy', name: null })).toEqual([true, true]);
    expect(termsMetBySession(parse('01aa'), { id: '019c-aa', path: '/p', cwd: '/x', name: null })).toEqual([false]);
  });

  it('regex literals give the trigram prefilter only what the regex needs', () => {
    expect(regexLiterals('npm (ci|install)')).toEqual(['npm ']);
    expect(regexLiterals('foo|bar')).toEqual([]);
    expect(regexLiterals('colou?r\\.ts')).toEqual(['colo', 'r.ts']);
    expect(regexLiterals('a{2,3}bcd[xyz]efg\\d+hij')).toEqual(['bcd', 'efg', 'hij']);
  });

  it('an escape with digits or a name after its letter is no literal (\\u00a0 is not "00a0")', () => {
    expect(regexLiterals('ab\\u00a0cd')).toEqual(['ab', 'cd']);
    expect(regexLiterals('\\x1b\\[31m')).toEqual(['[31m']);
    expect(regexLiterals('x\\cJyz')).toEqual(['x', 'yz']);
    expect(regexLiterals('(a)b\\1cd')).toEqual(['b', 'cd']);
    expect(regexLiterals('(?<n>a)b\\k<n>cd')).toEqual(['b', 'cd']);
  });

  it('required whitespace joins a regex literal as one space; optional whitespace cuts it', () => {
    expect(regexLiterals('tom\\s+cl\\w*')).toEqual(['tom cl']);
    expect(regexLiterals('a \\s\tb')).toEqual(['a b']);
    expect(regexLiterals('red\\s*fox')).toEqual(['red', 'fox']);
    expect(regexLiterals('red\\s?fox \\s{0,2}x')).toEqual(['red', 'fox ', 'x']);
    expect(regexLiterals('(a\\s+b)c')).toEqual(['c']);
  });

  it('every required substring of a regex is in the indexed text of any text it matches', () => {
    const word = fc.constantFrom('red', 'fox', 'Ran', 'a', 'of');
    const gap = fc.constantFrom(' ', '  ', '\t', '\n\n', ' \u00a0');
    const atom = fc.constantFrom('\\s', '\\s+', '\\s*', ' ', ' +', '\\s?', '\\s\\s');
    const pattern = fc
      .array(fc.tuple(word, atom), { minLength: 1, maxLength: 4 })
      .map((xs) => xs.map(([w, a]) => w + a).join(''));
    const text = fc
      .array(fc.tuple(word, gap), { minLength: 1, maxLength: 8 })
      .map((xs) => xs.map(([w, g]) => w + g).join(''));
    fc.assert(
      fc.property(pattern, text, (source, t) => {
        const re = new RegExp(source, 'i');
        if (!re.test(t)) return;
        const body = indexedText({ text: t, thinking: '' }).toLowerCase();
        const q: SearchQuery = { terms: [], regex: re, filters: parse('x').filters };
        for (const s of requiredSubstrings(q, [])) expect(body).toContain(s.toLowerCase());
      }),
      { numRuns: 3000, seed: 7 },
    );
  });

  it('snippets collapse whitespace and point at the match', () => {
    const text = `${'x'.repeat(200)}\n\nthe  needle\there${'y'.repeat(200)}`;
    const at = text.indexOf('needle');
    const s = makeSnippet(text, at, at + 6, 60);
    expect(s.text.slice(s.match[0], s.match[1])).toBe('needle');
    expect(s.text.startsWith('…')).toBe(true);
    expect(s.text.endsWith('…')).toBe(true);
    expect(s.text).toContain('the needle here');
  });
});

describe('searchFields', () => {
  it('takes text, tool calls and results, bash and summaries; never image data', () => {
    const assistant = searchFields({
      type: 'message',
      id: 'a',
      parentId: 'u',
      timestamp: '2026-01-01T00:00:00Z',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm deep', thinkingSignature: 'SIG' },
          { type: 'text', text: 'Reading it' },
          { type: 'toolCall', id: 't', name: 'read', arguments: { path: 'src/app.ts', limit: 20 } },
        ],
      },
    });
    expect(assistant).toMatchObject({
      id: 'a',
      parentId: 'u',
      role: 'assistant',
      thinking: 'hmm deep',
      tools: ['read'],
      paths: 'src/app.ts',
    });
    expect(assistant.text).toBe('Reading it\nread\nsrc/app.ts\n20');
    expect(assistant.time).toBe(Date.parse('2026-01-01T00:00:00Z'));

    const user = searchFields({
      type: 'message',
      id: 'u',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', data: 'QUJDREVGR0g=', mimeType: 'image/png' },
        ],
      },
    });
    expect(user.text).toBe('look');
    expect(JSON.stringify(user)).not.toContain('QUJD');

    const result = searchFields({
      type: 'message',
      id: 'r',
      message: {
        role: 'toolResult',
        toolName: 'bash',
        content: [{ type: 'text', text: 'edited ./lib/x.js and /etc/hosts' }],
      },
    });
    expect(result).toMatchObject({ role: 'tool', tools: ['bash'], paths: './lib/x.js\n/etc/hosts' });

    expect(
      searchFields({ type: 'message', id: 'b', message: { role: 'bashExecution', command: 'ls', output: 'a.txt' } }),
    ).toMatchObject({ role: 'bash', text: 'ls\na.txt' });
    expect(searchFields({ type: 'compaction', id: 'c', summary: 'so far' })).toMatchObject({
      role: 'summary',
      text: 'so far',
    });
    expect(searchFields({ type: 'custom_message', id: 'm', customType: 'note', content: 'hi' })).toMatchObject({
      role: 'custom',
      text: 'note\nhi',
    });
    expect(searchFields({ type: 'session_info', id: 'n', name: ' Plan ' })).toMatchObject({
      sessionName: 'Plan',
      text: 'Plan',
    });
    expect(searchFields({ type: 'label', id: 'l', targetId: 'a', label: 'keep' })).toMatchObject({
      role: 'other',
      text: 'keep',
    });
    expect(searchFields({ type: 'leaf', id: 'f', targetId: 'a' })).toMatchObject({ leafTarget: 'a', text: '' });
  });
});
