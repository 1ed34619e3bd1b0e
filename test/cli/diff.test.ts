/** `canopy diff`: the --json shape, the Markdown, --against a fork, and the exit codes. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFamily, type Family } from '../core/compare-sessions';
import { cli } from './run-cli';

let fam: Family;
beforeAll(async () => {
  fam = await writeFamily();
});
afterAll(() => fam.cleanup());

const after = (branch: string[], ancestor: string) => branch.slice(branch.indexOf(ancestor) + 1);

describe('canopy diff', () => {
  it('--json: one object with the ancestor and two sides', async () => {
    const r = await cli('diff', fam.file, '--leaf', fam.leafA, '--leaf', fam.leafB, '--json');
    expect(r.code).toBe(0);
    expect(r.json).toHaveLength(1);
    const o = r.json[0]!;
    expect(o.ancestorId).toBe(fam.ancestorId);
    expect(o.sides).toHaveLength(2);
    const [a, b] = o.sides as Record<string, any>[];
    expect(a).toMatchObject({ leafId: fam.leafA, entryIds: after(fam.branchA, fam.ancestorId) });
    expect(b).toMatchObject({ leafId: fam.leafB, entryIds: after(fam.branchB, fam.ancestorId) });
    expect(a!.cost).toBeCloseTo(0.053, 12);
    expect(b!.cost).toBeCloseTo(0.062, 12);
    expect(a!.files.map((f: { path: string }) => f.path)).toEqual(['src/a.ts', 'src/b.ts']);
    expect(b!.files).toHaveLength(1);
    expect(b!.files[0]).toMatchObject({ path: 'src/a.ts' });
    expect(b!.files[0].diff).toMatch(/^--- a\/src\/a\.ts/m);
    expect(b!.files[0].diff).toContain('-three\n+3');
    expect(o.versus.map((v: { path: string }) => v.path)).toEqual(['src/a.ts']);
  });

  it('--against: a leaf of a fork in another file of the family', async () => {
    const r = await cli(
      'diff',
      fam.file,
      '--leaf',
      fam.leafA,
      '--leaf',
      fam.forkLeaf,
      '--against',
      fam.forkFile,
      '--json',
    );
    expect(r.code).toBe(0);
    const o = r.json[0]!;
    expect(o.ancestorId).toBe(fam.ancestorId);
    expect(o.sides[1].file).toBe(fam.forkFile);
    expect(o.sides[1].entryIds).toEqual(after(fam.branchFork, fam.ancestorId));
  });

  it('Markdown: the ancestor, the stats table, the turns and a diff per file', async () => {
    const r = await cli('diff', fam.file, '--leaf', fam.leafA, '--leaf', fam.leafB);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Common ancestor: \`${fam.ancestorId}\``);
    expect(r.out).toContain('| cost | $0.0530 | $0.0620 |');
    expect(r.out).toContain('A: make it loud · B: make it quiet **← first divergence**');
    expect(r.out).toContain('### `src/b.ts`');
    expect(r.out).toMatch(/```diff\n@@ [^\n]+\n one\n-two\n\+TWO/);
    expect(r.out).toContain('**B** ran 1 shell command(s)');
    expect(r.out).toMatch(/\*\*A → B\*\* \(\+2 −2\)\n\n```diff\n@@ [^\n]+\n one\n-TWO\n-three\n\+two\n\+3\n```/);
  });

  it('exit 2 for a bad --leaf count or an unknown leaf, exit 1 for an unreadable file', async () => {
    const one = await cli('diff', fam.file, '--leaf', fam.leafA);
    expect(one.code).toBe(2);
    expect(one.err).toContain('exactly two --leaf');
    const unknown = await cli('diff', fam.file, '--leaf', fam.leafA, '--leaf', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('nope');
    const missing = await cli('diff', join(fam.dir, 'missing.jsonl'), '--leaf', 'a', '--leaf', 'b', '--json');
    expect(missing.code).toBe(1);
    expect(missing.json[0]).toMatchObject({ error: { code: expect.any(String) } });
  });
});
