import { describe, expect, it } from 'vitest';
import { buildTree, parseSessionText, planFork, readSession } from '../../electron/core';
import { header, jsonl, ts } from './helpers';

const N = 100_000;

function chain(n: number): string {
  const values: Record<string, unknown>[] = [header()];
  for (let i = 0; i < n; i++) {
    const role = i % 2 ? 'assistant' : 'user';
    values.push({
      type: 'message',
      id: `e${i}`,
      parentId: i ? `e${i - 1}` : null,
      timestamp: ts(i),
      message: { role, content: 'x', provider: 'p', model: 'm' },
    });
  }
  return jsonl(values);
}

describe('scale: 100k-entry chain, no recursion', () => {
  const text = chain(N);
  // Speed is measured by `npm run bench`; this proves no step recurses per entry (100k deep).
  it('parses, reads under both profiles, builds the tree and plans a clone', () => {
    const s = parseSessionText(text);
    expect(s.entries).toHaveLength(N);
    const ca = readSession(s, { profile: 'ca' });
    expect(ca.pathIds).toHaveLength(N);
    expect(ca.pathIds[0]).toBe('e0');
    const h3 = readSession(s, { profile: 'h3' });
    expect(h3.pathIds).toHaveLength(N);
    const tree = buildTree(s);
    expect(tree.roots).toEqual(['e0']);
    const plan = planFork(
      s,
      { kind: 'clone', profile: 'ca' },
      { sourcePath: '/p', newSessionId: 'n', now: ts(0), newEntryId: () => 'x' },
    );
    expect(plan.ok && plan.entries.length).toBe(N);
  });

  it('a 100k cycle terminates', () => {
    const s = parseSessionText(text.replace('"parentId":null', `"parentId":"e${N - 1}"`));
    const r = readSession(s, { profile: 'ca' });
    expect(r.pathIds).toHaveLength(N);
    expect(r.issues.map((i) => i.kind)).toContain('cycle');
    const t = buildTree(s);
    expect(t.roots).toEqual(['e0']);
  });
});
