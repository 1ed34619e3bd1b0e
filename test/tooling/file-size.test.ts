import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './import-graph';

// No source file over 400 lines (docs/architecture.md): a file that grows past it holds two things.
const MAX_LINES = 400;
const root = join(__dirname, '..', '..');

export function linesOf(text: string): number {
  return text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('file size', () => {
  it(`no source file in electron/, renderer/, preload/, pi-package/ is over ${MAX_LINES} lines`, () => {
    const over = ['electron', 'renderer', 'preload', 'pi-package']
      .flatMap((dir) => sourceFiles(root, dir))
      .map((file) => ({ file, lines: linesOf(readFileSync(join(root, file), 'utf8')) }))
      .filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });

  it('counts lines as an editor shows them', () => {
    expect(linesOf('')).toBe(0);
    expect(linesOf('a\n')).toBe(1);
    expect(linesOf('a\nb')).toBe(2);
    expect(linesOf('a\n'.repeat(401))).toBeGreaterThan(MAX_LINES);
  });
});
