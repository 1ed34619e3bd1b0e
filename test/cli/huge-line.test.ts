import { describe, expect, it } from 'vitest';
import { cli } from './run-cli';
import { holed, searchAround } from '../fixtures/holed';

const cliJson = (...argv: string[]) => cli(...argv, '--json');

/** A NUL run inside a line; the 2 GiB one is a scale test (test/scale/huge-line.test.ts). */
describe('a line of NUL bytes (a sparse hole)', () => {
  it('search: a 600 MiB line is said as a problem, and every other hit of the file is found', async () => {
    await searchAround(await holed(600 * 1024 * 1024));
  }, 120_000);

  it('a shorter NUL run is an invalid_json line with a nul_bytes issue where it is', async () => {
    const path = await holed(3000);
    const r = (await cliJson('context', path)).json[0]!;
    expect(r.pathIds).toEqual(['a', 'b']);
    expect(r.issues.map((i: { line: number; kind: string }) => [i.line, i.kind])).toEqual([
      [3, 'invalid_json'],
      [3, 'nul_bytes'],
    ]);
    expect(r.issues[1].message).toContain('3000 NUL bytes from column 1');
  });
});
