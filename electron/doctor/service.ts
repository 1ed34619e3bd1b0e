/**
 * The doctor's I/O: reads a session file (and, for a fork that lost its compaction boundary, the
 * session it was forked from), asks the rules, and with `write` creates the repaired files next to
 * the source through storage/create.ts (temp file, fsync, no-clobber link). The source is only read.
 */
import { dirname, resolve } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { caEntryId } from '../repo/fork';
import { CanopyError } from '../shared/errors';
import { CreateFileError, createNewFile } from '../storage/create';
import { readLines } from '../storage/read';
import { statPath } from '../storage/stat';
import { diagnose, wantedSources, type Diagnosis } from './rules/diagnose';
import { PI_WORDS, type Mark, type PiWords } from './rules/marks';
import { readSource, type Rec, type SourceLine } from './rules/source';

export interface DoctorOptions {
  /** Create the repaired files (default: only say what they would hold). */
  write?: boolean;
  /** Injected for tests; default: the clock, a UUIDv7, pi's entry ids. */
  now?: () => Date;
  newSessionId?: () => string;
  newEntryId?: (taken: Set<string>) => string;
}

export interface DoctorRepair {
  /** The repaired file: created with `write`, else the path it would get. */
  path: string;
  written: boolean;
  sessionId: string;
  /** Which session of the source it holds (0-based) and that session's header line. */
  part: number;
  headerLine: number;
  lines: number;
}

export interface DoctorReport {
  file: string;
  sessions: number;
  writer: string[];
  marks: (Mark & PiWords)[];
  skipped: Diagnosis['skipped'];
  repairs: DoctorRepair[];
  /** Why no repaired file is planned although the file has damage a repair changes, if so. */
  refused?: string;
}

/** The doctor holds a file's lines (and their values) in memory: about five times its size. */
export const MAX_DOCTOR_BYTES = 1024 * 1024 * 1024;

async function sourceLines(file: string): Promise<{ lines: SourceLine[]; oversized: number[] }> {
  const size = (await statPath(file).catch(() => null))?.size ?? 0;
  if (size > MAX_DOCTOR_BYTES)
    throw new CanopyError('io', `${file}: ${size} bytes, over the doctor's limit of 1 GiB (it reads a file whole)`);
  const lines: SourceLine[] = [];
  const oversized: number[] = [];
  try {
    for await (const l of readLines(file)) {
      if (l.oversized) oversized.push(l.line);
      else lines.push({ line: l.line, text: l.text });
    }
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new CanopyError(code === 'ENOENT' ? 'not_found' : 'io', `${file}: ${(err as Error).message}`);
  }
  return { lines, oversized };
}

/** The entries of a fork's source session, or null when it cannot be read. */
async function sourceEntries(path: string): Promise<Rec[] | null> {
  try {
    const { lines } = await sourceLines(path);
    const reading = readSource(lines);
    return reading ? reading.parts.flatMap((p) => p.entries.map((e) => e.value)) : null;
  } catch {
    return null;
  }
}

async function writeRepair(dir: string, name: string, lines: string[]): Promise<string> {
  try {
    return await createNewFile(
      dir,
      name,
      lines.map((l) => `${l}\n`),
    );
  } catch (err) {
    if (err instanceof CreateFileError)
      throw new CanopyError(err.code === 'exists' ? 'already_exists' : 'io', err.message);
    throw err;
  }
}

/**
 * The doctor's report on `path`; throws CanopyError invalid_session when it is no pi session
 * (its first line is no session header), not_found / io when it cannot be read or a repair written.
 */
export async function examineSession(path: string, opts: DoctorOptions = {}): Promise<DoctorReport> {
  const file = resolve(path);
  const { lines, oversized } = await sourceLines(file);
  const reading = readSource(lines);
  if (!reading)
    throw new CanopyError('invalid_session', `${file}: line 1 is no pi session header (not a session file)`);
  const sources = new Map<string, Rec[] | null>();
  for (const src of wantedSources(reading)) sources.set(src, await sourceEntries(src));
  const diagnosis = diagnose(reading, sources, {
    sourcePath: file,
    now: (opts.now ?? (() => new Date()))().toISOString(),
    newSessionId: opts.newSessionId ?? uuidv7,
    newEntryId: opts.newEntryId ?? caEntryId,
  });
  const skipped = [...diagnosis.skipped, ...oversized.map((line) => ({ line, reason: 'over 256 MiB, not read' }))];
  const refused =
    oversized.length > 0 && diagnosis.files.length > 0
      ? `line ${oversized[0]} is too long to read, so a repaired copy would lose it: nothing is written`
      : undefined;
  const repairs: DoctorRepair[] = [];
  for (const f of refused ? [] : diagnosis.files) {
    const planned = resolve(dirname(file), f.name);
    const written = opts.write ? await writeRepair(dirname(file), f.name, f.lines) : planned;
    repairs.push({
      path: written,
      written: opts.write === true,
      sessionId: f.sessionId,
      part: f.part,
      headerLine: f.headerLine,
      lines: f.lines.length,
    });
  }
  return {
    file,
    sessions: diagnosis.sessions,
    writer: diagnosis.writer,
    marks: diagnosis.marks.map((m) => ({ ...m, ...PI_WORDS[m.kind] })),
    skipped,
    repairs,
    ...(refused ? { refused } : {}),
  };
}
