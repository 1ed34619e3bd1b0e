/**
 * The `canopy` command: list | context | tree | fork | clone | search | serve.
 * With --json every input file gets exactly one JSON line, failures included. Exit codes:
 * 0 success, 1 a file could not be read as a session, 2 bad usage or a refused fork/clone.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  buildTree,
  detectProfile,
  listTreeEntries,
  readSession,
  type ParsedSession,
  type Profile,
  type SessionReading,
} from './core';
import { forkSession, type ForkCommand, type ForkOutcome } from './repo/fork';
import { withSession, type OpenOptions } from './repo/open';
import { resolveRoots } from './repo/roots';
import { groupByProject, listSessions, summarizeSession, type SessionInfo } from './repo/sessions';
import { mapLimit } from './repo/map-limit';
import { searchCommand } from './search-command';
import { serveCommand } from './serve-command';
import { CanopyError } from './shared/errors';

export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
}

export const EXIT_OK = 0;
export const EXIT_FILE_ERROR = 1;
export const EXIT_USAGE = 2;

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

class UsageError extends Error {}

const jsonOption = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
const profileOption = { profile: { type: 'string' } } as const;

function line(io: CliIo['stdout'], text = ''): void {
  io.write(`${text}\n`);
}

function jsonLine(io: CliIo, value: unknown): void {
  line(io.stdout, JSON.stringify(value));
}

function stringOpt(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

function profileOpt(args: ParsedArgs): Profile | undefined {
  const p = stringOpt(args, 'profile');
  if (p === undefined) return undefined;
  if (p !== 'ca' && p !== 'h3') throw new UsageError(`--profile must be ca or h3, not ${JSON.stringify(p)}`);
  return p;
}

function needFiles(args: ParsedArgs, max = Number.POSITIVE_INFINITY): string[] {
  if (args.positionals.length === 0) throw new UsageError('no FILE given');
  if (args.positionals.length > max) throw new UsageError(`expected ${max} FILE, got ${args.positionals.length}`);
  return args.positionals;
}

function errorOf(err: unknown): { code: string; message: string } {
  if (err instanceof CanopyError) return { code: err.code, message: err.message };
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

/**
 * Reads each FILE in turn (through withSession: a body that is not JSON becomes an issue of its
 * line; context and tree pass verify 'parse', so every damaged line is found, on the path or not)
 * and hands it to `each`, which writes to a buffer: a failure part-way through a file prints
 * nothing of it. A file that cannot be read, or that `each` fails on, is reported (a JSON line or
 * stderr) and makes the exit code EXIT_FILE_ERROR; the other files still run.
 */
async function forEachSession(
  files: string[], args: ParsedArgs, io: CliIo, each: (out: CliIo, file: string, session: ParsedSession) => void, opts: OpenOptions = {},
): Promise<number> {
  let exit = EXIT_OK;
  for (const file of files) {
    const out = bufferedIo();
    try {
      await withSession(file, (session) => {
        if (session.fatal) throw new CanopyError(session.fatal.code, session.fatal.message);
        out.clear();
        each(out, file, session);
      }, opts);
    } catch (err) {
      exit = EXIT_FILE_ERROR;
      const error = errorOf(err);
      if (args.values.json) jsonLine(io, { file, error });
      else line(io.stderr, `${file}: ${error.code}: ${error.message}`);
      continue;
    }
    out.flush(io);
  }
  return exit;
}

function bufferedIo(): CliIo & { clear(): void; flush(to: CliIo): void } {
  let stdout: string[] = [];
  let stderr: string[] = [];
  return {
    stdout: { write: (chunk: string) => stdout.push(chunk) },
    stderr: { write: (chunk: string) => stderr.push(chunk) },
    clear() {
      stdout = [];
      stderr = [];
    },
    flush(to) {
      if (stdout.length > 0) to.stdout.write(stdout.join(''));
      if (stderr.length > 0) to.stderr.write(stderr.join(''));
    },
  };
}

