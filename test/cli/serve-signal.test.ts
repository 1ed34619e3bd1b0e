/**
 * `canopy serve` told to stop (SIGTERM, as a service manager or `kill` sends it) ends at once, even
 * while a long request holds its event loop: a JS handler would run only once that request ends.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../storage/tmp';
import { header, projectDirName, user } from '../repo/helpers';

const REPO = join(__dirname, '../..');
const HAVE_RENDERER = (() => {
  try {
    require.resolve(join(REPO, 'out/renderer/index.html'));
    return true;
  } catch {
    return false;
  }
})();
if (!HAVE_RENDERER) console.warn('[skipped] serve SIGTERM: the renderer is not built (npm run build)');

/** A chain of `n` entries: its context is seconds of work on one thread. */
async function longSession(dir: string, n: number): Promise<void> {
  const lines = [JSON.stringify(header('019c0000-0000-7000-8000-0000000000aa', '/long'))];
  for (let i = 0; i < n; i++)
    lines.push(JSON.stringify(user(`e${i}`, i ? `e${i - 1}` : null, `step ${i} of a long run`)));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'long.jsonl'), `${lines.join('\n')}\n`);
}

describe.skipIf(!HAVE_RENDERER)('canopy serve and SIGTERM', () => {
  it('exits on SIGTERM before a long context request it is running answers', async () => {
    const root = await tempDir('canopy-sigterm-');
    await longSession(join(root, projectDirName('/long')), 400_000);
    const child = spawn(process.execPath, [join(REPO, 'bin/canopy.cjs'), 'serve', '--no-watch', '--root', root], {
      env: { ...process.env, PI_CODING_AGENT_DIR: await tempDir('canopy-sigterm-agent-') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<URL>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /Open (http\S+)\n/.exec(out);
        if (m) resolve(new URL(m[1]!));
      });
      child.on('exit', (code) => reject(new Error(`serve exited (${code})`)));
    });
    const token = url.searchParams.get('token')!;
    const call = (channel: string, body: unknown) =>
      fetch(new URL(`/api/${channel}`, url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-canopy-token': token },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ ok: boolean; data: unknown }>);
    const list = (await call('sessions.list', {})).data as { sessions: { sessionId: string }[] };
    const sessionId = list.sessions[0]!.sessionId;
    // Whether the context answered before the exit: an order, not a time, so load cannot decide it.
    const events: string[] = [];
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve(void events.push('exit'))));
    await call('session.open', { sessionId });
    // The context of a long chain keeps the loop busy for seconds; the signal comes while it runs.
    const context = call('session.context', { sessionId }).then(
      () => events.push('answered'),
      () => events.push('cut off'),
    );
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    await exited;
    await context;
    // The request was cut off by the exit (the socket's close and the exit event come in either order).
    expect(events.sort()).toEqual(['cut off', 'exit']);
    expect(child.signalCode ?? child.exitCode).toBe('SIGTERM');
  }, 60_000);
});
