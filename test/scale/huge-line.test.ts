/** A line of 2 GiB and more (a sparse hole of NUL bytes): the CLI reports it at its line and goes on. */
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli';
import { holed, searchAround } from '../fixtures/holed';

const cliJson = (...argv: string[]) => cli(...argv, '--json');

describe('a line of 2 GiB and more (a sparse hole of NUL bytes)', () => {
  // tree reads through the same forEachSession as context: one 2 GiB pass each is enough here.
  it('context reports it at its line and shows the rest; search lives through it', async () => {
    const path = await holed(2 ** 31 + 4096);
    const ctx = await cliJson('context', path);
    expect(ctx.code).toBe(0);
    const r = ctx.json[0]!;
    expect(r.pathIds).toEqual(['a', 'b']);
    const kinds = (r.issues as { line: number; kind: string; message: string }[]).map((i) => [i.line, i.kind]);
    expect(kinds).toEqual([
      [3, 'line_over_limit'],
      [3, 'nul_bytes'],
    ]);
    expect(r.issues[1].message).toContain(`${2 ** 31 + 4096} NUL bytes`);
    await searchAround(path);
  });
});
