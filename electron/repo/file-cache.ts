/**
 * Results computed from a file, valid while its (size, mtime) stay the same. Least recently used
 * entries go first once the count or the total weight (bytes of the files behind them) is exceeded.
 * Concurrent loads of the same unchanged file share one promise.
 */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

interface Slot<T> {
  stamp: FileStamp;
  value: Promise<T>;
  weight: number;
}

export class FileCache<T> {
  private readonly slots = new Map<string, Slot<T>>();
  private totalWeight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  getOrLoad(path: string, stamp: FileStamp, load: () => Promise<T>, weight = 0): Promise<T> {
    const slot = this.slots.get(path);
    if (slot && slot.stamp.size === stamp.size && slot.stamp.mtimeMs === stamp.mtimeMs) {
      this.slots.delete(path); // re-insert: Map order is the recency order
      this.slots.set(path, slot);
      return slot.value;
    }
    this.remove(path);
    const value = load();
    const fresh: Slot<T> = { stamp: { ...stamp }, value, weight };
    this.slots.set(path, fresh);
    this.totalWeight += weight;
    // A failed load is not remembered: the next call tries again.
    value.catch(() => {
      if (this.slots.get(path) === fresh) this.remove(path);
    });
    this.evict();
    return value;
  }

  remove(path: string): void {
    const slot = this.slots.get(path);
    if (!slot) return;
    this.slots.delete(path);
    this.totalWeight -= slot.weight;
  }

  clear(): void {
    this.slots.clear();
    this.totalWeight = 0;
  }

  get size(): number {
    return this.slots.size;
  }

  private evict(): void {
    for (const path of this.slots.keys()) {
      if (this.slots.size <= 1) break; // always keep the newest, however heavy
      if (this.slots.size <= this.maxEntries && this.totalWeight <= this.maxWeight) break;
      this.remove(path);
    }
  }
}
