/** What every `canopy` command shares: the io, exit codes, option helpers and the per-file loop. */
import { type ParseArgsConfig } from 'node:util';
import { type ParsedSession, type Profile, type SessionReading } from '../core';
import type { OpenOptions } from '../repo/session-file';
import { SessionStore } from '../repo/session-store';
import { CanopyError } from '../shared/errors';

export interface CliIo {
  /** Text, or UTF-8 bytes (a Buffer: a long output built as bytes is not decoded only to be encoded again). */
  stdout: { write(chunk: string | Buffer): unknown };
  stderr: { write(chunk: string): unknown };
}

export const EXIT_OK = 0;
export const EXIT_FILE_ERROR = 1;
export const EXIT_USAGE = 2;
/** Canopy's own state (its data folder) cannot be used: said in one line. */
export const EXIT_STATE = 3;
/** The team database failed (unreachable, refused the credentials, a newer schema): one line said why. */
export const EXIT_DB = 3;

export interface CliCommand {
  /** One line for `canopy help`. */
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

export class UsageError extends Error {}

export const jsonOption = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
export const profileOption = { profile: { type: 'string' } } as const;

export function line(io: CliIo['stdout'], text = ''): void {
  io.write(`${text}\n`);
}

export function jsonLine(io: CliIo, value: unknown): void {
  line(io.stdout, JSON.stringify(value));
}

export function stringOpt(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function profileOpt(args: ParsedArgs): Profile | undefined {
  const p = stringOpt(args, 'profile');
  if (p === undefined) return undefined;
  if (p !== 'ca' && p !== 'h3') throw new UsageError(`--profile must be ca or h3, not ${JSON.stringify(p)}`);
  return p;
}

export function needFiles(args: ParsedArgs, max = Number.POSITIVE_INFINITY): string[] {
  if (args.positionals.length === 0) throw new UsageError('no FILE given');
  if (args.positionals.length > max) throw new UsageError(`expected ${max} FILE, got ${args.positionals.length}`);
  return args.positionals;
}

export function errorOf(err: unknown): { code: string; message: string } {
  if (err instanceof CanopyError) return { code: err.code, message: err.message };
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

/**
 * Reads each FILE in turn (through a SessionStore: a body that is not JSON becomes an issue of its
 * line; context and tree pass verify 'parse', so every damaged line is found, on the path or not)
 * and hands it to `each`, which writes to a buffer: a failure part-way through a file prints
 * nothing of it. A file that cannot be read, or that `each` fails on, is reported (a JSON line or
 * stderr) and makes the exit code EXIT_FILE_ERROR; the other files still run.
 */
export async function forEachSession(
  files: string[],
  args: ParsedArgs,
  io: CliIo,
  each: (out: CliIo, file: string, session: ParsedSession) => void,
  opts: OpenOptions = {},
): Promise<number> {
  let exit = EXIT_OK;
  const store = new SessionStore();
  for (const file of files) {
    const out = bufferedIo();
    try {
      await store.with(
        file,
        (session) => {
          if (session.fatal) throw new CanopyError(session.fatal.code, session.fatal.message);
          out.clear();
          each(out, file, session);
        },
        opts,
      );
    } catch (err) {
      exit = EXIT_FILE_ERROR;
      const error = errorOf(err);
      if (args.values.json) jsonLine(io, { file, error });
      else line(io.stderr, `${file}: ${error.code}: ${error.message}`);
      continue;
    }
    out.flush(io);
  }
  store.clear();
  return exit;
}

export function bufferedIo(): CliIo & { clear(): void; flush(to: CliIo): void } {
  let stdout: (string | Buffer)[] = [];
  let stderr: string[] = [];
  return {
    stdout: { write: (chunk: string | Buffer) => stdout.push(chunk) },
    stderr: { write: (chunk: string) => stderr.push(chunk) },
    clear() {
      stdout = [];
      stderr = [];
    },
    flush(to) {
      // Runs of text in one write each; bytes as they are.
      let text = '';
      for (const chunk of stdout) {
        if (typeof chunk === 'string') text += chunk;
        else {
          if (text) to.stdout.write(text);
          text = '';
          to.stdout.write(chunk);
        }
      }
      if (text) to.stdout.write(text);
      if (stderr.length > 0) to.stderr.write(stderr.join(''));
    },
  };
}

/**
 * Text from a session for a terminal: control characters (C0, DEL, C1) as \\u escapes, so an id
 * or label can neither break the line nor send escape sequences to the terminal.
 */
export function shown(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function short(text: string, max = 100): string {
  // A prefix long enough to decide, not the whole text (a tool output can be megabytes): its first
  // characters fold the same, and more than `max` of them that are not trailing space decide the cut.
  for (let prefix = max * 4; prefix < text.length; prefix *= 4) {
    const one = text.slice(0, prefix).replace(/\s+/g, ' ').trimStart();
    if (one.trimEnd().length > max) return `${one.slice(0, max - 1)}…`;
  }
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function printIssues(io: CliIo, issues: SessionReading['issues']): void {
  if (issues.length === 0) return;
  line(io.stdout, `  issues (${issues.length}):`);
  for (const i of issues.slice(0, 20)) line(io.stdout, `    line ${i.line} ${i.kind}: ${shown(i.message)}`);
  if (issues.length > 20) line(io.stdout, `    … ${issues.length - 20} more`);
}
