/**
 * A throwaway PostgreSQL cluster for the team tests: initdb into a temp folder as the unprivileged OS
 * user `postgres` (when the tests run as root), a random free port on 127.0.0.1, a socket folder of
 * its own, a password-checked superuser (scram-sha-256 for host connections, so a wrong password is
 * really refused); stopped and removed by destroy(). Nothing about the machine's own clusters is touched.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PG_ROOT = '/usr/lib/postgresql';

/** The newest installed PostgreSQL's bin folder, or null (then the suites skip, saying why). */
export function findPgBin(): string | null {
  if (!existsSync(PG_ROOT)) return null;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')) && existsSync(join(PG_ROOT, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(PG_ROOT, versions[0]!, 'bin') : null;
}

export const PG_BIN = findPgBin();
/** Why the PostgreSQL suites are skipped, printed once; null when they run. */
export const PG_SKIP_REASON =
  PG_BIN === null ? `no PostgreSQL binaries under ${PG_ROOT}/*/bin (install Debian's postgresql)` : null;
if (PG_SKIP_REASON) console.warn(`test/team: skipped: ${PG_SKIP_REASON}`);

export const SUPERUSER = 'canopy_test';

export interface PgCluster {
  port: number;
  password: string;
  /** A URL for `user` (default the superuser) with its password, to database `db` (default postgres). */
  url(opts?: { user?: string; password?: string; db?: string }): string;
  /** Stops the server (the folder stays: start() brings it back). */
  stop(): void;
  start(): void;
  /** Stops the server and removes the folder. */
  destroy(): void;
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** Runs a PostgreSQL tool as the user `postgres` when we are root (initdb refuses root). */
function asPostgres(bin: string, tool: string, args: string[]): void {
  const exe = join(bin, tool);
  const root = process.getuid?.() === 0;
  execFileSync(root ? 'runuser' : exe, root ? ['-u', 'postgres', '--', exe, ...args] : args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
}

export async function startCluster(): Promise<PgCluster> {
  if (PG_BIN === null) throw new Error(PG_SKIP_REASON!);
  const bin = PG_BIN;
  const dir = mkdtempSync(join(tmpdir(), 'canopy-pg-'));
  const data = join(dir, 'data');
  const sock = join(dir, 'sock');
  mkdirSync(sock);
  const password = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    for (const p of [dir, sock, pwfile]) chownSync(p, uid, gid);
  }
  chmodSync(dir, 0o700);
  asPostgres(bin, 'initdb', [
    '-D',
    data,
    '-U',
    SUPERUSER,
    `--pwfile=${pwfile}`,
    '--auth-local=scram-sha-256',
    '--auth-host=scram-sha-256',
    '--encoding=UTF8',
    '--no-sync',
  ]);
  rmSync(pwfile);
  const port = await freePort();
  const opts = `-p ${port} -k ${sock} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = (): void => asPostgres(bin, 'pg_ctl', ['start', '-w', '-D', data, '-l', join(dir, 'log'), '-o', opts]);
  const stop = (): void => asPostgres(bin, 'pg_ctl', ['stop', '-w', '-m', 'immediate', '-D', data]);
  start();
  let running = true;
  return {
    port,
    password,
    url: (o = {}) =>
      `postgres://${encodeURIComponent(o.user ?? SUPERUSER)}:${encodeURIComponent(o.password ?? password)}@127.0.0.1:${port}/${o.db ?? 'postgres'}`,
    stop: () => {
      stop();
      running = false;
    },
    start: () => {
      start();
      running = true;
    },
    destroy: () => {
      try {
        if (running) stop();
      } finally {
        running = false;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A fresh database in the cluster (each test file or case gets its own); its URL. */
export async function createDatabase(cluster: PgCluster, name: string): Promise<string> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: cluster.url() });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  return cluster.url({ db: name });
}
