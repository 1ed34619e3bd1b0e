/**
 * The `canopy` process as a pipeline sees it (the built CLI, bin/canopy.cjs): a reader that closes
 * the pipe early ends it quietly.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { header, tempDir, user, writeSession } from '../repo/helpers';

const REPO = join(__dirname, '../..');

describe('canopy context … | head', () => {
  it('ends quietly (exit 0, no EPIPE stack trace) when the reader closes the pipe', async () => {
    const dir = await tempDir();
    const lines: Record<string, unknown>[] = [header('s1', '/p')];
    let parent: string | null = null;
    for (let i = 0; i < 4000; i++) {
      lines.push(user(`e${i}`, parent, `message number ${i} `.repeat(4)));
      parent = `e${i}`;
    }
    const file = await writeSession(dir, 's.jsonl', lines);
    const child = spawn(process.execPath, [join(REPO, 'bin/canopy.cjs'), 'context', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    await once(child.stdout, 'data');
    child.stdout.destroy(); // `head` has read its lines
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(err).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  }, 60_000);
});
