/**
 * The envelope columns the tree reads (EntryColumns): an indexed session's own (the index
 * engine's), else a view over the parsed entry array (small or migrated sessions). PURE.
 */
import { indexById } from './entries';
import { entryRole, entryTargetId, entryTimestamp, timeOf } from './entry-fields';
import type { Entry, EntryColumns, ParsedSession } from '../types';

/** CA's entries as columns (the tree is CA's getTree, whatever the profile). */
export function entryColumns(s: ParsedSession): EntryColumns {
  return s.entriesOf('ca').columns ?? new ListColumns(s.entries, indexById(s));
}

/** Columns over an array of entry objects and its id index. */
class ListColumns implements EntryColumns {
  /** id → position of its winner, made on first use (the id index maps to entries, not positions). */
  private positions: Map<string, number> | null = null;

  constructor(
    private readonly entries: readonly Entry[],
    private readonly byId: ReadonlyMap<string, Entry>,
  ) {}

  get count(): number {
    return this.entries.length;
  }

  idOf(i: number): string {
    return this.entries[i]!.id;
  }

  parentIdOf(i: number): string | null {
    return this.entries[i]!.parentId;
  }

  typeOf(i: number): string {
    return this.entries[i]!.type;
  }

  lineOf(i: number): number {
    return this.entries[i]!.line;
  }

  roleOf(i: number): string | undefined {
    return entryRole(this.entries[i]!);
  }

  targetOf(i: number): string | null | undefined {
    return entryTargetId(this.entries[i]!);
  }

  timeOf(i: number): number {
    return timeOf(entryTimestamp(this.entries[i]!));
  }

  isWinner(i: number): boolean {
    const e = this.entries[i]!;
    return this.byId.get(e.id) === e;
  }

  find(id: string): number {
    if (!this.positions) {
      this.positions = new Map();
      this.entries.forEach((e, k) => this.positions!.set(e.id, k));
    }
    return this.positions.get(id) ?? -1;
  }

  parentOf(i: number): number {
    const p = this.entries[i]!.parentId;
    return p === null || p === '' ? -2 : this.find(p);
  }
}
