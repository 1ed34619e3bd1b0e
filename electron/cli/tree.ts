/** `canopy tree`: the entry tree as indented text. */
import {
  detectProfile,
  entryColumns,
  listTreeEntries,
  readSession,
  type ParsedSession,
  type SessionReading,
  treeShape,
  walkTree,
} from '../core';
import {
  CliIo,
  CliCommand,
  jsonOption,
  profileOption,
  line,
  jsonLine,
  profileOpt,
  needFiles,
  forEachSession,
  printIssues,
  shown,
} from './cli-io';

/** Indentation by depth, capped so a deeply branched tree keeps a readable width. */
const INDENT = Array.from({ length: 31 }, (_, d) => '  '.repeat(d));

/**
 * Indented text tree; indentation grows only at branch points so 100k-entry chains stay flat.
 * Reads the session's envelope columns by position (an indexed session: its own columns and id
 * table), so printing creates no entry object and no second id map.
 */
export function printTree(io: CliIo['stdout'], session: ParsedSession, reading: SessionReading): void {
  const c = entryColumns(session);
  const onPath = new Set(reading.pathIds);
  const labels = reading.labels;
  // A handful of distinct type:role pairs: each shown() once.
  const kinds = new Map<string, string>();
  const out: string[] = [];
  walkTree(treeShape(c), (i, depth) => {
    const id = c.idOf(i);
    const type = c.typeOf(i);
    const role = c.roleOf(i);
    const kind = role ? `${type}:${role}` : type;
    let kindText = kinds.get(kind);
    if (kindText === undefined) kinds.set(kind, (kindText = shown(kind)));
    const label = Object.hasOwn(labels, id) ? `  [${shown(labels[id]!)}]` : '';
    const marks = `${onPath.has(id) ? ' *' : ''}${id === reading.leafId ? '  ← leaf' : ''}`;
    out.push(`${INDENT[Math.min(depth, 30)]}${shown(id)} ${kindText} (line ${c.lineOf(i)})${label}${marks}\n`);
  });
  io.write(out.join(''));
}

export const treeCommand: CliCommand = {
  summary: 'every entry with its parent, type and line',
  usage: 'canopy tree FILE... [--profile ca|h3] [--json]',
  options: { ...jsonOption, ...profileOption },
  async run(args, io) {
    const files = needFiles(args);
    const profile = profileOpt(args);
    return forEachSession(
      files,
      args,
      io,
      (io, file, s) => {
        const r = readSession(s, { profile: profile ?? detectProfile(s) });
        if (args.values.json) {
          jsonLine(io, {
            file,
            profile: r.profile,
            header: s.header,
            leafId: r.leafId,
            entries: listTreeEntries(s),
            labels: r.labels,
            sessionName: r.sessionName,
            issues: r.issues,
          });
          return;
        }
        line(
          io.stdout,
          `${file}  (profile ${r.profile}, ${s.entriesOf('ca').count} entries, leaf ${r.leafId === null ? '(none)' : shown(r.leafId)}; * = on the current path)`,
        );
        if (r.sessionName) line(io.stdout, `  name: ${r.sessionName}`);
        printTree(io.stdout, s, r);
        printIssues(io, r.issues);
      },
      { verify: 'parse' },
    );
  },
};
