/**
 * The doctor over the whole store: every listed session examined (a preview: nothing is written),
 * one file at a time in the background, waiting while a session opens; progress is told as it goes
 * and the damaged sessions are kept. A newer request (refresh) starts over once the pass ends.
 */
import type { DoctorStoreDto, DoctorStoreRowDto } from '../shared/doctor-dto';
import type { SessionRowDto } from '../shared/dto';
import { examineSession } from './service';

export interface StorePassDeps {
  list(): Promise<{ sessions: SessionRowDto[] }>;
  /** Told after each session (and at the end). */
  progress?(p: { state: DoctorStoreDto['state']; done: number; total: number }): void;
  /** A promise while a session opens (the pass waits for it), else null. */
  pause?(): Promise<void> | null;
  /** Why a session may not be written next to; null when it may. */
  readOnlyReason?(sessionId: string): string | null;
}

const idle = (): DoctorStoreDto => ({ state: 'idle', done: 0, total: 0, sessions: [], problems: [] });

export class DoctorStorePass {
  private report: DoctorStoreDto = idle();
  private running: Promise<void> | null = null;

  constructor(private readonly deps: StorePassDeps) {}

  /** The pass as far as it got; starts it when none ran yet (or `refresh`). */
  get(refresh = false): DoctorStoreDto {
    if (!this.running && (refresh || this.report.state === 'idle' || this.report.state === 'failed')) {
      this.running = this.run().finally(() => (this.running = null));
    }
    return this.report;
  }

  /** Resolves when the pass that is running (if any) ends. */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private tell(): void {
    const { state, done, total } = this.report;
    this.deps.progress?.({ state, done, total });
  }

  private async run(): Promise<void> {
    this.report = { ...idle(), state: 'running' };
    try {
      const rows = (await this.deps.list()).sessions.filter((r) => r.origin !== 'uploaded');
      const sessions: DoctorStoreRowDto[] = [];
      const problems: DoctorStoreDto['problems'] = [];
      this.report.total = rows.length;
      this.tell();
      for (const row of rows) {
        await this.deps.pause?.();
        try {
          const r = await examineSession(row.path);
          const readOnly = this.deps.readOnlyReason?.(row.sessionId);
          if (r.marks.length > 0)
            sessions.push({
              sessionId: row.sessionId,
              fileName: row.fileName,
              kinds: [...new Set(r.marks.map((m) => m.kind))],
              marks: r.marks.length,
              files: r.repairs.length,
              ...(readOnly ? { readOnly } : {}),
            });
        } catch (err) {
          // The renderer gets file names, never paths.
          problems.push({
            sessionId: row.sessionId,
            message: (err as Error).message.split(row.path).join(row.fileName),
          });
        }
        this.report.done++;
        this.tell();
      }
      this.report = { state: 'done', done: rows.length, total: rows.length, sessions, problems };
    } catch (err) {
      this.report = { ...this.report, state: 'failed', error: (err as Error).message };
    }
    this.tell();
  }
}
