/**
 * `canopy secrets [--root DIR]… [FILE…]`: the secret radar. Scans every listed session (or the
 * given files) incrementally through its cache, prints each finding with its value masked, and
 * exits 0 when there is none, 1 when there are, 2 for bad input (a FILE that is not a session).
 */
import { resolve } from 'node:path';
import type { CliCommand } from './cli-io';
import { resolveRoots } from '../repo/roots';
import { SecretsService } from '../secrets';
import { listSessionFiles, listSessions } from '../repo/sessions';

const EXIT_NONE = 0;
const EXIT_FOUND = 1;
const EXIT_BAD_INPUT = 2;

export const secretsCommand: CliCommand = {
  summary: 'find secrets (keys, tokens, passwords) in sessions; values are always masked',
  usage: 'canopy secrets [--root DIR]... [FILE...] [--json]   (exit 0 none, 1 found, 2 bad input)',
  options: {
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    root: { type: 'string', multiple: true },
  },
  async run(args, io) {
    const roots = resolveRoots((args.values.root as string[] | undefined) ?? []);
    const files = args.positionals.map((f) => resolve(f));
    const listing = files.length > 0 ? await listSessionFiles(files) : await listSessions(roots);
    let bad = false;
    for (const k of listing.skipped) {
      // Given files must be sessions; a stray file under a root is only noted.
      if (files.length > 0) bad = true;
      io.stderr.write(`${k.path}: not scanned: ${k.error.message}\n`);
    }
    const paths = listing.sessions.map((s) => s.path);
    let shown = -1;
    const service = new SecretsService({
      roots,
      onStatus: (s) => {
        if (!s.scanning || s.done === shown || s.total < 2) return;
        shown = s.done;
        io.stderr.write(`scanning ${s.done}/${s.total} sessions\r`);
      },
    });
    await service.update(paths);
    if (shown >= 0) io.stderr.write(`scanned ${paths.length} sessions (${service.cachePath})\n`);
    let found = 0;
    for (const path of paths) {
      const s = await service.secretsOf(path);
      if (!s) continue;
      for (const p of s.problems) io.stderr.write(`${path}:${p.line}: ${p.message}\n`);
      for (const f of s.findings) {
        found++;
        if (args.values.json) {
          io.stdout.write(
            `${JSON.stringify({ path, sessionId: s.sessionId, entryId: f.entryId, line: f.line, rule: f.rule, masked: f.masked, pointer: f.pointer })}\n`,
          );
        } else {
          io.stdout.write(`${path}:${f.line} ${f.entryId} ${f.rule} ${f.masked}  (${f.pointer})\n`);
        }
      }
    }
    if (!args.values.json)
      io.stderr.write(
        `${found} finding${found === 1 ? '' : 's'} in ${paths.length} session${paths.length === 1 ? '' : 's'}\n`,
      );
    if (bad) return EXIT_BAD_INPUT;
    return found > 0 ? EXIT_FOUND : EXIT_NONE;
  },
};
