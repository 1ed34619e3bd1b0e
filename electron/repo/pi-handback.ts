/**
 * "Continue in pi", live: a pi running Canopy's package (pi-package/) announces a local socket; a
 * fork Canopy just wrote can be offered to the pi whose session it forked (else one in the same
 * folder). pi asks its user and switches only on yes; Canopy only learns that pi asked.
 */
import { createConnection } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { privateJsonFiles } from '../storage/private-json';
import type { SessionCatalog } from './catalog';
import type { PiHandbackDto } from '../shared/contract';
import { CanopyError } from '../shared/errors';

type Env = Record<string, string | undefined>;

export interface PiTarget {
  pid: number;
  address: string;
  token: string;
  sessionFile: string | null;
  cwd: string;
}

/** The announcements' folder: the same rule as the package's handbackDir (the two sides' protocol). */
export function piHandbackDir(env: Env = process.env): string {
  if (env.CANOPY_PI_DIR) return env.CANOPY_PI_DIR;
  return join(env.XDG_RUNTIME_DIR || tmpdir(), `canopy-pi-${userInfo().uid}`);
}

function asTarget(v: unknown): PiTarget | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (o.version !== 1 || !Number.isInteger(o.pid) || typeof o.address !== 'string' || typeof o.token !== 'string')
    return null;
  if (typeof o.cwd !== 'string' || (o.sessionFile !== null && typeof o.sessionFile !== 'string')) return null;
  return { pid: o.pid as number, address: o.address, token: o.token, sessionFile: o.sessionFile, cwd: o.cwd };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pi processes that announced themselves and still run. */
export async function livePis(env: Env = process.env): Promise<PiTarget[]> {
  return (await privateJsonFiles(piHandbackDir(env)))
    .map(asTarget)
    .filter((t): t is PiTarget => t !== null && alive(t.pid));
}

/** The pi to offer a fork to: the one in the fork's source session, else one in the fork's folder. */
export function pickPi(pis: readonly PiTarget[], fork: { path: string; parentPath: string | null }): PiTarget | null {
  return (
    pis.find((p) => fork.parentPath !== null && p.sessionFile === fork.parentPath) ??
    pis.find((p) => p.sessionFile !== null && dirname(p.sessionFile) === dirname(fork.path)) ??
    null
  );
}

const OFFER_TIMEOUT_MS = 5000;

/** Sends the offer; resolves to pi's answer (`asked`: the user decides in pi). */
export function offerFork(pi: PiTarget, path: string): Promise<{ ok: boolean; status: string }> {
  return new Promise((resolve) => {
    const socket = createConnection(pi.address);
    let buf = '';
    const done = (r: { ok: boolean; status: string }) => {
      socket.destroy();
      resolve(r);
    };
    socket.setEncoding('utf8');
    socket.setTimeout(OFFER_TIMEOUT_MS, () => done({ ok: false, status: 'pi did not answer' }));
    socket.on('connect', () => socket.write(`${JSON.stringify({ token: pi.token, path })}\n`));
    socket.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      try {
        const r = JSON.parse(buf.slice(0, nl)) as { ok?: unknown; status?: unknown };
        done({ ok: r.ok === true, status: typeof r.status === 'string' ? r.status : 'no answer' });
      } catch {
        done({ ok: false, status: 'pi answered something else' });
      }
    });
    socket.on('error', (err) => done({ ok: false, status: `pi cannot be reached: ${err.message}` }));
    socket.on('end', () => done({ ok: false, status: 'pi closed the channel' }));
  });
}

/** The `pi.handback` channel: which pi would get the fork `sessionId`, or (send) offer it. */
export async function handBack(
  catalog: Pick<SessionCatalog, 'rowOf'>,
  args: { sessionId: string; send: boolean },
  env: Env = process.env,
): Promise<PiHandbackDto> {
  const row = catalog.rowOf(args.sessionId);
  if (!row) throw new CanopyError('not_found', `no session ${args.sessionId}`);
  const pi = pickPi(await livePis(env), { path: row.path, parentPath: row.parentSessionPath });
  const who = pi && { pid: pi.pid, sessionFile: pi.sessionFile };
  if (!pi || !args.send) return { pi: who, status: null };
  const r = await offerFork(pi, row.path);
  return { pi: who, status: r.ok ? 'asked' : r.status };
}
