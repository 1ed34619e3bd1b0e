/** A stand-in for the desktop app or the browser: a script that records each argv it is started with. */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { vi } from 'vitest';

export interface FakeProgram {
  path: string;
  /** Waits until `count` starts are recorded; returns every argv so far. */
  calls(count: number): Promise<string[][]>;
}

export async function fakeProgram(dir: string, name: string): Promise<FakeProgram> {
  const path = join(dir, name);
  const record = join(dir, `${name}.calls`);
  await writeFile(
    path,
    `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
  );
  await chmod(path, 0o755);
  const read = async () =>
    (await readFile(record, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as string[]);
  return {
    path,
    calls: (count) =>
      vi.waitFor(
        async () => {
          const calls = await read();
          if (calls.length < count) throw new Error(`${calls.length} of ${count} starts of ${name} so far`);
          return calls;
        },
        { timeout: 20_000, interval: 50 },
      ),
  };
}
