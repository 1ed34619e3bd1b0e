import { describe, expect, it } from 'vitest';
import { parseSessionText, readSession } from '../../electron/core';
import { header, indexText, jsonl } from './helpers';

// verify 'parse' checks lines from their skimmed text (long strings the index never reads are
// checked, not decoded): it must report exactly what parsing every line whole reports.
const long = 'x'.repeat(5000);
const ok = (id: string, parent: string | null, body: string): string =>
  `{"type":"message","id":"${id}","parentId":${parent === null ? 'null' : `"${parent}"`},"timestamp":"2026-01-01T00:00:0${id.length}.000Z","message":${body}}`;

const damaged: Array<[string, string]> = [
  [
    'a raw control character deep in a tool output',
    ok('bb', 'a', `{"role":"toolResult","content":[{"type":"text","text":"${long}\u0001${long}"}]}`),
  ],
  [
    'a bad escape in thinking',
    ok('bb', 'a', `{"role":"assistant","content":[{"type":"thinking","thinking":"${long}\\q"}]}`),
  ],
  ['an unclosed output string', ok('bb', 'a', `{"role":"bashExecution","command":"ls","output":"${long}`).slice(0, -2)],
  ['a missing brace after a long text', ok('bb', 'a', `{"role":"user","content":"${long}"`)],
  [
    'a trailing comma after a long text',
    ok('bb', 'a', `{"role":"user","content":[{"type":"text","text":"${long}"},]}`),
  ],
  [
    'a valid line with escapes and non-ASCII in long strings',
    ok('bb', 'a', `{"role":"user","content":"${long}\\n\\u00e9é\\"${long}"}`),
  ],
  [
    'a line nested too deep under a long text',
    ok('bb', 'a', `{"role":"user","content":"${long}","x":${'['.repeat(1200)}${']'.repeat(1200)}}`),
  ],
  [
    'a duplicate id after a long text',
    `{"type":"message","id":"bb","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"${long}"},"id":"a"}`,
  ],
];

describe("verify 'parse' = parsing every line whole", () => {
  for (const [name, line] of damaged) {
    it(name, () => {
      const text = `${jsonl([header(), JSON.parse(ok('a', null, '{"role":"user","content":"q"}'))])}${line}\n${ok('ccc', 'a', '{"role":"user","content":"r"}')}\n`;
      const eager = parseSessionText(text);
      const checked = indexText(text, { verify: 'parse' }).result();
      expect(checked.issues).toEqual(eager.issues);
      expect(checked.entries.map((e) => [e.id, e.line, e.parentId])).toEqual(
        eager.entries.map((e) => [e.id, e.line, e.parentId]),
      );
      // Bodies read later are the whole lines, not their skimmed text.
      expect(checked.entries.map((e) => e.raw)).toEqual(eager.entries.map((e) => e.raw));
      for (const profile of ['ca', 'h3'] as const)
        expect(readSession(checked, { profile })).toEqual(readSession(eager, { profile }));
    });
  }

  it('finds damage off the path that the fast scan leaves for a body read', () => {
    const bad = damaged[0]![1];
    const text = `${jsonl([header(), JSON.parse(ok('a', null, '{"role":"user","content":"q"}'))])}${bad}\n${ok('ccc', 'a', '{"role":"user","content":"r"}')}\n`;
    expect(indexText(text).result().issues).toEqual([]);
    expect(
      indexText(text, { verify: 'parse' })
        .result()
        .issues.map((i) => [i.line, i.kind]),
    ).toEqual([[3, 'invalid_json']]);
  });
});
