import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, importGraph, importsOf, treeGraph } from './import-graph';
import { floorOf, upwardImports } from './floors';

// docs/architecture.md: the main process has no import circle. A circle of files means none of
// them can be read, tested or moved alone (the repo once had one of seven files).
const root = join(__dirname, '..', '..');

describe('import cycles', () => {
  it('electron/ holds no import circle, not even of two files (type-only imports count)', () => {
    expect(circles(treeGraph(root, 'electron'), 2)).toEqual([]);
  });

  it('finds a planted circle of three files, type-only imports included', () => {
    const files = new Map([
      ['electron/repo/a.ts', "import { b } from './b';\nexport const a = 1;"],
      ['electron/repo/b.ts', "import type { C } from '../c';\nexport const b = 2;"],
      ['electron/c.ts', "export { a } from './repo/a';\nexport type C = number;"],
      ['electron/d.ts', "import { a } from './repo/a';"],
    ]);
    expect(circles(importGraph(files))).toEqual([['electron/c.ts', 'electron/repo/a.ts', 'electron/repo/b.ts']]);
    // Cut one edge: no circle of three is left; the two files importing each other are one of two.
    files.set('electron/c.ts', "import { b } from './repo/b';\nexport type C = number;");
    expect(circles(importGraph(files))).toEqual([]);
    expect(circles(importGraph(files), 2)).toEqual([['electron/c.ts', 'electron/repo/b.ts']]);
  });

  it('reads every form of import', () => {
    const text = [
      "import a from './a';",
      "import type { B } from '../b';",
      "export * from './c';",
      "import './d';",
      "const e = await import('./e');",
      "import x from 'node:fs';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a', '../b', './c', './d', './e']);
  });

  it('no import runs up the floors of docs/architecture.md (shared, storage and core, threads, repo, wings, ipc, the app)', () => {
    expect(upwardImports(treeGraph(root, 'electron'))).toEqual([]);
  });

  it('finds a planted upward import: threads importing repo, the heart importing a wing', () => {
    const graph = new Map([
      ['electron/threads/pool.ts', ['electron/repo/catalog.ts', 'electron/storage/stat.ts']],
      ['electron/repo/catalog.ts', ['electron/search/index.ts', 'electron/threads/pool.ts']],
      ['electron/search/index.ts', ['electron/repo/catalog.ts']],
    ]);
    expect(upwardImports(graph)).toEqual([
      'electron/threads/pool.ts -> electron/repo/catalog.ts',
      'electron/repo/catalog.ts -> electron/search/index.ts',
    ]);
    expect(floorOf('electron/secrets/rules/scan.ts')).toBe(floorOf('electron/export/index.ts'));
    expect(floorOf('electron/cli/index.ts')).toBeGreaterThan(floorOf('electron/app-services.ts'));
  });
});
