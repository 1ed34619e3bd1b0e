/**
 * Damage that is not in a file's bytes: a hole of 2 GiB and more (sparse, nothing written) at a
 * seeded line, and a FIFO named .jsonl, among the seeded damaged files of mutate.ts, in one CLI
 * run: the process lives, every file gets its line, the hole is an issue at its line.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli';
import { Rng } from '../fixtures/corpus/rng';
import { tempDir } from '../repo/helpers';
import { mkfifo, stopWriters, unblockLater } from '../storage/fifo';
import { baseLines, damagedFiles } from './mutate';

afterEach(stopWriters);

describe('fuzz: a 2 GiB+ hole and a FIFO among damaged files', () => {
  // No time limit of its own: the fuzz project's ceiling stops only a hang.
  it('context reports the hole at its line and the FIFO as an error; the rest as usual', async () => {
    const rng = new Rng(2026_12_03);
    const dir = await tempDir('canopy-fuzz-special-');
    const lines = baseLines('019c0000-0000-7000-8000-00000000hole');
    const k = rng.int(2, lines.length - 1); // the hole comes before this line (1-based: line k + 1 is the hole)
    const head = Buffer.from(lines.slice(0, k).join('\n') + '\n');
    const tail = Buffer.from('\n' + lines.slice(k).join('\n') + '\n');
    const hole = 2 ** 31 + rng.int(1, 1 << 20);
    const holed = join(dir, 'hole.jsonl');
    const fd = openSync(holed, 'w');
    writeSync(fd, head, 0, head.length, 0);
    writeSync(fd, tail, 0, tail.length, head.length + hole);
    closeSync(fd);
    const fifo = join(dir, 'fifo.jsonl');
    mkfifo(fifo);
    unblockLater(fifo, 5000); // a reader that still blocked would come back (late), not hang the suite
    const others = damagedFiles(7, { huge: false, kinds: ['nul_run', 'long_ids'] }).slice(0, 4);
    const paths = [holed, fifo];
    for (const f of others) {
      const p = join(dir, f.name);
      await writeFile(p, f.bytes);
      paths.push(p);
    }
    let out = '';
    const code = await runCli(['context', ...paths, '--json'], {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: () => true },
    });
    const results = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(code).toBe(1);
    expect(results.map((r) => r.file)).toEqual(paths);
    const [h, f] = results;
    expect(h!.issues.filter((i: { line: number }) => i.line === k + 1).map((i: { kind: string }) => i.kind)).toEqual([
      'line_over_limit',
      'nul_bytes',
    ]);
    expect(h!.pathIds.length).toBeGreaterThan(0);
    expect(f!.error.code).toBe('invalid_session');
    for (const r of results.slice(2)) expect(r.error).toBeUndefined();
  });
});
