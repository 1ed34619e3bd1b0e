import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { forkSession } from '../../electron/repo/fork-file';
import { header, tempDir, user, writeSession } from './helpers';

describe('fork of a session with a body cut for depth', () => {
  it('is refused when the copy would hold the cut entry, allowed when it would not', async () => {
    const dir = await tempDir();
    const deep = JSON.stringify(user('b', 'a', 'X')).replace('"X"', '['.repeat(5000) + ']'.repeat(5000));
    const file = await writeSession(dir, 's.jsonl', [
      header('s1', '/p'),
      user('a', null, 'one'),
      deep,
      user('c', 'b', 'three'),
    ]);
    const refused = await forkSession(file, { kind: 'clone' });
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'invalid_session', message: expect.stringContaining('line 3') },
    });
    expect(await readdir(dir)).toEqual(['s.jsonl']);
    const before = await forkSession(file, { kind: 'fork', entryId: 'b', position: 'before' });
    expect(before.ok).toBe(true);
  });
});
