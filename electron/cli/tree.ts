/** `canopy tree`: the entry tree as indented text. */
import {
  buildTree,
  detectProfile,
  entryRole,
  indexById,
  listTreeEntries,
  readSession,
  type ParsedSession,
  type SessionReading,
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

/**
 * Indented text tree; indentation grows only at branch points so 100k-entry chains stay flat.
 * Reads the entries through the session's own id index (no second map of tree entries).
 */
export function printTree(io: CliIo['stdout'], session: ParsedSession, reading: SessionReading): void {
  const byId = indexById(session);
  const tree = buildTree(session);
  const onPath = new Set(reading.pathIds);
  const labels = reading.labels;
  const ids: string[] = [];
  const depths: number[] = [];
  for (let k = tree.roots.length - 1; k >= 0; k--) {
    ids.push(tree.roots[k]!);
    depths.push(0);
  }
  const seen = new Set<string>();
  const out: string[] = [];
  while (ids.length > 0) {
    const id = ids.pop()!;
    const depth = depths.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const e = byId.get(id);
    if (!e) continue;
    const role = entryRole(e);
    const kind = role ? `${e.type}:${role}` : e.type;
    const label = labels[id] !== undefined ? `  [${shown(labels[id])}]` : '';
    const marks = `${onPath.has(id) ? ' *' : ''}${id === reading.leafId ? '  ← leaf' : ''}`;
    out.push(
      `${depth > 0 ? '  '.repeat(Math.min(depth, 30)) : ''}${shown(id)} ${shown(kind)} (line ${e.line})${label}${marks}\n`,
    );
    const kids = tree.children.get(id);
    if (!kids) continue;
    const childDepth = kids.length > 1 ? depth + 1 : depth;
    for (let i = kids.length - 1; i >= 0; i--) {
      ids.push(kids[i]!);
      depths.push(childDepth);
    }
  }
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
          `${file}  (profile ${r.profile}, ${s.entries.length} entries, leaf ${r.leafId === null ? '(none)' : shown(r.leafId)}; * = on the current path)`,
        );
        if (r.sessionName) line(io.stdout, `  name: ${r.sessionName}`);
        printTree(io.stdout, s, r);
        printIssues(io, r.issues);
      },
      { verify: 'parse' },
    );
  },
};
