import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from '../../renderer/src/features/inspector/markdown';
import { contentBlocks, imageDataUrl } from '../../renderer/src/features/inspector/raw';

describe('parseMarkdown', () => {
  it('splits code fences, headings, lists, quotes and paragraphs', () => {
    const md = ['# Title', '', 'Some *text* here', 'and more.', '', '```ts', 'const a = 1;', '', '# not a heading', '```', '- one', '- two', '  continued', '1. first', '> quoted', 'tail'].join('\n');
    expect(parseMarkdown(md)).toEqual([
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'para', text: 'Some *text* here\nand more.' },
      { kind: 'code', lang: 'ts', text: 'const a = 1;\n\n# not a heading' },
      { kind: 'list', ordered: false, items: ['one', 'two\ncontinued'] },
      { kind: 'list', ordered: true, items: ['first'] },
      { kind: 'quote', text: 'quoted' },
      { kind: 'para', text: 'tail' },
    ]);
  });

  it('keeps an unterminated fence as code to the end', () => {
    expect(parseMarkdown('```\nabc\ndef')).toEqual([{ kind: 'code', lang: '', text: 'abc\ndef' }]);
  });

  it('treats HTML as plain text', () => {
    expect(parseMarkdown('<img src=x onerror=alert(1)>')).toEqual([{ kind: 'para', text: '<img src=x onerror=alert(1)>' }]);
  });
});

describe('parseInline', () => {
  it('finds inline code, bold and italics', () => {
    expect(parseInline('run `npm test` **now**, _please_ or *not*')).toEqual([
      { kind: 'text', text: 'run ' },
      { kind: 'code', text: 'npm test' },
      { kind: 'text', text: ' ' },
      { kind: 'bold', text: 'now' },
      { kind: 'text', text: ', ' },
      { kind: 'italic', text: 'please' },
      { kind: 'text', text: ' or ' },
      { kind: 'italic', text: 'not' },
    ]);
  });

  it('leaves snake_case words and lone stars alone', () => {
    expect(parseInline('a snake_case_name * b')).toEqual([{ kind: 'text', text: 'a snake_case_name * b' }]);
  });
});

describe('imageDataUrl', () => {
  it('accepts raster image types with base64 data only', () => {
    expect(imageDataUrl({ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' })).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(imageDataUrl({ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' })).toBeNull();
    expect(imageDataUrl({ type: 'image', mimeType: 'text/html', data: 'PGI+' })).toBeNull();
    expect(imageDataUrl({ type: 'image', mimeType: 'image/png', data: 'abc");background:url(x' })).toBeNull();
    expect(imageDataUrl({ type: 'image', mimeType: 'image/png' })).toBeNull();
  });
});

describe('contentBlocks', () => {
  it('turns string content into one text block and drops non-objects', () => {
    expect(contentBlocks('hi')).toEqual([{ type: 'text', text: 'hi' }]);
    expect(contentBlocks([null, 1, { type: 'text', text: 'x' }])).toEqual([{ type: 'text', text: 'x' }]);
    expect(contentBlocks(null)).toEqual([]);
  });
});
