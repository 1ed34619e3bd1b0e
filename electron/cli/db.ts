/** `canopy db grant|status --db URL`: the aggregate-only role, and what the team database holds. */
import { AGGREGATE_VIEWS, grantAggregateRole, TeamError, teamStatus, withTeamDb } from '../team';
import { EXIT_DB, EXIT_OK, jsonLine, jsonOption, line, stringOpt, UsageError, type CliCommand } from './cli-io';
import { dbOpt, EXIT_CODES_TEXT } from './push';

export const dbCommand: CliCommand = {
  summary: `the team database: grant a role read access to the aggregates only (${AGGREGATE_VIEWS.join(', ')}), or its status`,
  usage: `canopy db grant --db URL --role NAME [--password-env VAR] | canopy db status --db URL [--json]\n           ${EXIT_CODES_TEXT}`,
  options: {
    ...jsonOption,
    db: { type: 'string' },
    role: { type: 'string' },
    'password-env': { type: 'string' },
  },
  async run(args, io) {
    const [sub, ...extra] = args.positionals;
    if ((sub !== 'grant' && sub !== 'status') || extra.length > 0) throw new UsageError('expected grant or status');
    const url = dbOpt(args);
    const json = args.values.json === true;
    try {
      if (sub === 'status') {
        const s = await withTeamDb(url, { migrate: false }, teamStatus);
        if (json) jsonLine(io, { kind: 'status', ...s });
        else
          line(
            io.stdout,
            `schema ${s.schemaVersion}; ${s.machines} machines, ${s.users} users; ${s.sessions} sessions ` +
              `(${s.tombstones} tombstoned); ${s.entries} entries`,
          );
        return EXIT_OK;
      }
      const role = stringOpt(args, 'role');
      if (!role) throw new UsageError('--role NAME is required');
      const envName = stringOpt(args, 'password-env');
      const password = envName === undefined ? undefined : process.env[envName];
      if (envName !== undefined && !password)
        throw new UsageError(`--password-env ${envName}: that variable is empty or unset`);
      // Migrated first: the views must exist to be granted.
      const r = await withTeamDb(url, { migrate: true }, (client) => grantAggregateRole(client, role, password));
      if (json) jsonLine(io, { kind: 'grant', role, created: r.created, views: AGGREGATE_VIEWS });
      else
        line(io.stdout, `${r.created ? 'created' : 'updated'} role ${role}: reads ${AGGREGATE_VIEWS.join(', ')} only`);
      return EXIT_OK;
    } catch (err) {
      if (!(err instanceof TeamError)) throw err;
      io.stderr.write(`canopy db: ${err.message}\n`);
      return EXIT_DB;
    }
  },
};
