/**
 * The keep wing's two files in Canopy's data folder (never in a session root): the records
 * (names, tags, pins, notes by session id) and the trash ledger. Each is read once, changed in
 * memory and written whole (temp file + rename), one write at a time.
 */
import { join } from 'node:path';
import { readJsonFile, replaceJsonFile } from '../storage/json-file';
import type { KeepRecordDto, TrashRecordDto } from '../shared/keep-dto';

export const KEEP_FILE = 'keep.json';
export const TRASH_FILE = 'trash-ledger.json';

interface KeepFile {
  version: 1;
  records: Record<string, KeepRecordDto>;
}
interface TrashFile {
  version: 1;
  trashed: TrashRecordDto[];
}

/** One JSON document held in memory and written whole after each change, in order. */
class JsonDoc<T> {
  private value: Promise<T> | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly parse: (raw: unknown) => T,
  ) {}

  read(): Promise<T> {
    this.value ??= readJsonFile(this.path).then((raw) => this.parse(raw));
    return this.value;
  }

  /** Applies `change` to the value and writes it; settles once written. */
  async update<R>(change: (value: T) => R): Promise<R> {
    const value = await this.read();
    const out = change(value);
    const write = this.writing.then(() => replaceJsonFile(this.path, value));
    this.writing = write.catch(() => {});
    await write;
    return out;
  }
}

function keepFile(raw: unknown): KeepFile {
  const o = raw as Partial<KeepFile> | undefined;
  return { version: 1, records: o?.version === 1 && o.records && typeof o.records === 'object' ? o.records : {} };
}

function trashFile(raw: unknown): TrashFile {
  const o = raw as Partial<TrashFile> | undefined;
  return { version: 1, trashed: o?.version === 1 && Array.isArray(o.trashed) ? o.trashed : [] };
}

export class KeepStore {
  readonly records: JsonDoc<KeepFile>;
  readonly trash: JsonDoc<TrashFile>;

  constructor(dataDir: string) {
    this.records = new JsonDoc(join(dataDir, KEEP_FILE), keepFile);
    this.trash = new JsonDoc(join(dataDir, TRASH_FILE), trashFile);
  }
}
