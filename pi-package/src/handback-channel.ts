/**
 * The local channel Canopy offers a fork to this pi through. A Unix socket (a named pipe on
 * Windows) announced in a private folder: 0700 and owned by this user, checked before use; the
 * announcement (0600) holds a random token every request must carry. One JSON line each way.
 * The folder's name is the protocol: Canopy computes it the same way (electron/repo/pi-handback.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** What a running pi tells Canopy, in `<dir>/<pid>.json`. */
export interface Announcement {
  version: 1;
  pid: number;
  /** The socket path or pipe name. */
  address: string;
  token: string;
  /** pi's current session file (it may not be written yet) and working directory. */
  sessionFile: string | null;
  cwd: string;
}

export interface OfferReply {
  ok: boolean;
  /** `asked`: the user is asked in pi; else why not. */
  status: string;
}

const MAX_REQUEST = 64 * 1024;

export function handbackDir(env: Env = process.env): string {
  if (env.CANOPY_PI_DIR) return env.CANOPY_PI_DIR;
  return join(env.XDG_RUNTIME_DIR || tmpdir(), `canopy-pi-${userInfo().uid}`);
}

/** Makes `dir` (0700) or checks the one there: a folder, no link, ours, no access for others. */
export async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const s = await lstat(dir);
  const uid = process.getuid?.();
  if (!s.isDirectory() || s.isSymbolicLink()) throw new Error(`${dir} is not a folder`);
  if (uid !== undefined && s.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if (process.platform !== 'win32' && (s.mode & 0o077) !== 0) throw new Error(`${dir} is open to other users`);
}

function sameToken(given: unknown, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function answer(socket: Socket, reply: OfferReply): void {
  socket.end(`${JSON.stringify(reply)}\n`);
}

export interface Handback {
  announcement: Announcement;
  close(): Promise<void>;
}

/** Listens for offers; `offer(path)` decides (and asks the user) and says what happened. */
export async function startHandback(opts: {
  dir: string;
  sessionFile: string | null;
  cwd: string;
  offer(path: string): Promise<OfferReply>;
}): Promise<Handback> {
  await privateDir(opts.dir);
  const token = randomBytes(24).toString('base64url');
  const address =
    process.platform === 'win32'
      ? `\\\\.\\pipe\\canopy-pi-${randomBytes(12).toString('hex')}`
      : join(opts.dir, `${process.pid}.sock`);
  if (process.platform !== 'win32') await rm(address, { force: true });
  const server = createServer((socket) => {
    let buf = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_REQUEST) return answer(socket, { ok: false, status: 'request too large' });
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      socket.removeAllListeners('data');
      let req: { token?: unknown; path?: unknown };
      try {
        req = JSON.parse(buf.slice(0, nl)) as typeof req;
      } catch {
        return answer(socket, { ok: false, status: 'not JSON' });
      }
      if (!sameToken(req.token, token)) return answer(socket, { ok: false, status: 'forbidden' });
      if (typeof req.path !== 'string') return answer(socket, { ok: false, status: 'no path' });
      opts.offer(req.path).then(
        (reply) => answer(socket, reply),
        (err: Error) => answer(socket, { ok: false, status: err.message }),
      );
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => resolve());
  });
  if (process.platform !== 'win32') await chmod(address, 0o600);
  const announcement: Announcement = {
    version: 1,
    pid: process.pid,
    address,
    token,
    sessionFile: opts.sessionFile,
    cwd: opts.cwd,
  };
  const file = join(opts.dir, `${process.pid}.json`);
  await writeFile(file, JSON.stringify(announcement), { mode: 0o600 });
  return {
    announcement,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(file, { force: true });
      if (process.platform !== 'win32') await rm(address, { force: true });
    },
  };
}
