/**
 * The archive journal and lock on disk, in Canopy's data folder (never the cache: losing it would
 * lose where an interrupted run's files are). Each record is one JSON line, fsynced before the step
 * it announces is taken. The lock (a file holding the owner's pid) lets one archive or restore run
 * at a time; a lock whose owner died is taken over (its journal is then resumed).
 */
import { mkdir, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pidAlive } from '../../../storage/private-dir';
import { errnoCode } from '../../../storage/stat';
import { readJournal, type JournalRecord, type JournalState, type RunKind } from '../journal-rules';
import { fsyncDir } from './file-ops';

export type ArchiveErrorCode = 'busy' | 'pending' | 'refused' | 'io';

/** An archive or restore refused or failed, said in one line (the CLI prints it, the app shows it). */
export class ArchiveError extends Error {
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ArchiveError';
  }
}

const JOURNAL = 'archive-journal.jsonl';
const LOCK = 'archive.lock';

export interface Lock {
  release(): Promise<void>;
}

/** Takes the lock or throws ArchiveError('busy') naming the running owner. */
export async function takeLock(dataDir: string): Promise<Lock> {
  const path = join(dataDir, LOCK);
  await mkdir(dataDir, { recursive: true }).catch((err: unknown) => {
    throw dataError(err, dataDir);
  });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const h = await open(path, 'wx', 0o600);
      await h.writeFile(JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
      await h.sync();
      await h.close();
      return { release: () => unlink(path).catch(() => undefined) };
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw dataError(err, dataDir);
    }
    const pid = await lockOwner(path);
    if (pid !== null && pidAlive(pid))
      throw new ArchiveError('busy', `another archive or restore is running (pid ${pid}); try again when it ends`);
    // Its owner died: one taker wins the rename, the others retry and find the new lock.
    await rename(path, `${path}.stale-${process.pid}`).catch(() => undefined);
    await unlink(`${path}.stale-${process.pid}`).catch(() => undefined);
  }
  throw new ArchiveError('busy', 'another archive or restore is starting; try again');
}

async function lockOwner(path: string): Promise<number | null> {
  try {
    const pid = (JSON.parse(await readFile(path, 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' ? pid : null;
  } catch {
    // Torn (its owner died while writing it) or gone.
    return null;
  }
}

function dataError(err: unknown, dataDir: string): ArchiveError {
  return new ArchiveError('io', `cannot write the archive journal in ${dataDir}: ${(err as Error).message}`);
}

/** The interrupted run's journal, or null when there is none. */
export async function readPendingJournal(dataDir: string): Promise<JournalState | null> {
  try {
    return readJournal((await readFile(join(dataDir, JOURNAL), 'utf8')).split('\n').filter((l) => l !== ''));
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return null;
    throw dataError(err, dataDir);
  }
}

/** The write-ahead journal of one run (held under the lock). */
export class Journal {
  private constructor(
    private readonly handle: FileHandle,
    private readonly dataDir: string,
  ) {}

  /** Starts a new run's journal (none may exist: an interrupted run is resumed first). */
  static async begin(dataDir: string, kind: RunKind): Promise<Journal> {
    let h: FileHandle;
    try {
      h = await open(join(dataDir, JOURNAL), 'wx', 0o600);
    } catch (err) {
      if (errnoCode(err) === 'EEXIST')
        throw new ArchiveError(
          'pending',
          'an interrupted archive or restore is pending: run `canopy archive --resume`',
        );
      throw dataError(err, dataDir);
    }
    const j = new Journal(h, dataDir);
    await fsyncDir(dataDir);
    await j.write({ op: 'begin', kind, pid: process.pid, at: new Date().toISOString() });
    return j;
  }

  /** Continues an interrupted run's journal. */
  static async resume(dataDir: string): Promise<Journal> {
    return new Journal(await open(join(dataDir, JOURNAL), 'a'), dataDir);
  }

  /**
   * Appends a record; `durable` (the default) waits for it to reach the disk. A record that only
   * notes progress a resume re-checks anyway (a file placed, a source removed) need not wait.
   */
  async write(record: JournalRecord, durable = true): Promise<void> {
    try {
      // A line torn by a crash is skipped when read back; start each record on its own line.
      await this.handle.write(`\n${JSON.stringify(record)}\n`);
      if (durable) await this.handle.datasync();
    } catch (err) {
      throw dataError(err, this.dataDir);
    }
  }

  /** The run is finished: the journal goes. */
  async finish(): Promise<void> {
    await this.handle.close();
    await unlink(join(this.dataDir, JOURNAL));
    await fsyncDir(this.dataDir);
  }

  /** The run stops with work left (an I/O failure): the journal stays for `--resume`. */
  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}
