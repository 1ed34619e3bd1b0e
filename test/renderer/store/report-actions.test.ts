import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import type { Result } from '../../../electron/shared/errors';
import type { StoreReportDto } from '../../../renderer/src/lib/shared';
import { fakeApi } from '../fake-api';

const report = (state: StoreReportDto['state'], done: number): StoreReportDto => ({
  state,
  done,
  total: 10,
  usage: [],
  usageProblems: [],
  storage: [],
  unpricedModels: [],
  computedAt: null,
});
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the store report in the store', () => {
  it('is asked when followed, patched by progress, asked again when the pass ends, and left when stopped', async () => {
    const answers = [report('running', 2), report('done', 10)];
    const fake = fakeApi({ 'store.report': async () => ({ ok: true, data: answers.shift()! }) });
    const store = createCanopyStore();
    const stop = createActions(fake.api, store).followStoreReport();
    await tick();
    expect(store.getState().storeReport).toEqual(report('running', 2));
    fake.emit('store.progress', { state: 'running', done: 6, total: 10 });
    expect(store.getState().storeReport).toMatchObject({ state: 'running', done: 6 });
    expect(fake.calls).toHaveLength(1);
    fake.emit('store.progress', { state: 'done', done: 10, total: 10 });
    await tick();
    expect(store.getState().storeReport).toEqual(report('done', 10));
    expect(fake.calls.map((c) => c.args)).toEqual([{}, {}]);
    stop();
    expect(fake.listenerCount()).toBe(0);
  });

  it('keeps the last report with the error of a failed ask; an older answer after a newer one is dropped', async () => {
    const answers: Array<(r: Result<StoreReportDto>) => void> = [];
    const fake = fakeApi({ 'store.report': () => new Promise((resolve) => answers.push(resolve)) });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    const older = actions.loadStoreReport();
    const newer = actions.loadStoreReport(true);
    answers[1]!({ ok: true, data: report('done', 10) });
    await newer;
    answers[0]!({ ok: true, data: report('running', 1) });
    await older;
    expect(store.getState().storeReport).toEqual(report('done', 10));
    expect(fake.calls[1]!.args).toEqual({ refresh: true });
    const failed = actions.loadStoreReport();
    answers[2]!({ ok: false, error: { code: 'io', message: 'cannot read' } });
    await failed;
    expect(store.getState().storeReport).toEqual(report('done', 10));
    expect(store.getState().storeReportError).toBe('cannot read');
  });
});
