/** `canopy list`: the sessions under the roots. */
import { emptyRootNotes, resolveRootsExplained } from '../repo/roots';
import { groupByProject, listSessions, summarizeSession, type SessionInfo } from '../repo/sessions';
import { mapLimit } from '../repo/map-limit';
import { EXIT_OK, CliCommand, jsonOption, line, jsonLine, short, formatSize, UsageError } from './cli-io';

export const listCommand: CliCommand = {
  summary: "list sessions under pi's sessions root and any --root DIR",
  usage: 'canopy list [--root DIR]... [--headers-only] [--json]',
  options: { ...jsonOption, root: { type: 'string', multiple: true }, 'headers-only': { type: 'boolean' } },
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    const extra = (args.values.root as string[] | undefined) ?? [];
    const { roots, notes } = resolveRootsExplained(extra);
    const listing = await listSessions(roots);
    // Said once, before the list: roots taken as the sessions folder inside them, and roots that give nothing.
    const explained = [...notes, ...emptyRootNotes(roots, listing)];
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
      jsonLine(io, { sessions, skipped: listing.skipped, notes: explained });
      return EXIT_OK;
    }
    line(io.stdout, `roots: ${roots.join(', ')}`);
    for (const note of explained) line(io.stdout, `note: ${note}`);
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
