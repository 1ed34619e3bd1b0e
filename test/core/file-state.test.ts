/** Files rebuilt from pi's edit/write calls and their results: argument shapes, paths, excerpts, failures. */
import { describe, expect, it } from 'vitest';
import { editsOf, ELISION, fileKey, FileStates, type Entry } from '../../electron/core';

let n = 0;
function msg(message: Record<string, unknown>): Entry {
  n++;
  return { id: `e${n}`, parentId: null, type: 'message', timestamp: '', line: n, raw: { message } };
}
/** A call and its result, read in order. */
function run(fs: FileStates, name: string, args: unknown, isError = false): void {
  const id = `call${++n}`;
  fs.read(msg({ role: 'assistant', content: [{ type: 'toolCall', id, name, arguments: args }] }));
  fs.read(msg({ role: 'toolResult', toolCallId: id, toolName: name, content: [], isError }));
}

describe('editsOf (pi-coding-agent prepareEditArguments shapes)', () => {
  it('reads an array, a JSON string of one, a single object and the legacy top-level pair', () => {
    const e = { oldText: 'a', newText: 'b' };
    expect(editsOf({ path: 'x', edits: [e] })).toEqual([e]);
    expect(editsOf({ path: 'x', edits: JSON.stringify([e]) })).toEqual([e]);
    expect(editsOf({ path: 'x', edits: e })).toEqual([e]);
    expect(editsOf({ path: 'x', oldText: 'a', newText: 'b' })).toEqual([e]);
    expect(editsOf({ path: 'x', edits: 'not json' })).toEqual([]);
    expect(editsOf({ path: 'x', edits: [{ oldText: 'a\r\nb', newText: 'c' }] })).toEqual([
      { oldText: 'a\nb', newText: 'c' },
    ]);
  });
});

describe('fileKey', () => {
  it('one key per file: relative to the cwd, without ./ or a leading @', () => {
    expect(['src/a.ts', './src/a.ts', '@src/a.ts', '/p/src/a.ts'].map((p) => fileKey(p, '/p'))).toEqual(
      Array(4).fill('src/a.ts'),
    );
    expect(fileKey('/elsewhere/a.ts', '/p')).toBe('/elsewhere/a.ts');
  });
});

describe('FileStates', () => {
  it('applies every edit of a call against the text before it, and only calls that succeeded', () => {
    const fs = new FileStates('/p');
    run(fs, 'write', { path: 'a', content: 'one\ntwo\nthree\n' });
    fs.start();
    run(fs, 'edit', {
      path: 'a',
      edits: [
        { oldText: 'three', newText: '3' },
        { oldText: 'one', newText: '1' },
      ],
    });
    run(fs, 'edit', { path: 'a', edits: [{ oldText: 'two', newText: 'TWO' }] }, true);
    run(fs, 'write', { path: 'b', content: 'new' }, true);
    const changed = fs.changed();
    expect([...changed.keys()]).toEqual(['a']);
    expect(changed.get('a')).toMatchObject({ before: 'one\ntwo\nthree\n', after: '1\ntwo\n3\n', beforeWhole: true });
  });

  it('an edited-only file is known by its excerpts; a later edit of an excerpt changes it in place', () => {
    const fs = new FileStates('/p');
    run(fs, 'edit', { path: 'a', edits: [{ oldText: 'x = 1', newText: 'x = 2' }] });
    run(fs, 'edit', { path: 'a', edits: [{ oldText: 'y = 1', newText: 'y = 2' }] });
    run(fs, 'edit', { path: 'a', edits: [{ oldText: 'x = 2', newText: 'x = 3' }] });
    const f = fs.changed().get('a')!;
    expect(f.before).toBe(`x = 1\n${ELISION}\ny = 1`);
    expect(f.after).toBe(`x = 3\n${ELISION}\ny = 2`);
    expect(f.beforeWhole).toBe(false);
  });

  it('counts an edit whose old text a whole text lacks (pi matched it loosely) instead of guessing', () => {
    const fs = new FileStates('/p');
    run(fs, 'write', { path: 'a', content: 'alpha  \n' });
    run(fs, 'edit', { path: 'a', edits: [{ oldText: 'beta', newText: 'gamma' }] });
    expect(fs.changed().get('a')).toMatchObject({ after: 'alpha  \n', unreplayed: 1 });
  });

  it('a call whose result never came changes nothing; shell commands are listed', () => {
    const fs = new FileStates('/p');
    fs.read(
      msg({
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'q', name: 'write', arguments: { path: 'a', content: 'x' } }],
      }),
    );
    run(fs, 'bash', { command: 'rm -rf build' });
    fs.read(msg({ role: 'bashExecution', command: 'make', output: '', exitCode: 0 }));
    expect(fs.changed().size).toBe(0);
    expect(fs.shell.map((s) => s.command)).toEqual(['rm -rf build', 'make']);
  });
});
