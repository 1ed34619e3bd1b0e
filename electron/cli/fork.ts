/** `canopy fork` and `canopy clone`: new files next to the source, never a write to it. */
import { forkSession, type ForkOutcome } from '../repo/fork-file';
import type { ForkRequestDto } from '../shared/context-dto';
import { resumeCommand } from '../shared/resume-command';
import {
  CliIo,
  EXIT_OK,
  EXIT_FILE_ERROR,
  EXIT_USAGE,
  CliCommand,
  ParsedArgs,
  jsonOption,
  profileOption,
  line,
  jsonLine,
  stringOpt,
  profileOpt,
  needFiles,
  errorOf,
  UsageError,
} from './cli-io';

export async function runFork(file: string, request: ForkRequestDto, args: ParsedArgs, io: CliIo): Promise<number> {
  const profile = profileOpt(args);
  let outcome: ForkOutcome;
  try {
    outcome = await forkSession(file, request, profile ? { profile } : {});
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
    line(
      io.stdout,
      `  profile ${outcome.profile}, ${outcome.entries.length} entries, leaf ${outcome.leafId ?? '(none)'}`,
    );
    line(io.stdout, `  continue it with: ${resumeCommand(outcome.path)}`);
  }
  return EXIT_OK;
}

export const forkCommand: CliCommand = {
  summary: "new session file from the path to an entry (pi's /fork; --position at = fork at the entry)",
  usage: 'canopy fork FILE --entry ID [--position before|at] [--profile ca|h3] [--json]',
  options: { ...jsonOption, ...profileOption, entry: { type: 'string' }, position: { type: 'string' } },
  async run(args, io) {
    const [file] = needFiles(args, 1);
    const entryId = stringOpt(args, 'entry');
    if (entryId === undefined) throw new UsageError('--entry ID is required');
    const position = stringOpt(args, 'position') ?? 'before';
    if (position !== 'before' && position !== 'at')
      throw new UsageError(`--position must be before or at, not ${JSON.stringify(position)}`);
    profileOpt(args);
    return runFork(file!, { kind: 'fork', entryId, position }, args, io);
  },
};

export const cloneCommand: CliCommand = {
  summary: "new session file with the current branch (pi's /clone)",
  usage: 'canopy clone FILE [--leaf ID] [--profile ca|h3] [--json]',
  options: { ...jsonOption, ...profileOption, leaf: { type: 'string' } },
  async run(args, io) {
    const [file] = needFiles(args, 1);
    profileOpt(args);
    const leaf = stringOpt(args, 'leaf');
    return runFork(
      file!,
      { kind: 'clone', ...(leaf !== undefined ? { leafId: leaf === '' ? null : leaf } : {}) },
      args,
      io,
    );
  },
};
