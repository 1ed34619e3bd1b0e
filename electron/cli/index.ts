/**
 * The `canopy` command: list | context | tree | fork | clone | search | serve.
 * With --json every input file gets exactly one JSON line, failures included. Exit codes:
 * 0 success, 1 a file could not be read as a session, 2 bad usage or a refused fork/clone, 3 the team
 * database failed (push, db).
 */
import { cloneCommand, forkCommand } from './fork';
import { contextCommand } from './context';
import {
  EXIT_FILE_ERROR,
  EXIT_OK,
  EXIT_STATE,
  EXIT_USAGE,
  UsageError,
  type CliCommand,
  type CliIo,
  type ParsedArgs,
} from './cli-io';
import { listCommand } from './list';
import { searchCommand } from './search';
import { secretsCommand } from './secrets';
import { exportCommand } from './export';
import { serveCommand } from './serve';
import { treeCommand } from './tree';
import { usageCommand } from './usage';
import { slimCommand } from './slim';
import { storageCommand } from './storage';
import { archiveCommand } from './archive';
import { diffCommand } from './diff';
import { doctorCommand } from './doctor';
import { pushCommand } from './push';
import { dbCommand } from './db';
import { parseArgs } from 'node:util';
import { DataFolderError } from '../storage/data-dir';
import { exitQuietlyOnEpipe } from './process-exit';

export * from './cli-io';

/** The command table: add an entry to add a command. */
export const commands: Record<string, CliCommand> = {
  list: listCommand,
  context: contextCommand,
  tree: treeCommand,
  fork: forkCommand,
  clone: cloneCommand,
  search: searchCommand,
  serve: serveCommand,
  secrets: secretsCommand,
  export: exportCommand,
  usage: usageCommand,
  slim: slimCommand,
  storage: storageCommand,
  archive: archiveCommand,
  diff: diffCommand,
  doctor: doctorCommand,
  push: pushCommand,
  db: dbCommand,
};

function usageText(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}\n           ${c.usage}`);
  return `usage: canopy <command> [options]\n\n${rows.join('\n')}\n\nExit codes: 0 ok, 1 a file could not be read, 2 bad usage or a refused fork/clone, 3 the team database failed (push, db).\n`;
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (io.stdout === process.stdout) exitQuietlyOnEpipe(process.stdout);
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
    if (err instanceof DataFolderError) {
      io.stderr.write(`canopy ${name}: ${err.message}\n`);
      return EXIT_STATE;
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
