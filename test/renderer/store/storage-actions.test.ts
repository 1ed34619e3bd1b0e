import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import type { Result } from '../../../electron/shared/errors';
import type { SlimPreviewDto } from '../../../renderer/src/lib/shared';
import { fakeApi } from '../fake-api';

const preview = (bytesAfter: number): SlimPreviewDto => ({
  bytesBefore: 10,
  bytesAfter,
  imagesRemoved: 1,
  outputsCut: 0,
});
const REPORT = {
  state: 'done',
  done: 1,
  total: 1,
  usage: [],
  usageProblems: [],
  storage: [],
  unpricedModels: [],
  computedAt: null,
};

describe('the storage actions', () => {
  it('keep the slim preview in the store; an answer for options changed since is dropped', async () => {
    const answers: Array<(r: Result<SlimPreviewDto>) => void> = [];
    const fake = fakeApi({ 'store.slimPreview': () => new Promise((resolve) => answers.push(resolve)) });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    const older = actions.previewSlim({ sessionId: 's1', dropImages: true });
    const newer = actions.previewSlim({ sessionId: 's1', dropImages: true, maxOutputBytes: 64 });
    answers[1]!({ ok: true, data: preview(4) });
    await newer;
    answers[0]!({ ok: true, data: preview(9) });
    await older;
    expect(store.getState().slim.preview).toEqual(preview(4));
    // Nothing chosen to remove: nothing is asked, nothing shown.
    await actions.previewSlim(null);
    expect(store.getState().slim.preview).toBeNull();
    expect(fake.calls).toHaveLength(2);
  });

  it('write the slim copy, keep its answer and read the report again; an error is kept to show', async () => {
    let fail = false;
    const fake = fakeApi({
      'store.slim': async () =>
        fail
          ? { ok: false, error: { code: 'io', message: 'disk full' } }
          : {
              ok: true,
              data: { sessionId: 's2', fileName: 'slim.jsonl', path: '/p/slim.jsonl', bytesAfter: 4 } as never,
            },
      'store.report': async () => ({ ok: true, data: REPORT as never }),
    });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    await actions.writeSlim({ sessionId: 's1', dropImages: true });
    expect(store.getState().slim).toMatchObject({ busy: false, result: { fileName: 'slim.jsonl' }, error: null });
    expect(fake.calls.map((c) => c.channel)).toEqual(['store.slim', 'store.report']);
    expect(fake.calls[1]!.args).toEqual({ refresh: true });
    expect(store.getState().storeReport).toEqual(REPORT);
    fail = true;
    await actions.writeSlim({ sessionId: 's1', dropImages: true });
    expect(store.getState().slim).toMatchObject({ busy: false, error: 'disk full' });
  });

  it('preview and move stale families through the store; clearing drops them', async () => {
    const families = [{ familyId: 'f1', sessionIds: ['f1'], bytes: 5, lastWrite: '2026-01-01T00:00:00Z' }];
    const fake = fakeApi({
      'store.archivePreview': async () => ({ ok: true, data: { archiveDir: '/a', families } as never }),
      'store.archive': async () => ({ ok: true, data: { archived: 1, bytes: 5, kept: 0 } as never }),
      'store.report': async () => ({ ok: true, data: REPORT as never }),
    });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    await actions.previewArchive(30);
    expect(store.getState().archive.preview).toEqual({ archiveDir: '/a', families });
    await actions.archiveFamilies(30, ['f1']);
    expect(store.getState().archive).toMatchObject({ preview: null, result: { archived: 1 }, busy: false });
    expect(fake.calls.map((c) => c.channel)).toEqual(['store.archivePreview', 'store.archive', 'store.report']);
    expect(fake.calls[1]!.args).toEqual({ staleDays: 30, familyIds: ['f1'] });
    actions.clearArchive();
    expect(store.getState().archive).toMatchObject({ preview: null, result: null, error: null });
  });

  it('turn a refused token into the app-wide error', async () => {
    const fake = fakeApi({
      'store.archivePreview': async () => ({ ok: false, error: { code: 'forbidden', message: 'bad token' } }),
    });
    const store = createCanopyStore();
    await createActions(fake.api, store).previewArchive(7);
    expect(store.getState().fatalError?.code).toBe('forbidden');
    expect(store.getState().archive.error).toBe('bad token');
  });
});
