import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import type { EntryDetailDto } from '../../../electron/shared/dto';
import { fakeApi } from '../fake-api';
import { chain, graphOf } from '../helpers';

const detail = (entryId: string): EntryDetailDto => ({
  sessionId: 's1',
  entryId,
  line: 2,
  raw: { type: 'message', id: entryId },
  label: null,
  children: [],
});

function setup() {
  const f = fakeApi({ 'entry.get': async (a) => ({ ok: true, data: detail(a.entryId) }) });
  const store = createCanopyStore();
  const actions = createActions(f.api, store);
  const s = () => store.getState();
  s().startOpening('s1');
  s().setGraph({ ...graphOf(chain(3)), sessionId: 's1' });
  return { store, actions, s };
}

describe('following a live session', () => {
  it('selects and centres the new leaf while following', () => {
    const { s } = setup();
    expect(s().following).toBe(true);
    s().setGraph({ ...graphOf(chain(5)), sessionId: 's1' });
    expect(s().selectedEntryId).toBe('e4');
    expect(s().focusRequest?.nodeId).toBe('e4');
    expect(s().following).toBe(true);
  });

  it('a manual selection pauses; the leaf then moves without the selection and the last seen leaf is kept', () => {
    const { s, actions } = setup();
    actions.selectEntry('e1');
    expect(s().following).toBe(false);
    s().setGraph({ ...graphOf(chain(4)), sessionId: 's1' });
    s().setGraph({ ...graphOf(chain(6)), sessionId: 's1' });
    expect(s().selectedEntryId).toBe('e1');
    expect(s().lastSeenLeafId).toBe('e2');
    actions.resumeFollow();
    expect(s().following).toBe(true);
    expect(s().lastSeenLeafId).toBeNull();
    expect(s().selectedEntryId).toBe('e5');
  });

  it('selecting the leaf itself does not pause; opening another session follows again', () => {
    const { s, actions } = setup();
    actions.selectEntry('e2');
    expect(s().following).toBe(true);
    actions.pauseFollow();
    expect(s().following).toBe(false);
    s().startOpening('s2');
    expect(s().following).toBe(true);
  });
});
