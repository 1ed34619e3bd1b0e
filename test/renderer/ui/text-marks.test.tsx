// @vitest-environment happy-dom
/** The search match marked in the inspector: ranges over text nodes, whitespace folded, only for the hit's entry. */
import { afterEach, describe, expect, it } from 'vitest';
import { Inspector } from '../../../renderer/src/features/inspector/Inspector';
import { findTextRanges } from '../../../renderer/src/ui/text-marks';
import { flush, mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

describe('findTextRanges', () => {
  it('finds every case-insensitive occurrence within a text node, any whitespace run matching any other, regex characters literal', () => {
    const root = document.createElement('div');
    root.innerHTML = '<p>Run <b>npm test</b> then NPM   Test again</p><pre>npm\n test (a+b)</pre>';
    const texts = (needle: string) => findTextRanges(root, needle).map((r) => r.toString());
    expect(texts('npm test')).toEqual(['npm test', 'NPM   Test', 'npm\n test']);
    expect(texts('(a+b)')).toEqual(['(a+b)']);
    // A match split across elements is not one text node: not marked (the index matched the text, the DOM splits it).
    expect(texts('run npm')).toEqual([]);
    expect(texts('   ')).toEqual([]);
  });
});

describe('the inspector marks the search match', () => {
  const raw = {
    type: 'message',
    id: 'u7',
    parentId: null,
    message: { role: 'user', content: 'please fix the flaky watcher test in CI' },
  };

  async function show(mark: { sessionId: string; entryId: string; text: string } | null) {
    m = await mount(<Inspector />, fakeApi({}).api, (store) => {
      store.getState().startOpening('s1');
      store.getState().setMark(mark);
      store.getState().select('u7');
      store.getState().setDetail({ sessionId: 's1', entryId: 'u7', line: 3, raw, label: null, children: [] });
    });
    await flush(5);
    return m.container.querySelector<HTMLElement>('[data-testid="inspector"]')!;
  }

  it('counts the matches of the hit that opened this entry (the body and the raw JSON)', async () => {
    const el = await show({ sessionId: 's1', entryId: 'u7', text: 'Flaky Watcher' });
    expect(Number(el.dataset.marks)).toBeGreaterThanOrEqual(1);
    expect(Number(el.dataset.marks)).toBe(findTextRanges(el, 'flaky watcher').length);
  });

  it('marks nothing for another entry or session', async () => {
    expect((await show({ sessionId: 's1', entryId: 'other', text: 'flaky' })).dataset.marks).toBeUndefined();
    m!.unmount();
    expect((await show({ sessionId: 's2', entryId: 'u7', text: 'flaky' })).dataset.marks).toBeUndefined();
    m!.unmount();
    expect((await show(null)).dataset.marks).toBeUndefined();
  });
});
