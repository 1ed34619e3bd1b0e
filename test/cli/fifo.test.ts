import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli';
import { tempDir } from '../repo/helpers';
import { mkfifo, stopWriters, unblockLater } from '../storage/fifo';

afterEach(stopWriters);

describe('the CLI given a FIFO or a device', () => {
  it('a FIFO named .jsonl is an error of that file at once, not a hang', async () => {
    const dir = await tempDir();
    const fifo = join(dir, 'pipe.jsonl');
    mkfifo(fifo);
    const writer = unblockLater(fifo, 8000);
    for (const command of ['context', 'tree']) {
      const r = await cli(command, fifo, '--json');
      expect(writer.came(), `${command} waited for a writer`).toBe(false);
      expect(r.code).toBe(1);
      expect(r.json[0]!.error).toMatchObject({ code: 'invalid_session' });
      expect(r.json[0]!.error.message).toContain('a FIFO, not a regular file');
    }
  }, 20_000);

  it('/dev/zero and /dev/null are errors, not endless reads', async () => {
    const r = await cli('context', '/dev/zero', '/dev/null', '--json');
    expect(r.code).toBe(1);
    expect(r.json.map((j) => j.error?.message)).toEqual([
      '/dev/zero is a character device, not a regular file',
      '/dev/null is a character device, not a regular file',
    ]);
  }, 10_000);
});
