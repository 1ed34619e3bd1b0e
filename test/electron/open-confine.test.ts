import { describe, expect, it } from 'vitest';
import { confineOpenPaths, folderToShow, type KindOf } from '../../electron/open-confine';

const FS: Record<string, 'file' | 'dir' | 'fifo'> = {
  '/': 'dir',
  '/home/al': 'dir',
  '/home/al/proj': 'dir',
  '/home/al/s.jsonl': 'file',
  '/home/al/notes.txt': 'file',
  '/home/al/pipe.jsonl': 'fifo',
};
const kindOf: KindOf = (p) => {
  const k = FS[p];
  return k ? { isFile: k === 'file', isDirectory: k === 'dir' } : null;
};

describe('paths from outside the window', () => {
  it("a second instance's argv opens only .jsonl files and folders narrower than home", () => {
    const given = Object.keys(FS).concat(['/home/al/missing.jsonl']);
    expect(confineOpenPaths(given, kindOf, '/home/al')).toEqual(['/home/al/proj', '/home/al/s.jsonl']);
  });

  it('"Open Sessions Folder" shows a folder, never opens an opened .jsonl itself', () => {
    expect(folderToShow('/home/al/proj', kindOf)).toBe('/home/al/proj');
    expect(folderToShow('/home/al/s.jsonl', kindOf)).toBe('/home/al');
    expect(folderToShow('/gone', kindOf)).toBeNull();
    expect(folderToShow(undefined, kindOf)).toBeNull();
  });
});
