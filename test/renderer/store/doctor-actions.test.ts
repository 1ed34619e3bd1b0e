import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import type { DoctorReportDto, DoctorStoreDto } from '../../../electron/shared/doctor-dto';
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
  it('keep a session’s report, then its repair or the error, in the store', async () => {
    const fake = fakeApi({
      'doctor.examine': async () => ({ ok: true, data: report }),
      'doctor.repair': async () => ({ ok: false, error: { code: 'io', message: 'disk full' } }),
    });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    await actions.examineSession('s1');
    expect(store.getState().doctorReports.s1).toEqual({ report, error: null, busy: false });
    await actions.repairSession('s1');
    expect(store.getState().doctorReports.s1).toEqual({ report, error: 'disk full', busy: false });
    expect(fake.calls).toEqual([
      { channel: 'doctor.examine', args: { sessionId: 's1' } },
      { channel: 'doctor.repair', args: { sessionId: 's1' } },
    ]);
  });

  it('follow the store pass: progress on the report shown, asked again when it ends', async () => {
    let answer: DoctorStoreDto = { state: 'running', done: 0, total: 2, sessions: [], problems: [] };
    const fake = fakeApi({ 'doctor.store': async () => ({ ok: true, data: answer }) });
    const store = createCanopyStore();
    const stop = createActions(fake.api, store).followDoctorStore();
    await new Promise((r) => setTimeout(r, 0));
    fake.emit('doctor.progress', { state: 'running', done: 1, total: 2 });
    expect(store.getState().doctorStore).toMatchObject({ state: 'running', done: 1, total: 2 });
    answer = { state: 'done', done: 2, total: 2, sessions: [], problems: [] };
    fake.emit('doctor.progress', { state: 'done', done: 2, total: 2 });
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().doctorStore).toEqual(answer);
    stop();
    expect(fake.listenerCount()).toBe(0);
  });
});
