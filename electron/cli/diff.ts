/** `canopy diff`: two branches (of one session, or of a session and a fork of its family) from their common ancestor. */
import { compareBranches, type ParsedSession } from '../core';
import { SessionStore } from '../repo/session-store';
import { CanopyError } from '../shared/errors';
import {
  EXIT_FILE_ERROR,
  EXIT_OK,
  EXIT_USAGE,
  UsageError,
  errorOf,
  jsonLine,
  jsonOption,
  line,
  needFiles,
  profileOpt,
  profileOption,
  stringOpt,
  type CliCommand,
} from './cli-io';
import { compareMarkdown } from './diff-markdown';

function leavesOf(value: unknown): [string, string] {
  const list = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  if (list.length !== 2) throw new UsageError(`give exactly two --leaf IDs (got ${list.length})`);
  return [list[0]!, list[1]!];
}

/** A session, or the CanopyError that says why it cannot be read as one. */
async function load(store: SessionStore, file: string): Promise<ParsedSession> {
  return store.with(file, (session) => {
    if (session.fatal) throw new CanopyError(session.fatal.code, session.fatal.message);
    return session;
  });
}

export const diffCommand: CliCommand = {
  summary: 'compare two branches from their common ancestor (Markdown, or --json)',
  usage:
    'canopy diff FILE --leaf A --leaf B [--against FILE2] [--profile ca|h3] [--json]   (B is in FILE2 with --against)',
  options: { ...jsonOption, ...profileOption, leaf: { type: 'string', multiple: true }, against: { type: 'string' } },
  async run(args, io) {
    const [file] = needFiles(args, 1) as [string];
    const [leafA, leafB] = leavesOf(args.values.leaf);
    const against = stringOpt(args, 'against');
    const profile = profileOpt(args);
    const store = new SessionStore();
    const fileB = against ?? file;
    let sessions: [ParsedSession, ParsedSession];
    try {
      const a = await load(store, file);
      sessions = [a, against === undefined ? a : await load(store, against)];
    } catch (err) {
      store.clear();
      const error = errorOf(err);
      if (args.values.json) jsonLine(io, { file, ...(against !== undefined ? { against } : {}), error });
      else line(io.stderr, `${file}: ${error.code}: ${error.message}`);
      return EXIT_FILE_ERROR;
    }
    try {
      const c = compareBranches(
        { session: sessions[0], leafId: leafA, ...(profile ? { profile } : {}) },
        { session: sessions[1], leafId: leafB, ...(profile ? { profile } : {}) },
      );
      if (args.values.json) {
        jsonLine(io, {
          file,
          ...(against !== undefined ? { against } : {}),
          ...c,
          sides: [
            { file, ...c.sides[0] },
            { file: fileB, ...c.sides[1] },
          ],
        });
      } else io.stdout.write(compareMarkdown(c, [file, fileB]));
      return EXIT_OK;
    } catch (err) {
      // A --leaf that names no entry of its file is a bad argument, like any other.
      if (err instanceof RangeError) {
        line(io.stderr, `canopy diff: --leaf: ${err.message}`);
        return EXIT_USAGE;
      }
      throw err;
    } finally {
      store.clear();
    }
  },
};
