/**
 * An indexed session's envelope columns (EntryColumns) straight from its EntryStore: ids from the
 * id table, parents from the parent column, no entry object per entry. PURE.
 */
import type { EntryStore } from './entry-store';
import type { EntryColumns } from '../types';

export class StoreColumns implements EntryColumns {
  /** 1 for each id's winner, for `winnersAt` entries (null: not made; every id unique needs none). */
  private winners: Uint8Array | null = null;
  private winnersAt = -1;

  constructor(private readonly store: EntryStore) {}

  get count(): number {
    return this.store.count;
  }

  idOf(i: number): string {
    return this.store.idOf(i);
  }

  copyId(i: number, into: Uint8Array, at: number): number {
    // The id table holds every entry's id as the line wrote it (what idOf decodes).
    return this.store.idTable.copyAscii(i, into, at);
  }

  parentIdOf(i: number): string | null {
    return this.store.parentIdOf(i);
  }

  typeOf(i: number): string {
    return this.store.typeOf(i);
  }

  lineOf(i: number): number {
    return this.store.lineOf(i);
  }

  /** The index reads the role of every message whose body has one (a scanned message always has). */
  roleOf(i: number): string | undefined {
    return this.store.roleOf(i);
  }

  /** Recorded for every leaf, label and context_edit whose targetId is a string or null. */
  targetOf(i: number): string | null | undefined {
    return this.store.targetOf(i);
  }

  timeOf(i: number): number {
    const store = this.store;
    // A line with a bad envelope keeps a normalised timestamp; pi sorts by what was written.
    if (store.strictInvalidOf(i) !== undefined) return new Date(store.entryAt(i).raw.timestamp as string).getTime();
    const ms = store.timestampMsOf(i);
    return ms === ms ? ms : new Date(store.timestampOf(i)).getTime();
  }

  find(id: string): number {
    return this.store.idTable.find(id);
  }

  isWinner(i: number): boolean {
    const store = this.store;
    if (store.idTable.size === store.count) return true;
    if (this.winnersAt !== store.count) {
      this.winners = new Uint8Array(store.count);
      store.idTable.markWinners(this.winners);
      this.winnersAt = store.count;
    }
    return this.winners![i] === 1;
  }

  parentOf(i: number): number {
    const store = this.store;
    // A later duplicate id moved a winner: walkState re-resolves the column first.
    if (store.parentsDirty) store.walkState();
    const p = store.parents[i]!;
    return p === -3 ? store.resolveParent(i) : p;
  }
}
