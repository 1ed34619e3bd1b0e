// @vitest-environment happy-dom
/**
 * Cut payloads in the inspector: sized placeholders in place of the image and the long text,
 * "Load image" fetching every slice into an <img>, "Load more" appending pages until the end,
 * payloads outside content in their own list, and the Raw JSON note.
 */
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Inspector } from '../../../renderer/src/features/inspector/Inspector';
import type { EntryDetailDto, PayloadDto, PayloadPageDto } from '../../../electron/shared/dto';
import { mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const IMAGE: PayloadDto = {
  id: '/message/content/1/data',
  kind: 'image',
  mimeType: 'image/png',
  sizeBytes: 4.2 * 1024 * 1024,
  totalBytes: PNG.length,
  keptBytes: 0,
  keptChars: 0,
};
const OUTPUT: PayloadDto = {
  id: '/message/content/0/text',
  kind: 'text',
  sizeBytes: 11 * 1024 * 1024,
  totalBytes: 30,
  keptBytes: 10,
  keptChars: 10,
};

async function show(
  raw: Record<string, unknown>,
  payloads: PayloadDto[],
  pages: (args: { payloadId: string; offset?: number }) => PayloadPageDto,
) {
  const f = fakeApi({ 'entry.payload': async (args) => ({ ok: true, data: pages(args) }) });
  const detail: EntryDetailDto = {
    sessionId: 's1',
    entryId: String(raw.id),
    line: 3,
    raw,
    label: null,
    children: [],
    payloads,
  };
  m = await mount(<Inspector />, f.api, (store) => {
    store.getState().startOpening('s1');
    store.getState().select(String(raw.id));
    store.getState().setDetail(detail);
  });
  return { el: m.container.querySelector<HTMLElement>('[data-testid="inspector"]')!, calls: f.calls };
}

function button(el: HTMLElement, text: string): HTMLButtonElement {
  const b = [...el.querySelectorAll('button')].find((x) => x.textContent === text);
  if (!b) throw new Error(`no button ${text}`);
  return b;
}

async function click(b: HTMLButtonElement) {
  await act(async () => {
    b.click();
    await new Promise((r) => setTimeout(r, 0));
  });
}

describe('cut payloads in the inspector', () => {
  it('shows a cut image as a sized placeholder; Load image fetches its slices into an <img>', async () => {
    const raw = {
      type: 'message',
      id: 'u1',
      parentId: null,
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', data: '', mimeType: 'image/png' },
        ],
      },
    };
    // Two slices: the image comes together from both.
    const { el, calls } = await show(raw, [IMAGE], ({ offset = 0 }) => {
      const next = offset === 0 ? 40 : PNG.length;
      return { payloadId: IMAGE.id, offset, next, totalBytes: PNG.length, text: PNG.slice(offset, next) };
    });
    const placeholder = el.querySelector('[data-testid="payload"][data-kind="image"]')!;
    expect(placeholder.textContent).toContain('image/png · 4.2 MiB');
    expect(el.querySelector('img')).toBeNull();
    await click(button(el, 'Load image'));
    expect(el.querySelector<HTMLImageElement>('[data-testid="content-image"]')!.getAttribute('src')).toBe(
      `data:image/png;base64,${PNG}`,
    );
    expect(calls.filter((c) => c.channel === 'entry.payload').map((c) => c.args)).toEqual([
      { sessionId: 's1', entryId: 'u1', payloadId: IMAGE.id, offset: 0 },
      { sessionId: 's1', entryId: 'u1', payloadId: IMAGE.id, offset: 40 },
    ]);
  });

  it('shows a cut tool output with its size and how much is shown; Load more pages to the end', async () => {
    const full = 'first part|second pa|third par';
    const raw = {
      type: 'message',
      id: 't1',
      parentId: 'a1',
      message: {
        role: 'toolResult',
        toolName: 'bash',
        toolCallId: 'c',
        content: [{ type: 'text', text: 'first part ... [cut by Canopy]' }],
      },
    };
    const { el } = await show(raw, [OUTPUT], ({ offset = 10 }) => ({
      payloadId: OUTPUT.id,
      offset,
      next: offset + 10,
      totalBytes: 30,
      text: full.slice(offset, offset + 10),
    }));
    const text = () => el.querySelector('[data-testid="payload"][data-kind="text"]')!;
    expect(text().textContent).toContain('tool output · 11 MiB · first 10 B');
    expect(text().textContent).not.toContain('cut by Canopy');
    await click(button(el, 'Load more'));
    expect(text().textContent).toContain('first part|second pa');
    await click(button(el, 'Load more'));
    expect(text().textContent).toContain(full);
    expect(text().textContent).toContain('all shown');
    expect([...el.querySelectorAll('button')].some((b) => b.textContent === 'Load more')).toBe(false);
  });

  it('lists payloads outside message content on their own, and notes the cut in Raw JSON', async () => {
    const data: PayloadDto = {
      id: '/data/log',
      kind: 'text',
      sizeBytes: 2 * 1024 * 1024,
      totalBytes: 100,
      keptBytes: 4,
      keptChars: 4,
    };
    const raw = {
      type: 'custom',
      id: 'c1',
      parentId: null,
      customType: 'trace',
      data: { log: 'abcd ... [cut by Canopy]' },
    };
    const { el } = await show(raw, [data], () => ({
      payloadId: data.id,
      offset: 4,
      next: 100,
      totalBytes: 100,
      text: 'efgh',
    }));
    const list = el.querySelector('[data-testid="other-payloads"]')!;
    expect(list.textContent).toContain('/data/log');
    expect(list.textContent).toContain('custom data · 2.0 MiB · first 4 B');
    await click(button(el, 'Load more'));
    expect(list.textContent).toContain('abcdefgh');
    expect(el.querySelector('[data-testid="raw-json"] [data-testid="payload-note"]')!.textContent).toContain(
      '1 string',
    );
  });

  it('shows an error from entry.payload next to the button, and the button stays usable', async () => {
    const f = fakeApi({ 'entry.payload': async () => ({ ok: false, error: { code: 'io', message: 'gone' } }) });
    const raw = {
      type: 'message',
      id: 'u1',
      parentId: null,
      message: { role: 'user', content: [{ type: 'image', data: '', mimeType: 'image/png' }] },
    };
    m = await mount(<Inspector />, f.api, (store) => {
      store.getState().startOpening('s1');
      store.getState().select('u1');
      store.getState().setDetail({
        sessionId: 's1',
        entryId: 'u1',
        line: 1,
        raw,
        label: null,
        children: [],
        payloads: [{ ...IMAGE, id: '/message/content/0/data' }],
      });
    });
    const el = m.container;
    await click(button(el, 'Load image'));
    expect(el.textContent).toContain('gone');
    expect(button(el, 'Load image').disabled).toBe(false);
  });
});
