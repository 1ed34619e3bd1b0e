/** `canopy serve --db URL`: the team database's union mirrored (read-only) as one root per machine. */
import { mirrorDir, mirrorUnion, shownUrl, TeamError, withTeamDb } from '../team';
import { EXIT_DB, stringOpt, type CliIo, type ParsedArgs } from './cli-io';

/** The machines' folders to serve (none without --db), or the exit code of a database fault. */
export async function teamRoots(args: ParsedArgs, roots: readonly string[], io: CliIo): Promise<string[] | number> {
  const url = stringOpt(args, 'db');
  if (url === undefined) return [];
  const dir = mirrorDir(roots, url);
  try {
    const m = await withTeamDb(url, { migrate: false }, (client) => mirrorUnion(client, dir));
    io.stderr.write(
      `canopy serve: ${m.sessions} sessions of ${m.machineDirs.length} machines from ${shownUrl(url)} (read-only)\n`,
    );
    return m.machineDirs;
  } catch (err) {
    if (!(err instanceof TeamError)) throw err;
    io.stderr.write(`canopy serve: ${err.message}\n`);
    return EXIT_DB;
  }
}
