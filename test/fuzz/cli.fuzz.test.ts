/**
 * The CLI over damaged files, many in one invocation: no crash, one JSON line per file (in order),
 * every line that is not JSON, torn or too deep reported at its physical line, and a file whose
 * damage makes it unreadable is an error line of its own (the others still print).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli';
import { tempDir } from '../repo/helpers';
import { damagedFiles, NUL_LINES, type Damaged } from './mutate';

async function cliJson(argv: string[]): Promise<{ code: number; lines: Record<string, any>[]; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return {
    code,
    err,
    lines: out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>),
  };
}

function checkReported(file: Damaged, result: Record<string, any>): void {
  if (result.error) {
    // Only a damaged header (or no header left) makes a file unreadable.
    expect(['invalid_session', 'unsupported_format'], `${file.name}: ${JSON.stringify(result.error)}`).toContain(
      result.error.code,
    );
    return;
  }
  const issues = result.issues as { line: number; kind: string }[];
  for (const line of NUL_LINES.get(file.bytes) ?? [])
    expect(
      issues.some((i) => i.line === line && i.kind === 'nul_bytes'),
      `${file.name}: line ${line} should have nul_bytes`,
    ).toBe(true);
  for (const [line, kinds] of file.expected) {
    expect(
      issues.some((i) => i.line === line && kinds.includes(i.kind)),
      `${file.name}: line ${line} should have ${kinds.join('|')}; got ${JSON.stringify(issues)}`,
    ).toBe(true);
  }
}

describe('fuzz: canopy context / tree', () => {
  // No time limit of its own: the fuzz project's ceiling stops only a hang.
  it('every damaged file gets exactly one JSON line, with its bad lines at their physical lines', async () => {
    const dir = await tempDir('canopy-fuzz-');
    const files = damagedFiles(20261201, { huge: true });
    const paths: string[] = [];
    for (const f of files) {
      const p = join(dir, f.name);
      await writeFile(p, f.bytes);
      paths.push(p);
    }
    for (const command of ['context', 'tree']) {
      for (const profile of ['ca', 'h3']) {
        const r = await cliJson([command, ...paths, '--profile', profile, '--json']);
        expect(r.err).toBe('');
        expect([0, 1]).toContain(r.code);
        expect(r.lines.map((l) => l.file)).toEqual(paths);
        files.forEach((f, i) => checkReported(f, r.lines[i]!));
        expect(r.code).toBe(r.lines.some((l) => l.error) ? 1 : 0);
      }
    }
  });
});
