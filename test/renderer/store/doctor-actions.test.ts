import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import type { DoctorReportDto } from '../../../electron/shared/doctor-dto';
import { fakeApi } from '../fake-api';

const report: DoctorReportDto = {
  fileName: 's.jsonl',
  sessions: 1,
  writer: [],
  marks: [],
  skipped: [],
  files: [],
  written: false,
};

describe('the doctor actions', () => {
  it('ask main to examine, then to repair, and hand back data or the error', async () => {
    const fake = fakeApi({
      'doctor.examine': async () => ({ ok: true, data: report }),
      'doctor.repair': async () => ({ ok: false, error: { code: 'forbidden', message: 'an uploaded copy' } }),
    });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    expect(await actions.doctorExamine('s1')).toEqual({ data: report });
    expect(await actions.doctorRepair('s1')).toEqual({ error: { code: 'forbidden', message: 'an uploaded copy' } });
    expect(fake.calls).toEqual([
      { channel: 'doctor.examine', args: { sessionId: 's1' } },
      { channel: 'doctor.repair', args: { sessionId: 's1' } },
    ]);
  });
});
