// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Inspector, type EntryCards } from '../../../renderer/src/features/inspector/Inspector';
import type { EntryDetailDto } from '../../../electron/shared/dto';
import { mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

async function show(raw: Record<string, unknown>, extra: Partial<EntryDetailDto> = {}, cards?: EntryCards) {
  const f = fakeApi({});
  m = await mount(<Inspector cards={cards} />, f.api, (store) => {
    store.getState().startOpening('s1');
    store.getState().select(String(raw.id));
    store
      .getState()
      .setDetail({ sessionId: 's1', entryId: String(raw.id), line: 42, raw, label: null, children: [], ...extra });
  });
  return m.container.querySelector<HTMLElement>('[data-testid="inspector"]')!;
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('Inspector', () => {
  it('draws the cards the shell passes for the shown entry, above its body', async () => {
    const el = await show(
      { type: 'message', id: 'u7', parentId: null, message: { role: 'user', content: 'hi' } },
      {},
      (detail, kind) => <div data-testid="card">{`${detail.entryId} ${kind}`}</div>,
    );
    const card = el.querySelector('[data-testid="card"]')!;
    expect(card.textContent).toBe('u7 user');
    expect(
      card.compareDocumentPosition(el.querySelector('[data-testid="raw-json"]')!) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('shows an assistant message: text as safe markdown, thinking collapsed, tool calls, usage, model', async () => {
    const el = await show(
      {
        type: 'message',
        id: 'a1',
        parentId: 'u1',
        timestamp: '2026-01-01T10:00:00.000Z',
        message: {
          role: 'assistant',
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          stopReason: 'toolUse',
          usage: { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0, totalTokens: 1500, cost: { total: 0.0123 } },
          content: [
            { type: 'thinking', thinking: 'secret plan' },
            { type: 'text', text: 'Run **this**: `npm test`\n\n<img src=x onerror="window.__pwned=1">' },
            { type: 'toolCall', id: 'call_1', name: 'bash', arguments: { command: 'ls -la' } },
          ],
        },
      },
      { label: 'checkpoint', children: ['t1', 't2'] },
    );
    expect(el.dataset.entryId).toBe('a1');
    expect(el.querySelector('[data-testid="inspector-line"]')!.textContent).toBe('line 42');
    expect(el.textContent).toContain('anthropic / claude-sonnet-4-5');
    expect(el.textContent).toContain('toolUse');
    expect(el.querySelector('[data-testid="usage"]')!.textContent).toContain('1,500');
    expect(el.querySelector('[data-testid="usage"]')!.textContent).toContain('$0.012');
    const thinking = el.querySelector<HTMLDetailsElement>('[data-testid="thinking"]')!;
    expect(thinking.open).toBe(false);
    expect(el.querySelector('strong')!.textContent).toBe('this');
    // Untrusted text stays text: no element is created from it.
    expect(el.querySelector('img')).toBeNull();
    expect(el.textContent).toContain('<img src=x onerror="window.__pwned=1">');
    expect(el.querySelector('[data-testid="tool-call"]')!.textContent).toContain('ls -la');
    expect(el.textContent).toContain('# checkpoint');
    expect([...el.querySelectorAll('.entry-link')].map((b) => b.textContent)).toEqual(['u1', 't1', 't2']);
  });

  it('shows a tool result with its edit diff coloured by line', async () => {
    const el = await show({
      type: 'message',
      id: 't1',
      parentId: 'a1',
      timestamp: '2026-01-01T10:00:00.000Z',
      message: {
        role: 'toolResult',
        toolCallId: 'call_9',
        toolName: 'edit',
        isError: false,
        content: [{ type: 'text', text: 'Successfully replaced 1 block(s) in a.ts.' }],
        details: { diff: '  1 keep\n- 2 old line\n+ 2 new line\n    ...', firstChangedLine: 2 },
      },
    });
    const lines = [...el.querySelectorAll('[data-testid="diff"] .diff-line')];
    expect(lines.map((l) => l.className.replace('diff-line ', ''))).toEqual(['ctx', 'del', 'add', 'skip']);
    expect(el.querySelector('[data-testid="tool-output"]')!.textContent).toContain('Successfully replaced');
  });

  it('draws images only for allowed raster types', async () => {
    const el = await show({
      type: 'message',
      id: 'u9',
      parentId: null,
      timestamp: '2026-01-01T10:00:00.000Z',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', mimeType: 'image/png', data: PNG },
          { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' },
        ],
      },
    });
    const imgs = [...el.querySelectorAll('img')];
    expect(imgs).toHaveLength(1);
    expect(imgs[0]!.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);
    expect(el.textContent).toContain('image not shown (image/svg+xml)');
  });

  it('shows compaction checkpoints: retained tail vs first kept entry', async () => {
    let el = await show({
      type: 'compaction',
      id: 'c1',
      parentId: 'x',
      timestamp: 't',
      summary: '## Goal\nShip it',
      tokensBefore: 50000,
      retainedTail: [{ role: 'user', content: 'kept' }],
    });
    expect(el.textContent).toContain('self-contained (retainedTail)');
    expect(el.querySelector('[data-testid="retained-tail"]')!.textContent).toContain('1 message');
    expect(el.textContent).toContain('50,000');
    m?.unmount();
    el = await show({
      type: 'compaction',
      id: 'c2',
      parentId: 'x',
      timestamp: 't',
      summary: 's',
      firstKeptEntryId: 'k1',
      tokensBefore: 1,
    });
    expect(el.textContent).toContain('keeps from');
    expect([...el.querySelectorAll('.entry-link')].map((b) => b.textContent)).toContain('k1');
    expect(el.querySelector('[data-testid="retained-tail"]')).toBeNull();
  });

  it('clicking an entry link selects that entry', async () => {
    const f = fakeApi({
      'entry.get': async ({ sessionId, entryId }) => ({
        ok: true,
        data: { sessionId, entryId, line: 9, raw: { type: 'label', id: entryId }, label: null, children: [] },
      }),
    });
    m = await mount(<Inspector />, f.api, (store) => {
      store.getState().startOpening('s1');
      store.getState().select('lb');
      store.getState().setDetail({
        sessionId: 's1',
        entryId: 'lb',
        line: 3,
        raw: { type: 'label', id: 'lb', parentId: 'p', targetId: 'tgt', label: 'important' },
        label: null,
        children: [],
      });
    });
    const link = [...m.container.querySelectorAll<HTMLButtonElement>('.entry-link')].find(
      (b) => b.textContent === 'tgt',
    )!;
    await act(async () => link.click());
    expect(m.store.getState().selectedEntryId).toBe('tgt');
    expect(f.calls.filter((c) => c.channel === 'entry.get').at(-1)).toEqual({
      channel: 'entry.get',
      args: { sessionId: 's1', entryId: 'tgt' },
    });
  });

  it('has a raw JSON view', async () => {
    const el = await show({ type: 'weird_type', id: 'w1', parentId: null, timestamp: 't', payload: { deep: [1, 2] } });
    expect(el.querySelector('[data-testid="raw-json"]')!.textContent).toContain('"deep": [');
  });
});
