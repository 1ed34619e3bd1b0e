/**
 * "Continue in pi" end to end on Linux without Electron: the app's handler with a fake
 * `x-terminal-emulator` first on PATH, which records the arguments and folder it was started with.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../electron/ipc/handlers';
import { SessionCatalog } from '../../electron/repo/catalog';
import type { Handlers } from '../../electron/shared/contract';
import { writeSmallStore, type SmallSession } from '../fixtures/small-store';

const tmp = mkdtempSync(join(tmpdir(), 'canopy-term-'));
const bin = join(tmp, 'bin');
const record = join(tmp, 'argv.json');
let store: SmallSession[];
let handlers: (transport: 'electron' | 'http') => Handlers;

/** What the fake terminal wrote (it may still be writing: read until the JSON is whole). */
async function recorded(): Promise<{ argv: string[]; cwd: string }> {
  for (let i = 0; ; i++) {
    try {
      return JSON.parse(readFileSync(record, 'utf8')) as { argv: string[]; cwd: string };
    } catch (err) {
      if (i >= 200) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

beforeAll(() => {
  mkdirSync(bin);
  const fake = join(bin, 'x-terminal-emulator');
  writeFileSync(
    fake,
    `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));\n`,
  );
  chmodSync(fake, 0o755);
  store = writeSmallStore(join(tmp, 'sessions'), 3);
  // The sessions' cwd is a folder that exists for the first one only.
  mkdirSync(join(tmp, 'proj'));
  const cwdFile = store[0]!.path;
  writeFileSync(cwdFile, readFileSync(cwdFile, 'utf8').replace('/home/user/project-0', join(tmp, 'proj')));
  const catalog = new SessionCatalog({ roots: [join(tmp, 'sessions')] });
  const env = { PATH: `${bin}:${process.env.PATH}`, HOME: tmp };
  handlers = (transport) => createHandlers({ catalog, version: 't', transport, continueEnv: env });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.runIf(process.platform === 'linux')('Continue in pi', () => {
  it('the app opens the terminal in the session folder running pi --session FILE', async () => {
    const out = await handlers('electron')['session.continue']({ sessionId: store[0]!.id });
    expect(out).toMatchObject({ launched: true, cwdMissing: false, terminal: 'x-terminal-emulator' });
    expect(await recorded()).toEqual({ argv: ['-e', 'pi', '--session', store[0]!.path], cwd: join(tmp, 'proj') });
  });

  it('serve launches nothing: it answers the command to copy', async () => {
    rmSync(record, { force: true });
    const out = await handlers('http')['session.continue']({ sessionId: store[0]!.id });
    expect(out).toMatchObject({
      launched: false,
      command: `cd '${join(tmp, 'proj')}' && 'pi' '--session' '${store[0]!.path}'`,
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(record)).toBe(false);
  });

  it("a missing folder is said; pi's fork into another folder is what runs when asked", async () => {
    rmSync(record, { force: true });
    const missing = await handlers('electron')['session.continue']({ sessionId: store[1]!.id });
    expect(missing).toMatchObject({ launched: false, cwdMissing: true });
    expect(existsSync(record)).toBe(false);
    const forked = await handlers('electron')['session.continue']({ sessionId: store[1]!.id, fork: true });
    expect(forked).toMatchObject({ launched: true, cwdMissing: true, fork: true });
    expect((await recorded()).argv).toEqual(['-e', 'pi', '--fork', store[1]!.path]);
  });
});
