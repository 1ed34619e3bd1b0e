import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import { fakeApi } from '../fake-api';

describe('the storage actions', () => {
  it('ask main for the slim and archive answers and hand back data or the error', async () => {
    const fake = fakeApi({
      'store.slimPreview': async () => ({
        ok: true,
        data: { bytesBefore: 10, bytesAfter: 4, imagesRemoved: 1, outputsCut: 0 },
      }),
      'store.archive': async () => ({ ok: false, error: { code: 'not_found', message: 'no such family' } }),
    });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    const slim = await actions.slimPreview({ sessionId: 's1', dropImages: true });
    expect(slim).toEqual({ data: { bytesBefore: 10, bytesAfter: 4, imagesRemoved: 1, outputsCut: 0 } });
    expect(await actions.archive(30, ['f1'])).toEqual({ error: { code: 'not_found', message: 'no such family' } });
    expect(fake.calls).toEqual([
      { channel: 'store.slimPreview', args: { sessionId: 's1', dropImages: true } },
      { channel: 'store.archive', args: { staleDays: 30, familyIds: ['f1'] } },
    ]);
  });

  it('turn a refused token into the app-wide error', async () => {
    const fake = fakeApi({
      'store.archivePreview': async () => ({ ok: false, error: { code: 'forbidden', message: 'bad token' } }),
    });
    const store = createCanopyStore();
    await createActions(fake.api, store).archivePreview(7);
    expect(store.getState().fatalError?.code).toBe('forbidden');
  });
});