function short(text: string, max = 100): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function printIssues(io: CliIo, issues: SessionReading['issues']): void {
  if (issues.length === 0) return;
  line(io.stdout, `  issues (${issues.length}):`);
  for (const i of issues.slice(0, 20)) line(io.stdout, `    line ${i.line} ${i.kind}: ${i.message}`);
  if (issues.length > 20) line(io.stdout, `    … ${issues.length - 20} more`);
}

// ------------------------------------------------------------------ list

const listCommand: CliCommand = {
  summary: 'list sessions under pi\'s sessions root and any --root DIR',
  usage: 'canopy list [--root DIR]... [--headers-only] [--json]',
  options: { ...jsonOption, root: { type: 'string', multiple: true }, 'headers-only': { type: 'boolean' } },
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    const extra = (args.values.root as string[] | undefined) ?? [];
    const roots = resolveRoots(extra);
    const listing = await listSessions(roots);
    // Names need the whole file; --headers-only keeps listing to one small read per file.
    if (args.values['headers-only'] !== true) {
      await mapLimit(listing.sessions, 8, async (s) => {
        const summary = await summarizeSession(s.path).catch(() => null);
        if (summary?.name) s.name = summary.name;
      });
    }
    if (args.values.json) {
      const sessions = listing.sessions.map((s: SessionInfo) => ({
        id: s.id,
        path: s.path,
        cwd: s.cwd,
        createdAt: s.createdAt,
        modifiedAt: s.modifiedAt,
        sizeBytes: s.sizeBytes,
        name: s.name,
        parentSessionPath: s.parentSessionPath,
      }));
      jsonLine(io, { sessions, skipped: listing.skipped });
      return EXIT_OK;
    }
    line(io.stdout, `roots: ${roots.join(', ')}`);
    if (listing.sessions.length === 0) line(io.stdout, 'no sessions found');
    for (const { cwd, sessions } of groupByProject(listing.sessions)) {
      line(io.stdout, `\n${cwd || '(no cwd)'}`);
      for (const s of sessions) {
        const name = s.name ? `  "${short(s.name, 60)}"` : '';
        line(io.stdout, `  ${s.createdAt}  ${s.id}${name}  ${formatSize(s.sizeBytes)}`);
        line(io.stdout, `    ${s.path}`);
      }
    }
    if (listing.skipped.length > 0) {
      line(io.stdout, `\nskipped ${listing.skipped.length} file(s):`);
      for (const k of listing.skipped) line(io.stdout, `  ${k.path}: ${k.error.code}: ${k.error.message}`);
    }
    return EXIT_OK;
  },
};

// ------------------------------------------------------------------ context

function messageSummary(m: unknown): string {
  if (typeof m !== 'object' || m === null) return String(m);
  const msg = m as Record<string, unknown>;
  const role = typeof msg.role === 'string' ? msg.role : '?';
  let text = '';
  if (typeof msg.content === 'string') text = msg.content;
  else if (Array.isArray(msg.content)) {
    text = msg.content
      .map((b: unknown) => {
        const block = (b ?? {}) as Record<string, unknown>;
        if (block.type === 'text') return String(block.text ?? '');
        if (block.type === 'toolCall') return `[tool ${String(block.name ?? '')}]`;
        if (block.type === 'thinking') return '[thinking]';
        if (block.type === 'image') return '[image]';
        return '';
      })
      .filter(Boolean)
      .join(' ');
  } else if (typeof msg.summary === 'string') text = msg.summary;
  else if (typeof msg.command === 'string') text = `$ ${msg.command}`;
  return `[${role}] ${short(text)}`;
}

