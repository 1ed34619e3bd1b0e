/**
 * `canopy push --db URL`: mirrors every listed session into the team database, redacted before it
 * leaves the machine; with --watch, again on each change until SIGINT/SIGTERM (a user service).
 */
import { hostname, userInfo } from 'node:os';
import type pg from 'pg';
import { resolveRoots } from '../repo/roots';
import { watchSessionRoots } from '../storage/watch';
import { loadRedactions, redactionsPath } from '../export';
import { redactor } from '../secrets';
import { FactReader } from '../store-views';
import { decodeBytes } from '../storage/line-scan';
import {
  NO_REDACTION,
  push,
  shownUrl,
  TeamError,
  withTeamDb,
  type PushOptions,
  type PushResult,
  type TextRedact,
} from '../team';
import {
  EXIT_DB,
  EXIT_FILE_ERROR,
  EXIT_OK,
  jsonLine,
  jsonOption,
  line,
  stringOpt,
  UsageError,
  type CliCommand,
  type CliIo,
  type ParsedArgs,
} from './cli-io';

export const EXIT_CODES_TEXT =
  'Exit codes: 0 ok, 1 a session file could not be read, 2 bad usage, 3 the database failed.';

/** --db, required; the URL is only ever shown masked. */
export function dbOpt(args: ParsedArgs): string {
  const url = stringOpt(args, 'db');
  if (!url)
    throw new UsageError(
      '--db URL is required (postgres://user@host/db; the password may come from PGPASSWORD or ~/.pgpass)',
    );
  return url;
}

/** The test hook: CANOPY_TEST_PUSH_DIE_AT=step[:n] SIGKILLs this process at the n-th time it reaches step. */
function dieAt(env: NodeJS.ProcessEnv): PushOptions['onStep'] {
  const spec = env.CANOPY_TEST_PUSH_DIE_AT;
  if (!spec) return undefined;
  const [step, nth] = spec.split(':');
  let left = Number(nth ?? 1);
  return (s) => {
    if (s === step && --left <= 0) process.kill(process.pid, 'SIGKILL');
  };
}

function say(io: CliIo, r: PushResult, json: boolean): void {
  for (const f of r.skipped) io.stderr.write(`canopy push: skipped ${f.path}: ${f.error.message}\n`);
  if (json) jsonLine(io, { kind: 'push', ...r, skipped: r.skipped.length });
  else
    line(
      io.stdout,
      `pushed ${r.entries} entries (${r.bytes} bytes) from ${r.pushed} of ${r.sessions} sessions; ` +
        `${r.redactions} strings redacted; ${r.tombstoned} tombstoned`,
    );
}

/**
 * Pushes on each watcher batch (one push at a time; a batch during a push runs one more) until a
 * signal, or until the database goes away (said at once, not at the next change).
 */
async function watchPushes(
  io: CliIo,
  client: pg.Client,
  run: () => Promise<PushResult>,
  roots: string[],
  json: boolean,
): Promise<void> {
  await new Promise<void>((resolveDone, reject) => {
    let running = false;
    let again = false;
    let stopping = false;
    // The watchers do not hold the process open; this does, until the end.
    const alive = setInterval(() => undefined, 1 << 30);
    const finish = (err?: unknown): void => {
      stop();
      clearInterval(alive);
      client.off('end', onEnd);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (err === undefined) resolveDone();
      else reject(err);
    };
    const cycle = async (): Promise<void> => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const r = await run();
          if (r.entries > 0 || r.tombstoned > 0 || r.skipped.length > 0) say(io, r, json);
        } while (again && !stopping);
      } catch (err) {
        running = false;
        finish(err);
        return;
      }
      running = false;
      if (stopping) finish();
    };
    const onSignal = (): void => {
      stopping = true;
      if (!running) finish();
    };
    const onEnd = (): void => finish(new Error('Connection terminated'));
    client.on('end', onEnd);
    const stop = watchSessionRoots(roots, () => void cycle());
    // What was appended between the first push and the watchers being in place.
    void stop.ready.then(() => cycle());
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** What redacts a push: the secret radar's rules plus the user's own redactions (nothing when turned off). */
async function pushRedaction(roots: readonly string[], redact: boolean): Promise<TextRedact> {
  if (!redact) return NO_REDACTION;
  return redactor.textRedactWith(await loadRedactions(redactionsPath(roots)));
}

export const pushCommand: CliCommand = {
  summary: 'mirror sessions into the team PostgreSQL database, redacted before they leave',
  usage: `canopy push --db URL [--root DIR]... [--machine NAME] [--no-redact] [--keep-images] [--watch] [--json]\n           ${EXIT_CODES_TEXT}`,
  options: {
    ...jsonOption,
    db: { type: 'string' },
    root: { type: 'string', multiple: true },
    machine: { type: 'string' },
    'no-redact': { type: 'boolean' },
    'keep-images': { type: 'boolean' },
    watch: { type: 'boolean' },
  },
  async run(args, io) {
    const url = dbOpt(args);
    const json = args.values.json === true;
    const roots = resolveRoots((args.values.root as string[] | undefined) ?? []);
    const redact = args.values['no-redact'] !== true;
    if (!redact)
      io.stderr.write('canopy push: --no-redact: sessions leave this machine unredacted (secrets included)\n');
    const onStep = dieAt(process.env);
    const opts: PushOptions = {
      roots,
      machine: stringOpt(args, 'machine') ?? hostname(),
      user: userInfo().username,
      redact: await pushRedaction(roots, redact),
      facts: () => new FactReader(decodeBytes, true),
      keepImages: args.values['keep-images'] === true,
      ...(onStep ? { onStep } : {}),
    };
    try {
      return await withTeamDb(url, { migrate: true }, async (client) => {
        const first = await push(client, opts);
        say(io, first, json);
        if (args.values.watch === true) {
          if (!json) io.stderr.write(`canopy push: watching ${roots.join(', ')} for ${shownUrl(url)} (Ctrl-C stops)\n`);
          await watchPushes(io, client, () => push(client, opts), roots, json);
        }
        return first.skipped.length > 0 ? EXIT_FILE_ERROR : EXIT_OK;
      });
    } catch (err) {
      if (!(err instanceof TeamError)) throw err;
      io.stderr.write(`canopy push: ${err.message}\n`);
      return EXIT_DB;
    }
  },
};
