/**
 * The doctor for the app's channels: a listed session's report (doctor.examine) and its repair
 * (doctor.repair), the new files added to the listing. The renderer gets file names, never paths.
 */
import { basename } from 'node:path';
import type { DoctorReportDto, DoctorStoreDto } from '../shared/doctor-dto';
import type { SessionRowDto } from '../shared/dto';
import { CanopyError } from '../shared/errors';
import { examineSession, type DoctorReport } from './service';
import { DoctorStorePass, type StorePassDeps } from './store-pass';

export interface AppDoctorDeps extends StorePassDeps {
  /** Why a session may not be written next to (an uploaded copy, a demo); null when it may. */
  readOnlyReason(sessionId: string): string | null;
  /** Lists a file Canopy wrote; its row, or null. */
  addWritten(path: string): Promise<{ sessionId: string } | null>;
}

function toDto(r: DoctorReport, written: boolean): DoctorReportDto {
  return {
    fileName: basename(r.file),
    sessions: r.sessions,
    writer: r.writer,
    marks: r.marks,
    skipped: r.skipped,
    files: r.repairs.map((f) => ({
      part: f.part,
      headerLine: f.headerLine,
      fileName: basename(f.path),
      lines: f.lines,
    })),
    written,
    ...(r.refused ? { refused: r.refused } : {}),
  };
}

export class AppDoctor {
  /** The pass over every listed session (doctor.store). */
  readonly store: DoctorStorePass;

  constructor(private readonly deps: AppDoctorDeps) {
    this.store = new DoctorStorePass(deps);
  }

  storeReport(refresh: boolean): DoctorStoreDto {
    return this.store.get(refresh);
  }

  private async row(sessionId: string): Promise<SessionRowDto> {
    const listing = await this.deps.list();
    const row = listing.sessions.find((r) => r.sessionId === sessionId);
    if (!row) throw new CanopyError('not_found', `no listed session ${sessionId}`);
    return row;
  }

  async examine(sessionId: string): Promise<DoctorReportDto> {
    const dto = toDto(await examineSession((await this.row(sessionId)).path), false);
    const why = this.deps.readOnlyReason(sessionId);
    return why ? { ...dto, readOnly: why } : dto;
  }

  async repair(sessionId: string): Promise<DoctorReportDto> {
    const row = await this.row(sessionId);
    const why = this.deps.readOnlyReason(sessionId);
    if (why) throw new CanopyError('forbidden', why);
    const r = await examineSession(row.path, { write: true });
    const dto = toDto(r, true);
    for (const [i, f] of r.repairs.entries())
      dto.files[i]!.sessionId = (await this.deps.addWritten(f.path))?.sessionId ?? null;
    return dto;
  }
}