const contextCommand: CliCommand = {
  summary: 'what reaches the model at the current (or given) leaf',
  usage: 'canopy context FILE... [--leaf ID] [--profile ca|h3] [--json]   (--leaf "" = before the first entry)',
  options: { ...jsonOption, ...profileOption, leaf: { type: 'string' } },
  async run(args, io) {
    const files = needFiles(args);
    const profile = profileOpt(args);
    const leaf = stringOpt(args, 'leaf');
    return forEachSession(files, args, io, (io, file, session) => {
      const r = readSession(session, {
        profile: profile ?? detectProfile(session),
        ...(leaf !== undefined ? { leafId: leaf === '' ? null : leaf } : {}),
      });
      if (args.values.json) {
        jsonLine(io, {
          file,
          profile: r.profile,
          leafId: r.leafId,
          pathIds: r.pathIds,
          contextEntryIds: r.contextEntryIds,
          context: r.context,
          labels: r.labels,
          sessionName: r.sessionName,
          issues: r.issues,
        });
        return;
      }
      const messages = (r.context as { messages?: unknown[] } | null)?.messages ?? [];
      line(io.stdout, file);
      line(io.stdout, `  profile ${r.profile}  leaf ${r.leafId ?? '(none)'}  path ${r.pathIds.length} entries  context ${r.contextEntryIds.length} entries → ${messages.length} messages`);
      if (r.sessionName) line(io.stdout, `  name: ${r.sessionName}`);
      for (const m of messages) line(io.stdout, `  ${messageSummary(m)}`);
      printIssues(io, r.issues);
    }, { verify: 'parse' });
  },
};

// ------------------------------------------------------------------ tree

/** Indented text tree; indentation grows only at branch points so 100k-entry chains stay flat. */
function printTree(io: CliIo, session: ParsedSession, reading: SessionReading): void {
  const entries = new Map(listTreeEntries(session).map((e) => [e.id, e]));
  const tree = buildTree(session);
  const onPath = new Set(reading.pathIds);
  const stack: { id: string; depth: number }[] = tree.roots.map((id) => ({ id, depth: 0 })).reverse();
  const seen = new Set<string>();
  while (stack.length > 0) {
    const { id, depth } = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const e = entries.get(id);
    if (!e) continue;
    const kind = e.role ? `${e.type}:${e.role}` : e.type;
    const label = reading.labels[id] !== undefined ? `  [${reading.labels[id]}]` : '';
    const marks = `${onPath.has(id) ? ' *' : ''}${id === reading.leafId ? '  ← leaf' : ''}`;
    line(io.stdout, `${'  '.repeat(Math.min(depth, 30))}${id} ${kind} (line ${e.line})${label}${marks}`);
    const kids = tree.children.get(id) ?? [];
    const childDepth = kids.length > 1 ? depth + 1 : depth;
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ id: kids[i]!, depth: childDepth });
  }
}

const treeCommand: CliCommand = {
  summary: 'every entry with its parent, type and line',
  usage: 'canopy tree FILE... [--profile ca|h3] [--json]',
  options: { ...jsonOption, ...profileOption },
  async run(args, io) {
    const files = needFiles(args);
    const profile = profileOpt(args);
    return forEachSession(files, args, io, (io, file, s) => {
      const r = readSession(s, { profile: profile ?? detectProfile(s) });
      if (args.values.json) {
        jsonLine(io, {
          file,
          profile: r.profile,
          header: s.header,
          leafId: r.leafId,
          entries: listTreeEntries(s),
          labels: r.labels,
          sessionName: r.sessionName,
          issues: r.issues,
        });
        return;
      }
      line(io.stdout, `${file}  (profile ${r.profile}, ${s.entries.length} entries, leaf ${r.leafId ?? '(none)'}; * = on the current path)`);
      if (r.sessionName) line(io.stdout, `  name: ${r.sessionName}`);
      printTree(io, s, r);
      printIssues(io, r.issues);
    }, { verify: 'parse' });
  },
};

// ------------------------------------------------------------------ fork / clone

