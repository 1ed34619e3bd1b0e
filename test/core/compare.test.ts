/**
 * Two branches compared from their common ancestor, on sessions pi's own SessionManager wrote:
 * the ancestor is pi's path walk's, each side's entries and usage are its path's own, the files are
 * exactly those the side's successful edit/write calls changed.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareBranches, parseSessionText, type ParsedSession } from '../../electron/core';
import { entriesById, piAncestor, writeFamily, type Family } from './compare-sessions';

let fam: Family;
let main: ParsedSession;
let fork: ParsedSession;

beforeAll(async () => {
  fam = await writeFamily();
  main = parseSessionText(readFileSync(fam.file, 'utf8'));
  fork = parseSessionText(readFileSync(fam.forkFile, 'utf8'));
});
afterAll(() => fam.cleanup());

const after = (branch: string[], ancestor: string) => branch.slice(branch.indexOf(ancestor) + 1);

function piCost(file: string, ids: string[]): number {
  const byId = entriesById(file);
  let sum = 0;
  for (const id of ids) {
    const m = byId.get(id)?.message as Record<string, any> | undefined;
    if (m?.role === 'assistant') sum += m.usage.cost.total as number;
  }
  return sum;
}

describe('compareBranches in one session', () => {
  it('finds the ancestor pi path walk gives and each side after it', () => {
    const c = compareBranches({ session: main, leafId: fam.leafA }, { session: main, leafId: fam.leafB });
    expect(c.ancestorId).toBe(piAncestor(fam.branchA, fam.branchB));
    expect(c.ancestorId).toBe(fam.ancestorId);
    expect(c.sides[0].entryIds).toEqual(after(fam.branchA, fam.ancestorId));
    expect(c.sides[1].entryIds).toEqual(after(fam.branchB, fam.ancestorId));
    expect(c.sides[0].cost).toBeCloseTo(piCost(fam.file, c.sides[0].entryIds), 12);
    expect(c.sides[1].cost).toBeCloseTo(piCost(fam.file, c.sides[1].entryIds), 12);
    expect(c.sides[0].cost).toBeCloseTo(0.053, 12);
  });

  it('counts per side: messages, tool calls, errors, model and thinking changes', () => {
    const [a, b] = compareBranches({ session: main, leafId: fam.leafA }, { session: main, leafId: fam.leafB }).sides;
    expect(a.stats).toMatchObject({ messages: 8, toolCalls: 3, errors: 1, modelChanges: [], compactions: [] });
    expect(a.stats.thinkingChanges.map((t) => t.level)).toEqual(['high']);
    expect(b.stats).toMatchObject({ messages: 8, toolCalls: 3, errors: 1 });
    expect(b.stats.modelChanges.map((m) => m.model)).toEqual(['openai/gpt-5']);
    expect(a.stats.usage.records.assistant).toBe(4);
  });

  it('shows exactly the files each side changed; a failed edit changes nothing', () => {
    const c = compareBranches({ session: main, leafId: fam.leafA }, { session: main, leafId: fam.leafB });
    const [a, b] = c.sides;
    expect(a.files.map((f) => f.path)).toEqual(['src/a.ts', 'src/b.ts']);
    const aa = a.files[0]!;
    expect(aa.diff).toContain('-two\n+TWO');
    expect(aa).toMatchObject({ added: 1, removed: 1, beforeWhole: true });
    // b.ts was only edited: its ancestor text is the edit's excerpt.
    expect(a.files[1]!.diff).toContain('-let x = 1;\n+let x = 2;\n');
    expect(a.files[1]!.diff).not.toContain('No newline');
    expect(a.files[1]!.beforeWhole).toBe(false);
    expect(b.files.map((f) => f.path)).toEqual(['src/a.ts']);
    expect(b.files[0]!.diff).toContain('-three\n+3');
    expect(b.files[0]!.diff).not.toContain('ONE');
    expect(b.shell.map((s) => s.command)).toEqual(['sed -i s/x/y/ src/d.ts']);
    // A against B: only the file both know whole (src/b.ts is known by an excerpt on A's side only).
    expect(c.versus.map((v) => v.path)).toEqual(['src/a.ts']);
    expect(c.versus[0]!.diff).toContain(' one\n-TWO\n-three\n+two\n+3\n');
    expect(a.shell).toEqual([]);
  });

  it('aligns turns and marks the first divergence', () => {
    const c = compareBranches({ session: main, leafId: fam.leafA }, { session: main, leafId: fam.leafB });
    expect(c.sides[0].turns.map((t) => t.prompt)).toEqual(['make it loud']);
    expect(c.rows).toEqual([{ a: 0, b: 0, samePrompt: false, divergent: true }]);
    expect(c.firstDivergence).toBe(0);
  });

  it('a leaf against its own ancestor: one side empty, the other the path after it', () => {
    const c = compareBranches({ session: main, leafId: fam.ancestorId }, { session: main, leafId: fam.leafA });
    expect(c.ancestorId).toBe(fam.ancestorId);
    expect(c.sides[0].entryIds).toEqual([]);
    expect(c.rows.every((r) => r.a === null && r.divergent)).toBe(true);
  });

  it('refuses a leaf that is not an entry', () => {
    expect(() => compareBranches({ session: main, leafId: 'nope' }, { session: main, leafId: fam.leafA })).toThrow(
      RangeError,
    );
  });
});

describe('compareBranches across a fork of the family', () => {
  it('compares through the copied entries', () => {
    const c = compareBranches({ session: main, leafId: fam.leafA }, { session: fork, leafId: fam.forkLeaf });
    expect(c.ancestorId).toBe(piAncestor(fam.branchA, fam.branchFork));
    expect(c.ancestorId).toBe(fam.ancestorId);
    expect(c.sides[1].entryIds).toEqual(after(fam.branchFork, fam.ancestorId));
    expect(c.sides[1].cost).toBeCloseTo(piCost(fam.forkFile, c.sides[1].entryIds), 12);
    expect(c.sides[1].files.map((f) => f.path)).toEqual(['src/a.ts', 'src/e.ts']);
    expect(c.sides[1].files[1]!.notes[0]).toMatch(/written whole/);
  });

  it('B against its own fork: the ancestor is B’s leaf', () => {
    const c = compareBranches({ session: main, leafId: fam.leafB }, { session: fork, leafId: fam.forkLeaf });
    expect(c.ancestorId).toBe(fam.leafB);
    expect(c.sides[0].entryIds).toEqual([]);
    expect(c.sides[1].entryIds).toEqual(after(fam.branchFork, fam.leafB));
    expect(c.sides[1].files.map((f) => f.path)).toEqual(['src/e.ts']);
  });

  it('two paths that share no entry have no ancestor', () => {
    const lone = parseSessionText(
      readFileSync(fam.file, 'utf8')
        .split('\n')
        .map((l) => l.replace(/"(id|parentId)":"([0-9a-f]{8})"/g, '"$1":"x$2"'))
        .join('\n'),
    );
    const c = compareBranches({ session: main, leafId: fam.leafA }, { session: lone, leafId: `x${fam.leafB}` });
    expect(c.ancestorId).toBeNull();
    expect(c.sides[1].entryIds).toHaveLength(fam.branchB.length);
    expect(c.sides[0].files.map((f) => f.path)).toEqual(['src/a.ts', 'src/b.ts']);
  });
});
