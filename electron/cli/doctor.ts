/**
 * `canopy doctor [FILE|--root DIR]… [--json] [--write]`: the damage old pi versions left in session
 * files, each explained in pi's words, and a repaired new file next to each damaged one (a preview
 * unless --write). Exit 0 healthy, 1 damage found (repaired with --write), 2 bad input.
 */
import { resolve } from 'node:path';
import { examineSession, explain, type DoctorReport } from '../doctor';
import { defaultRoot } from '../repo/roots';
import { listSessions } from '../repo/sessions';
import { errorOf, jsonLine, line, shown, type CliCommand, type CliIo } from './cli-io';

const EXIT_HEALTHY = 0;
const EXIT_DAMAGE = 1;
const EXIT_BAD_INPUT = 2;

function printReport(io: CliIo, r: DoctorReport, write: boolean): void {
  line(io.stdout, shown(r.file));
  if (r.writer.length > 0) line(io.stdout, `  written by: ${r.writer.join('; ')}`);
  if (r.marks.length === 0) line(io.stdout, '  healthy: no damage from old pi versions');
  for (const m of r.marks) {
    line(io.stdout, `  line ${m.line} ${m.kind}: ${shown(explain(m))}`);
    line(io.stdout, `    repair: ${shown(m.repair ?? 'none (nothing pi 1.6.0 reads is wrong)')}`);
  }
  for (const s of r.skipped)
    line(io.stdout, `  line ${s.line} skipped: ${s.reason} (pi skips it too; a repaired file leaves it out)`);
  if (r.refused) line(io.stdout, `  not repaired: ${r.refused}`);
  for (const f of r.repairs) {
    const what = r.sessions > 1 ? ` (session ${f.part + 1} of ${r.sessions}, header line ${f.headerLine})` : '';
    line(
      io.stdout,
      `  ${write ? 'repaired file written' : 'repaired file (preview; --write writes it)'}${what}: ${shown(f.path)}`,
    );
  }
}

export const doctorCommand: CliCommand = {
  summary: 'find the damage old pi versions left in sessions; --write writes repaired new files beside them',
  usage: 'canopy doctor [FILE|--root DIR]... [--json] [--write]   (exit 0 healthy, 1 damage found, 2 bad input)',
  options: {
    json: { type: 'boolean' },
    write: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    root: { type: 'string', multiple: true },
  },
  async run(args, io) {
    const roots = ((args.values.root as string[] | undefined) ?? []).map((r) => resolve(r));
    const files = args.positionals.map((f) => resolve(f));
    if (roots.length === 0 && files.length === 0) roots.push(defaultRoot());
    const listed = roots.length > 0 ? await listSessions(roots) : { sessions: [], skipped: [] };
    // A stray file under a root is only noted; a FILE given by name must be a session.
    for (const k of listed.skipped) io.stderr.write(`${k.path}: not examined: ${k.error.message}\n`);
    const write = args.values.write === true;
    let exit = EXIT_HEALTHY;
    for (const file of [...files, ...listed.sessions.map((s) => s.path)]) {
      try {
        const r = await examineSession(file, { write });
        if (args.values.json) jsonLine(io, r);
        else printReport(io, r, write);
        if (r.marks.length > 0 && exit === EXIT_HEALTHY) exit = EXIT_DAMAGE;
      } catch (err) {
        exit = EXIT_BAD_INPUT;
        const error = errorOf(err);
        if (args.values.json) jsonLine(io, { file, error });
        else line(io.stderr, `${file}: ${error.code}: ${error.message}`);
      }
    }
    return exit;
  },
};
