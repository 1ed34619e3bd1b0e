import { describe, expect, it } from 'vitest';
import { entryView } from '../../../electron/export/rules/entry-view';
import { EXPORT_CSP, renderHtml } from '../../../electron/export/rules/html';
import { renderMarkdown } from '../../../electron/export/rules/markdown';
import { type ExportMeta } from '../../../electron/export/rules/export-meta';

const meta: ExportMeta = {
  title: 'a <b>title</b>',
  sessionId: 's1',
  sourceName: 'x.jsonl',
  leafId: 'r1',
  scope: 'branch',
  generatedAt: '2026-03-01T00:00:00.000Z',
  redacted: true,
  replacements: 2,
};

const call = {
  type: 'message',
  id: 'a1',
  timestamp: 't',
  message: {
    role: 'assistant',
    model: 'm',
    content: [
      { type: 'thinking', thinking: 'let me think' },
      { type: 'toolCall', id: 'c1', name: 'edit', arguments: { path: 'a.ts', oldText: 'old ```x', newText: 'new' } },
    ],
  },
};
const result = {
  type: 'message',
  id: 'r1',
  timestamp: 't',
  message: {
    role: 'toolResult',
    toolName: 'edit',
    content: [
      { type: 'text', text: 'Edited a.ts' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
    ],
    details: { diff: '-1 old\n+1 new' },
  },
};

describe('export rendering', () => {
  it('entryView: an edit call carries its diff; a result its details.diff and its images', () => {
    expect(entryView(call).blocks.map((b) => b.kind)).toEqual(['thinking', 'tool-call']);
    expect(entryView(call).blocks[1]).toMatchObject({ name: 'edit', diff: '-old ```x\n+new' });
    expect(entryView(result).blocks.map((b) => b.kind)).toEqual(['tool-result', 'image']);
    expect(entryView(result).blocks[0]).toMatchObject({ text: 'Edited a.ts', diff: '-1 old\n+1 new' });
  });

  it('Markdown: tool calls and thinking in <details>, diffs in diff fences longer than any backtick run, images as placeholders', () => {
    const md = [...renderMarkdown(meta, [call, result])].join('');
    expect(md).toContain('<details><summary>tool call · edit</summary>');
    expect(md).toContain('<details><summary>thinking · let me think</summary>');
    expect(md).toContain('````diff\n-old ```x\n+new\n````');
    expect(md).toContain('```diff\n-1 old\n+1 new\n```');
    expect(md).toContain('*[image: image/png, 0.0 KiB — not included]*');
    expect(md).not.toContain('iVBORw0KGgo');
    expect(md.startsWith('# a &lt;b&gt;title&lt;/b&gt;')).toBe(true);
  });

  it('HTML: a strict CSP, no script, escaped text, raster images as data: URLs only', () => {
    const html = [...renderHtml(meta, [call, result])].join('');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`);
    expect(EXPORT_CSP).toMatch(/default-src 'none'/);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<title>a &lt;b&gt;title&lt;/b&gt;</title>');
    expect(html).toContain('<img alt="image" src="data:image/png;base64,iVBORw0KGgo=">');
    expect(html).toContain('<span class="d">-1 old</span><span class="a">+1 new</span>');
    const svg = {
      ...result,
      message: { ...result.message, content: [{ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }] },
    };
    expect([...renderHtml(meta, [svg])].join('')).toContain('[image image/svg+xml not embedded]');
  });
});
