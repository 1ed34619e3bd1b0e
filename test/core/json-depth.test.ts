import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cutDeep,
  MAX_DEPTH,
  nestingExceeds,
  parseBounded,
  TOO_DEEP_MARKER,
} from '../../electron/core/rules/json-depth';
import { parseSessionText } from '../../electron/core';

const nested = (depth: number, open = '[', close = ']'): string => open.repeat(depth) + close.repeat(depth);
const deepObject = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Depth of a value, counted without recursion (the value itself is level 1). */
function depthOf(v: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    max = Math.max(max, d);
    for (const c of Object.values(x)) stack.push([c, d + 1]);
  }
  return max;
}

describe('json-depth', () => {
  it('measures nesting outside strings only', () => {
    expect(nestingExceeds(nested(MAX_DEPTH))).toBe(false);
    expect(nestingExceeds(nested(MAX_DEPTH + 1))).toBe(true);
    expect(nestingExceeds(deepObject(MAX_DEPTH + 1))).toBe(true);
    // Brackets inside strings (with escaped quotes before them) do not count.
    expect(nestingExceeds(JSON.stringify({ t: `\\"${nested(5000)}` }))).toBe(false);
    expect(nestingExceeds(JSON.stringify([`a\\`, nested(1)]) + ' '.repeat(2000))).toBe(false);
  });

  it('leaves values within the limit exactly as JSON.parse gives them', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (v) => {
        const text = JSON.stringify(v);
        const r = parseBounded(text);
        expect(r.tooDeep).toBe(false);
        expect(r.value).toEqual(JSON.parse(text));
      }),
      { seed: 12, numRuns: 300 },
    );
  });

  it('cuts a 100k-deep array or object at the limit; the result stringifies', () => {
    for (const text of [nested(100_000), deepObject(100_000), `{"__proto__":${nested(5000)}}`]) {
      const r = parseBounded(text);
      expect(r.tooDeep).toBe(true);
      expect(depthOf(r.value)).toBe(MAX_DEPTH);
      expect(JSON.stringify(r.value)).toContain(JSON.stringify(TOO_DEEP_MARKER));
    }
    // A "__proto__" key stays an own property (not the prototype).
    const proto = parseBounded(`{"__proto__":${nested(5000)}}`).value as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
    expect(cutDeep([[1]], 1)).toEqual([TOO_DEEP_MARKER]);
  });

  it("throws JSON.parse's SyntaxError for text that is not JSON", () => {
    expect(() => parseBounded(nested(5000).slice(1))).toThrow(SyntaxError);
  });

  it('a deep body or header is an issue of its physical line; the entries still read', () => {
    const h = { type: 'session', version: 3, id: 's', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/' };
    const m = (id: string, content: string): string =>
      `{"type":"message","id":"${id}","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":${content}}}`;
    const text = [
      JSON.stringify({ ...h, x: 1 }).replace('1}', `${nested(5000)}}`),
      '',
      m('a', nested(5000)),
      m('b', '"ok"'),
    ].join('\n');
    const s = parseSessionText(text);
    expect(s.issues.map((i) => [i.line, i.kind])).toEqual([
      [1, 'too_deep'],
      [3, 'too_deep'],
    ]);
    expect(s.entries.map((e) => e.id)).toEqual(['a', 'b']);
    expect(() => JSON.stringify([s.header, s.entries.map((e) => e.raw)])).not.toThrow();
  });
});
