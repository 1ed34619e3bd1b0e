import { describe, expect, it } from 'vitest';
import { detectProfile, readSession, type ParsedSession } from '../../electron/core';
import { printTree } from '../../electron/cli/tree-text';
import { assistant, indexedSession, label, session, user } from '../core/helpers';

type Rec = Record<string, unknown>;

/** printTree's text for the lines parsed and indexed (they must agree); the indexed one is returned. */
function treeText(lines: Rec[]): string {
  const text = (s: ParsedSession) => {
    let out = '';
    printTree({ write: (chunk: string) => (out += chunk) }, s, readSession(s, { profile: detectProfile(s) }));
    return out;
  };
  const indexed = text(indexedSession(lines));
  expect(indexed).toBe(text(session(lines)));
  return indexed;
}

describe('canopy tree text', () => {
  it('indents at branch points only, marks the path and the leaf, shows labels escaped', () => {
    const out = treeText([
      user('u1', null),
      assistant('a1', 'u1'),
      user('u2', 'a1'),
      assistant('a2', 'u2'),
      user('u3', 'a1'),
      label('l1', 'u3', 'u2', 'tab\there'),
    ]);
    expect(out).toBe(
      [
        'u1 message:user (line 2) *',
        'a1 message:assistant (line 3) *',
        '  u2 message:user (line 4)  [tab\\u0009here]',
        '  a2 message:assistant (line 5)',
        '  u3 message:user (line 6) *',
        '  l1 label (line 7) *  ← leaf',
        '',
      ].join('\n'),
    );
  });

  it('a duplicate id is printed once, at its later line and under its later parent', () => {
    const out = treeText([user('a', null), assistant('b', 'a'), user('x', null), assistant('b', 'x')]);
    expect(out).toBe(
      ['a message:user (line 2)', 'x message:user (line 4) *', 'b message:assistant (line 5) *  ← leaf', ''].join('\n'),
    );
  });

  it('ids named like Object.prototype keys, escaped, non-ASCII and longer than the buffer', () => {
    const long = 'L'.repeat(10_000);
    const out = treeText([
      user('constructor', null),
      assistant('__proto__', 'constructor'),
      label('toString', '__proto__', 'constructor', 'first'),
      user('c\u0001d', 'toString'),
      user('ünï', 'c\u0001d'),
      user(long, 'ünï'),
    ]);
    expect(out.split('\n')).toEqual([
      'constructor message:user (line 2)  [first] *',
      '__proto__ message:assistant (line 3) *',
      'toString label (line 4) *',
      'c\\u0001d message:user (line 5) *',
      'ünï message:user (line 6) *',
      `${long} message:user (line 7) *  ← leaf`,
      '',
    ]);
  });

  it('indentation stops growing at 30 levels', () => {
    const lines: Rec[] = [user('r', null)];
    // Each level: a dead-end sibling and the chain going on.
    for (let d = 0; d < 40; d++) {
      const parent = d === 0 ? 'r' : `c${d - 1}`;
      lines.push(assistant(`x${d}`, parent), assistant(`c${d}`, parent));
    }
    const out = treeText(lines).split('\n');
    const indent = (prefix: string) => out.find((l) => l.trimStart().startsWith(`${prefix} `))!.search(/\S/);
    expect(indent('c0')).toBe(2);
    expect(indent('c28')).toBe(58);
    expect(indent('c29')).toBe(60);
    expect(indent('c39')).toBe(60);
  });
});
