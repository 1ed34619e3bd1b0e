/** `canopy tree`: the entry tree as indented text. */
import {
  buildTree,
  detectProfile,
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
} from './cli-io';

/** Indented text tree; indentation grows only at branch points so 100k-entry chains stay flat. */
export function printTree(io: CliIo, session: ParsedSession, reading: SessionReading): void {
  const entries = new Map(listTreeEntries(session).map((e) => [e.id, e]));
  const tree = buildTree(session);
  const onPath = new Set(reading.pathIds);
  const stack: { id: string; depth: number }[] = tree.roots.map((id) => ({ id, depth: 0 })).reverse();
  const seen = new Set<string>();
  while (stack.length > 0) {
    const { id, depth } = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const e = entries.get(id);
    if (!e) continue;
    const kind = e.role ? `${e.type}:${e.role}` : e.type;
    const label = reading.labels[id] !== undefined ? `  [${reading.labels[id]}]` : '';
    const marks = `${onPath.has(id) ? ' *' : ''}${id === reading.leafId ? '  ← leaf' : ''}`;
    line(io.stdout, `${'  '.repeat(Math.min(depth, 30))}${id} ${kind} (line ${e.line})${label}${marks}`);
    const kids = tree.children.get(id) ?? [];
    const childDepth = kids.length > 1 ? depth + 1 : depth;
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ id: kids[i]!, depth: childDepth });
  }
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
          `${file}  (profile ${r.profile}, ${s.entries.length} entries, leaf ${r.leafId ?? '(none)'}; * = on the current path)`,
        );
        if (r.sessionName) line(io.stdout, `  name: ${r.sessionName}`);
        printTree(io, s, r);
        printIssues(io, r.issues);
      },
      { verify: 'parse' },
    );
  },
};
