/** `canopy storage`: what fills the disk, per session, project and store, and fork families gone stale. */
import type { StorageSplit } from '../store-views';
import { resolveRoots } from '../repo/roots';
import { storageReport } from '../store-views';
import { EXIT_OK, formatSize, jsonLine, jsonOption, line, stringOpt, UsageError, type CliCommand } from './cli-io';

function countOpt(text: string | undefined, name: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > 1e9) throw new UsageError(`--${name} wants a whole number`);
  return Number(text);
}

const parts = (s: StorageSplit): string =>
  `images ${formatSize(s.image)}, tool output ${formatSize(s.toolOutput)}, abandoned ${formatSize(s.abandoned)}, copied from parent ${formatSize(s.copied)}, rest ${formatSize(s.rest)}`;

export const storageCommand: CliCommand = {
  summary: 'bytes per session split into images, tool output, abandoned branches, fork copies and the rest',
  usage: 'canopy storage [--root DIR]... [--top N] [--stale-days N] [--json]',
  options: {
    ...jsonOption,
    root: { type: 'string', multiple: true },
    top: { type: 'string' },
    'stale-days': { type: 'string' },
  },
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    const top = countOpt(stringOpt(args, 'top'), 'top', 20);
    const staleDays = countOpt(stringOpt(args, 'stale-days'), 'stale-days', 30);
    const roots = resolveRoots((args.values.root as string[] | undefined) ?? []);
    const r = await storageReport(roots, { top, staleDays, nowMs: Date.now() });
    for (const k of r.walk.skipped) io.stderr.write(`canopy storage: skipped ${k.path}: ${k.error.message}\n`);
    if (args.values.json) {
      for (const s of r.largest) {
        jsonLine(io, {
          kind: 'session',
          id: s.id,
          path: s.path,
          project: s.cwd,
          family: s.family,
          modifiedAt: new Date(s.mtimeMs).toISOString(),
          ...s.split,
        });
      }
      for (const p of r.projects) jsonLine(io, { kind: 'project', ...p });
      for (const f of r.stale) {
        jsonLine(io, {
          kind: 'staleFamily',
          family: f.family,
          bytes: f.bytes,
          lastWrite: new Date(f.lastWriteMs).toISOString(),
          sessions: f.sessions,
        });
      }
      jsonLine(io, { kind: 'total', staleDays, ...r.total });
      return EXIT_OK;
    }
    line(io.stdout, `${r.total.sessions} sessions in ${r.total.families} fork families, ${formatSize(r.total.total)}`);
    line(io.stdout, `  ${parts(r.total)}`);
    line(io.stdout, '\nprojects:');
    for (const p of r.projects)
      line(
        io.stdout,
        `  ${formatSize(p.total).padStart(9)}  ${p.project || '(no cwd)'}  (${p.sessions} sessions; ${parts(p)})`,
      );
    line(io.stdout, `\nlargest sessions:`);
    for (const s of r.largest) {
      line(io.stdout, `  ${formatSize(s.split.total).padStart(9)}  ${s.path}`);
      line(io.stdout, `             ${parts(s.split)}`);
    }
    const staleBytes = r.stale.reduce((n, f) => n + f.bytes, 0);
    line(io.stdout, `\n${r.stale.length} fork families not written for ${staleDays} days (${formatSize(staleBytes)}):`);
    for (const f of r.stale.slice(0, top)) {
      line(
        io.stdout,
        `  ${formatSize(f.bytes).padStart(9)}  ${f.sessions.length} session(s), last written ${new Date(f.lastWriteMs).toISOString().slice(0, 10)}: ${f.sessions[0]!.path}`,
      );
    }
    return EXIT_OK;
  },
};
