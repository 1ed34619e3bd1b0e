/** `canopy archive`: stale fork families (whole, none being written) moved out of the roots, and back; journaled. */
import { resolveRoots } from '../repo/roots';
import { canopyDataDir } from '../storage/data-dir';
import { errnoCode } from '../storage/stat';
import {
  ArchiveError,
  archiveFamilies,
  destinationOutside,
  defaultArchiveDir,
  planArchive,
  restoreArchive,
  resumeArchive,
  type FamilyOutcome,
} from '../store-views';
import {
  EXIT_FILE_ERROR,
  EXIT_OK,
  EXIT_USAGE,
  formatSize,
  jsonLine,
  jsonOption,
  line,
  stringOpt,
  UsageError,
  type CliCommand,
  type CliIo,
} from './cli-io';

/** Another archive or restore holds the lock, or an interrupted one waits for `--resume`. */
const EXIT_BUSY = 4;

export const archiveCommand: CliCommand = {
  summary:
    'move fork families no member of which was written for N days to a folder outside the roots (--restore: back; --resume: finish a cut run)',
  usage:
    "canopy archive [--root DIR]... --stale-days N [--to DIR] [--yes] [--json]  |  canopy archive [--root DIR]... --restore FOLDER [--json]  |  canopy archive --resume [--json]\n           without --yes: only the preview (what goes, bytes freed); --to defaults to the archive folder in Canopy's data folder",
  options: {
    ...jsonOption,
    root: { type: 'string', multiple: true },
    'stale-days': { type: 'string' },
    to: { type: 'string' },
    yes: { type: 'boolean' },
    restore: { type: 'string' },
    resume: { type: 'boolean' },
  },
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    const json = args.values.json === true;
    const roots = resolveRoots((args.values.root as string[] | undefined) ?? []);
    try {
      const dataDir = canopyDataDir(roots);
      if (args.values.resume === true) {
        const r = await resumeArchive(dataDir);
        if (r === null) say(io, json, { resumed: 0 }, 'no interrupted archive or restore');
        else for (const m of r) report(io, json, m, 'finished');
        return EXIT_OK;
      }
      const restore = stringOpt(args, 'restore');
      if (restore !== undefined) {
        const r = await restoreArchive({ folder: restore, roots, dataDir });
        if (json) jsonLine(io, { restored: r.paths, bytes: r.bytes });
        else for (const p of r.paths) line(io.stdout, `restored ${p}`);
        return EXIT_OK;
      }
      return await archive(args, io, json, roots, dataDir);
    } catch (caught) {
      // A file-system failure (not a bug) is one line too, never a stack trace.
      if (!(caught instanceof ArchiveError) && !errnoCode(caught)) throw caught;
      const err = caught instanceof ArchiveError ? caught : new ArchiveError('io', (caught as Error).message);
      if (json) jsonLine(io, { error: { code: err.code, message: err.message } });
      else line(io.stderr, `canopy archive: ${err.message}`);
      return err.code === 'busy' || err.code === 'pending' ? EXIT_BUSY : EXIT_FILE_ERROR;
    }
  },
};

function say(io: CliIo, json: boolean, value: object, text: string): void {
  if (json) jsonLine(io, value);
  else line(io.stdout, text);
}

function report(io: CliIo, json: boolean, m: FamilyOutcome, verb: string): void {
  if (json) jsonLine(io, m);
  else if (m.moved) line(io.stdout, `${verb} ${m.family} (${formatSize(m.bytes)})${m.folder ? `: ${m.folder}` : ''}`);
  else line(io.stderr, `kept ${m.family} where it was: ${m.skipped ?? ''}`);
}

async function archive(
  args: Parameters<CliCommand['run']>[0],
  io: CliIo,
  json: boolean,
  roots: string[],
  dataDir: string,
): Promise<number> {
  const daysText = stringOpt(args, 'stale-days');
  if (daysText === undefined || !/^\d+$/.test(daysText)) throw new UsageError('--stale-days N is required');
  const to = stringOpt(args, 'to') ?? defaultArchiveDir(dataDir);
  try {
    destinationOutside(to, roots);
  } catch (err) {
    if (err instanceof ArchiveError && err.code === 'refused') {
      line(io.stderr, `canopy archive: ${err.message}`);
      return EXIT_USAGE;
    }
    throw err;
  }
  const plan = await planArchive(roots, Number(daysText));
  if (args.values.yes !== true) {
    if (json) {
      for (const f of plan.families) jsonLine(io, { preview: true, ...f });
      jsonLine(io, { preview: true, families: plan.families.length, bytes: plan.bytes, to });
      return EXIT_OK;
    }
    line(
      io.stdout,
      `${plan.families.length} fork families not written for ${plan.staleDays} days would move to ${to}, freeing ${formatSize(plan.bytes)}:`,
    );
    for (const f of plan.families) {
      line(
        io.stdout,
        `  ${formatSize(f.bytes).padStart(9)}  last written ${f.lastWrite.slice(0, 10)}, ${f.sessions.length} session(s)`,
      );
      for (const s of f.sessions) line(io.stdout, `             ${s.path}`);
    }
    line(io.stdout, 'run again with --yes to move them');
    return EXIT_OK;
  }
  const moved = await archiveFamilies({
    families: plan.families,
    staleDays: plan.staleDays,
    archiveDir: to,
    roots,
    dataDir,
  });
  for (const m of moved) {
    if (json) jsonLine(io, m);
    else if (m.moved)
      line(
        io.stdout,
        `archived ${m.family} (${formatSize(m.bytes)}) to ${m.folder}  (restore: canopy archive --restore ${m.folder})`,
      );
    else line(io.stderr, `kept ${m.family} where it was: ${m.skipped ?? ''}`);
  }
  const done = moved.filter((m) => m.moved);
  if (json) jsonLine(io, { families: done.length, bytes: done.reduce((n, m) => n + m.bytes, 0) });
  // A family kept because it is in use is the archive working; one kept by a failed step is not.
  return moved.some((m) => m.failed) ? EXIT_FILE_ERROR : EXIT_OK;
}
