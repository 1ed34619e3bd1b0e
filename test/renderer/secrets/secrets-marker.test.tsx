// @vitest-environment happy-dom
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SessionsPanel } from '../../../renderer/src/features/sessions/SessionsPanel';
import { RowSlotsContext } from '../../../renderer/src/features/sessions/row-slots';
import { SecretsMarker } from '../../../renderer/src/features/secrets/SecretsMarker';
import { flush, mount, type Mounted } from '../dom';
import { fakeApi, listOf, row } from '../fake-api';

// happy-dom does no layout: give elements a viewport-sized box so the virtualizer shows rows.
const saved = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
});
afterAll(() => {
  if (saved) Object.defineProperty(HTMLElement.prototype, 'clientHeight', saved);
});
let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

describe('the secrets marker in the session list', () => {
  it('marks exactly the sessions with findings, with their count, as the radar reports them', async () => {
    let counts: Record<string, number> = {};
    const f = fakeApi({
      'secrets.counts': async () => ({ ok: true, data: counts }),
      'secrets.status': async () => ({
        ok: true,
        data: { scanning: true, done: 0, total: 2, withFindings: 0, error: null },
      }),
    });
    m = await mount(
      <RowSlotsContext.Provider value={{ Marker: SecretsMarker }}>
        <SessionsPanel />
      </RowSlotsContext.Provider>,
      f.api,
      (store) => store.getState().setSessionList(listOf([row('s-1', '/p'), row('s-2', '/p')])),
    );
    const stop = m.actions.followSecrets();
    await flush(50);
    expect(m.container.querySelectorAll('[data-testid="secrets-marker"]')).toHaveLength(0);
    // The scan ends: counts are asked again and the row of s-2 gets its mark.
    counts = { 's-1': 0, 's-2': 3 };
    act(() => f.emit('secrets.progress', { scanning: false, done: 2, total: 2, withFindings: 1, error: null }));
    await flush(50);
    const marks = [...m.container.querySelectorAll<HTMLElement>('[data-testid="secrets-marker"]')];
    expect(
      marks.map((e) => [e.closest('[data-session-id]')!.getAttribute('data-session-id'), e.dataset.count]),
    ).toEqual([['s-2', '3']]);
    stop();
  });
});
