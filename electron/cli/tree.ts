/** `canopy tree`: the entry tree as indented text. */
import { detectProfile, listTreeEntries, readForGraph } from '../core';
import { printTree } from './tree-text';
import {
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
        // The tree shows no message, so no context is built (readForGraph: readSession's leaf, path,
        // labels, name and issues from envelopes; test/differential/reading.test.ts holds them equal).
        const r = readForGraph(s, { profile: profile ?? detectProfile(s) });
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
