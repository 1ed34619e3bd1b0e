/**
 * `canopy export FILE`: the path to a leaf (or, with --all, every entry) as HTML, Markdown or a
 * new pi session file; --redact replaces each secret (and the user's own redactions) by
 * `[REDACTED:<rule>]` and says how many on stderr. To standard output, or --out PATH, which must
 * not exist. Every export is recorded in the share ledger; `--ledger` lists it.
 */
import { resolveRoots } from '../repo/roots';
import {
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportRequest,
  prepareExport,
  recordExport,
  writeExport,
  ledgerPath,
  readLedger,
  loadRedactions,
  redactionsPath,
} from '../export';
import { redactor } from '../secrets';
import {
  EXIT_OK,
  EXIT_USAGE,
  errorOf,
  jsonLine,
  line,
  needFiles,
  stringOpt,
  UsageError,
  type CliCommand,
} from './cli-io';

const EXIT_UNREADABLE = 1;

function countByRule(rules: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of rules) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${r} ${n}`).join(', ');
}

export const exportCommand: CliCommand = {
  summary: 'export a branch (or the whole session) as HTML, Markdown or a new pi session; --redact hides secrets',
  usage:
    'canopy export FILE [--leaf ID | --all] [--format html|md|jsonl] [--redact] [--out PATH] [--json]   |   canopy export --ledger [--json]',
  options: {
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    leaf: { type: 'string' },
    all: { type: 'boolean' },
    format: { type: 'string' },
    redact: { type: 'boolean' },
    out: { type: 'string' },
    ledger: { type: 'boolean' },
    root: { type: 'string', multiple: true },
  },
  async run(args, io) {
    const roots = resolveRoots((args.values.root as string[] | undefined) ?? []);
    const ledger = ledgerPath(roots);
    if (args.values.ledger) {
      if (args.positionals.length > 0) throw new UsageError('--ledger takes no FILE');
      for (const e of await readLedger(ledger)) {
        if (args.values.json) jsonLine(io, e);
        else
          line(
            io.stdout,
            `${e.time}  ${e.format}${e.redacted ? ' redacted' : ''}  ${e.sessionId}${e.leafId ? ` @${e.leafId}` : ''}  → ${e.writtenTo}`,
          );
      }
      return EXIT_OK;
    }
    const [file] = needFiles(args, 1);
    const format = (stringOpt(args, 'format') ?? 'html') as ExportFormat;
    if (!EXPORT_FORMATS.includes(format))
      throw new UsageError(`--format must be html, md or jsonl, not ${JSON.stringify(format)}`);
    const leafId = stringOpt(args, 'leaf');
    if (leafId !== undefined && args.values.all) throw new UsageError('--leaf and --all exclude each other');
    const redact = args.values.redact === true;
    const req: ExportRequest = {
      format,
      redact,
      ...(leafId !== undefined ? { leafId } : {}),
      ...(args.values.all ? { all: true } : {}),
      ...(redact ? { user: await loadRedactions(redactionsPath(roots)) } : {}),
    };
    const out = stringOpt(args, 'out');
    const opts = { ledger, redactor };
    let written = '-';
    try {
      const built = await prepareExport(file!, req, opts);
      if (redact) {
        const rules = built.replacements.map((r) => r.rule);
        line(
          io.stderr,
          `redacted ${rules.length} value${rules.length === 1 ? '' : 's'}${rules.length ? ` (${countByRule(rules)})` : ''}`,
        );
      }
      if (out !== undefined) written = await writeExport(built, out);
      else for (const p of built.pieces) io.stdout.write(p);
      await recordExport(built, file!, req, written, opts);
      if (out !== undefined) {
        if (args.values.json)
          jsonLine(io, {
            ok: true,
            path: written,
            format,
            leafId: built.meta.leafId,
            replacements: built.replacements.length,
          });
        else line(io.stderr, `wrote ${written}`);
      }
      return EXIT_OK;
    } catch (err) {
      const e = errorOf(err);
      if (args.values.json) jsonLine(io, { ok: false, file, error: e });
      else line(io.stderr, `${file}: ${e.code}: ${e.message}`);
      return e.code === 'already_exists' || e.code === 'not_found' ? EXIT_USAGE : EXIT_UNREADABLE;
    }
  },
};
