// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { EntryDetailDto } from '../../../electron/shared/dto';
import { TranscriptPanel } from '../../../renderer/src/features/transcript/TranscriptPanel';
import { fakeElementBox, flush, mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';
import { chain, graphOf } from '../helpers';

fakeElementBox(400, 600);

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

const detail = (entryId: string): EntryDetailDto => ({
  sessionId: 's1',
  entryId,
  line: 2,
  raw: { type: 'message', id: entryId, message: { role: 'user', content: `body of ${entryId}` } },
  label: null,
  children: [],
});

describe('TranscriptPanel', () => {
  it('lists the path and reads bodies only for the rows in view (a 5,000-entry path asks for a screenful)', async () => {
    const f = fakeApi({ 'entry.get': async ({ entryId }) => ({ ok: true, data: detail(entryId) }) });
    m = await mount(
      <TranscriptPanel
        renderBody={(d) => <p className="body">{String((d.raw.message as { content: string }).content)}</p>}
      />,
      f.api,
      (store) => {
        store.getState().startOpening('s1');
        store.getState().setGraph({ ...graphOf(chain(5000)), sessionId: 's1' });
      },
    );
    await flush(100);
    const asked = f.calls.filter((c) => c.channel === 'entry.get').map((c) => (c.args as { entryId: string }).entryId);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThan(40);
    // It opens at the leaf: the bodies asked for are the path's last entries.
    expect(asked.every((id) => Number(id.slice(1)) > 4960)).toBe(true);
    expect(m.container.querySelector('[data-testid="transcript-count"]')!.textContent).toContain('5,000 entries');
    const shown = [...m.container.querySelectorAll('[data-testid="transcript-row"] .body')];
    expect(shown.length).toBeGreaterThan(0);
    for (const b of shown)
      expect(b.textContent).toBe(`body of ${b.closest('[data-entry-id]')!.getAttribute('data-entry-id')}`);
  });
});
