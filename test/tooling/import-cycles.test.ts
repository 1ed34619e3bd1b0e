import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, importGraph, importsOf, treeGraph } from './import-graph';

// docs/architecture.md: the main process has no import circle. A circle of files means none of
// them can be read, tested or moved alone (the repo once had one of seven files).
const root = join(__dirname, '..', '..');

describe('import cycles', () => {
  it('electron/ holds no import circle of three or more files', () => {
    expect(circles(treeGraph(root, 'electron'))).toEqual([]);
  });

  it('finds a planted circle of three files, type-only imports included', () => {
    const files = new Map([
      ['electron/repo/a.ts', "import { b } from './b';\nexport const a = 1;"],
      ['electron/repo/b.ts', "import type { C } from '../c';\nexport const b = 2;"],
      ['electron/c.ts', "export { a } from './repo/a';\nexport type C = number;"],
      ['electron/d.ts', "import { a } from './repo/a';"],
    ]);
    expect(circles(importGraph(files))).toEqual([['electron/c.ts', 'electron/repo/a.ts', 'electron/repo/b.ts']]);
    // Cut one edge: no circle is left; two files importing each other are not a circle of three.
    files.set('electron/c.ts', "import { b } from './repo/b';\nexport type C = number;");
    expect(circles(importGraph(files))).toEqual([]);
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
});