async function runFork(file: string, command: ForkCommand, args: ParsedArgs, io: CliIo): Promise<number> {
  const profile = profileOpt(args);
  let outcome: ForkOutcome;
  try {
    outcome = await forkSession(file, command, profile ? { profile } : {});
  } catch (err) {
    const e = errorOf(err);
    if (args.values.json) jsonLine(io, { ok: false, error: { kind: e.code, message: e.message } });
    else line(io.stderr, `${file}: ${e.code}: ${e.message}`);
    return EXIT_FILE_ERROR;
  }
  if (!outcome.ok) {
    if (args.values.json) jsonLine(io, { ok: false, error: outcome.error });
    else line(io.stderr, `${file}: refused: ${outcome.error.kind}: ${outcome.error.message}`);
    return EXIT_USAGE;
  }
  if (args.values.json) {
    jsonLine(io, {
      ok: true,
      path: outcome.path,
      header: outcome.header,
      entries: outcome.entries.map((e) => ({ id: e.id, parentId: e.parentId, type: e.type })),
    });
  } else {
    line(io.stdout, `created ${outcome.path}`);
    line(io.stdout, `  profile ${outcome.profile}, ${outcome.entries.length} entries, leaf ${outcome.leafId ?? '(none)'}`);
    line(io.stdout, `  continue it with: pi --session '${outcome.path.replace(/'/g, `'\\''`)}'`);
  }
  return EXIT_OK;
}

const forkCommand: CliCommand = {
  summary: 'new session file from the path to an entry (pi\'s /fork; --position at = fork at the entry)',
  usage: 'canopy fork FILE --entry ID [--position before|at] [--profile ca|h3] [--json]',
  options: { ...jsonOption, ...profileOption, entry: { type: 'string' }, position: { type: 'string' } },
  async run(args, io) {
    const [file] = needFiles(args, 1);
    const entryId = stringOpt(args, 'entry');
    if (entryId === undefined) throw new UsageError('--entry ID is required');
    const position = stringOpt(args, 'position') ?? 'before';
    if (position !== 'before' && position !== 'at') throw new UsageError(`--position must be before or at, not ${JSON.stringify(position)}`);
    profileOpt(args);
    return runFork(file!, { kind: 'fork', entryId, position }, args, io);
  },
};

const cloneCommand: CliCommand = {
  summary: 'new session file with the current branch (pi\'s /clone)',
  usage: 'canopy clone FILE [--leaf ID] [--profile ca|h3] [--json]',
  options: { ...jsonOption, ...profileOption, leaf: { type: 'string' } },
  async run(args, io) {
    const [file] = needFiles(args, 1);
    profileOpt(args);
    const leaf = stringOpt(args, 'leaf');
    return runFork(file!, { kind: 'clone', ...(leaf !== undefined ? { leafId: leaf === '' ? null : leaf } : {}) }, args, io);
  },
};

/** The command table: add an entry to add a command. */
export const commands: Record<string, CliCommand> = {
  list: listCommand,
  context: contextCommand,
  tree: treeCommand,
  fork: forkCommand,
  clone: cloneCommand,
  search: searchCommand,
  serve: serveCommand,
};

function usageText(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}\n           ${c.usage}`);
  return `usage: canopy <command> [options]\n\n${rows.join('\n')}\n\nExit codes: 0 ok, 1 a file could not be read, 2 bad usage or a refused fork/clone.\n`;
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(usageText());
    return EXIT_USAGE;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(usageText());
    return EXIT_OK;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr.write(`canopy: unknown command ${JSON.stringify(name)}\n\n${usageText()}`);
    return EXIT_USAGE;
  }
  try {
    const parsed = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
    const args: ParsedArgs = { values: parsed.values, positionals: parsed.positionals };
    if (args.values.help) {
      io.stdout.write(`${command.usage}\n`);
      return EXIT_OK;
    }
    return await command.run(args, io);
  } catch (err) {
    const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
    const isUsage = err instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
    if (isUsage) {
      io.stderr.write(`canopy ${name}: ${(err as Error).message}\nusage: ${command.usage}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`canopy ${name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT_FILE_ERROR;
  }
}

// Run when executed directly (node out/cli/index.cjs …); bin/canopy.cjs calls runCli itself.
if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) {
  void runCli(process.argv.slice(2), process).then((code) => {
    process.exitCode = code;
  });
}
