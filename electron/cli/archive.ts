/** `canopy archive`: stale fork families (whole, none being written) moved out of the roots, and back. */
import { resolveRoots } from '../repo/roots';
import { archiveFamilies, checkArchiveDir, planArchive, restoreArchive } from '../store-views';
import {
  EXIT_FILE_ERROR,
  EXIT_OK,
  formatSize,
  jsonLine,
  jsonOption,
  line,
  stringOpt,
  UsageError,
  type CliCommand,
} from './cli-io';

export const archiveCommand: CliCommand = {
  summary:
    'move fork families no member of which was written for N days to a folder outside the roots (--restore: back)',
  usage:
    'canopy archive [--root DIR]... --stale-days N --to DIR [--yes] [--json]  |  canopy archive --restore FOLDER [--json]\n           without --yes: only the preview (what goes, bytes freed)',
  options: {
    ...jsonOption,
    root: { type: 'string', multiple: true },
    'stale-days': { type: 'string' },
    to: { type: 'string' },
    yes: { type: 'boolean' },
    restore: { type: 'string' },
  },
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    const json = args.values.json === true;
    const restore = stringOpt(args, 'restore');
    if (restore !== undefined) {
      try {
        const r = await restoreArchive(restore);
        if (json) jsonLine(io, { restored: r.restored, bytes: r.bytes });
        else for (const p of r.restored) line(io.stdout, `restored ${p}`);
        return EXIT_OK;
      } catch (err) {
        if (json) jsonLine(io, { error: { code: 'io', message: (err as Error).message } });
        else line(io.stderr, `canopy archive: ${(err as Error).message}`);
        return EXIT_FILE_ERROR;
      }
    }
    const daysText = stringOpt(args, 'stale-days');
    if (daysText === undefined || !/^\d+$/.test(daysText)) throw new UsageError('--stale-days N is required');
    const to = stringOpt(args, 'to');
    if (to === undefined) throw new UsageError('--to DIR (a folder outside the roots) is required');
    const roots = resolveRoots((args.values.root as string[] | undefined) ?? []);
    try {
      checkArchiveDir(to, roots);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const plan = await planArchive(roots, Number(daysText));
    if (args.values.yes !== true) {
      if (json) {
        for (const f of plan.families) jsonLine(io, { preview: true, ...f });
        jsonLine(io, { preview: true, families: plan.families.length, bytes: plan.bytes });
      } else {
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
      }
      return EXIT_OK;
    }
    const moved = await archiveFamilies(plan, to, roots);
    for (const m of moved) {
      if (json) jsonLine(io, m);
      else if (m.folder)
        line(
          io.stdout,
          `archived ${m.family} (${formatSize(m.bytes)}) to ${m.folder}  (restore: canopy archive --restore ${m.folder})`,
        );
      else line(io.stderr, `kept ${m.family}: ${m.skipped ?? ''}`);
    }
    if (json)
      jsonLine(io, { families: moved.filter((m) => m.folder).length, bytes: moved.reduce((n, m) => n + m.bytes, 0) });
    return EXIT_OK;
  },
};
