/**
 * Session files a query reads back, kept across queries: a query touches hundreds of files, and
 * opening each again cost ~5 % of a query's time. Keyed by path and inode, so a file replaced since
 * (re-indexed with its new inode) is never read through an old handle; each reader closes its
 * descriptor when idle, and the pool holds at most MAX readers.
 */
import { SyncLineReader } from '../storage/line-scan';

const MAX = 512;
/** A reader's descriptor is closed after this long unused (reopened on demand). */
const IDLE_MS = 60_000;

export class ReaderPool {
  private readonly readers = new Map<string, SyncLineReader>();

  get(path: string, ino: number): SyncLineReader {
    const key = `${ino}\0${path}`;
    let r = this.readers.get(key);
    if (r) {
      // Most recently used last: the first is the one to close when full.
      this.readers.delete(key);
    } else {
      r = new SyncLineReader(path, ino, IDLE_MS);
      if (this.readers.size >= MAX) {
        const [oldest, reader] = this.readers.entries().next().value as [string, SyncLineReader];
        reader.close();
        this.readers.delete(oldest);
      }
    }
    this.readers.set(key, r);
    return r;
  }

  get size(): number {
    return this.readers.size;
  }

  close(): void {
    for (const r of this.readers.values()) r.close();
    this.readers.clear();
  }
}
