// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { EntryBody } from '../../../renderer/src/features/inspector/EntryBody';
import { mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

describe('edit call', () => {
  it('shows an edit call as a diff of old → new text', async () => {
    const raw = {
      type: 'message',
      message: {
        role: 'assistant',
        content: [
          {
            type: 'toolCall',
            id: 't1',
            name: 'edit',
            arguments: { path: 'a.ts', edits: [{ oldText: 'let a = 1;\nkeep', newText: 'let a = 2;\nkeep' }] },
          },
        ],
      },
    };
    m = await mount(<EntryBody raw={raw} />, fakeApi({}).api);
    const diff = m.container.querySelector('[data-testid="edit-call-diff"] [data-testid="diff"]')!;
    const lines = [...diff.querySelectorAll('.diff-line')].map((l) => [
      l.className.replace('diff-line ', ''),
      l.textContent,
    ]);
    expect(lines).toEqual([
      ['del', '-let a = 1;'],
      ['add', '+let a = 2;'],
      ['ctx', ' keep'],
    ]);
  });
});
