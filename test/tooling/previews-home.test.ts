import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './import-graph';

// An entry's preview comes with the graph or later in a batch (lazyPreviews): renderer/src/model/previews.ts
// is the one place that joins the two; everything else asks it (previewText, previewMissing).
const root = join(__dirname, '..', '..');
const HOME = 'renderer/src/model/previews.ts';

export function readsLazyPreview(text: string): boolean {
  return /lazyPreviews\s*\[|\blazy\s*\[[^\]]+\]\s*\?\.\s*preview/.test(text);
}

describe('previews have one home in the renderer', () => {
  it('no file but model/previews.ts looks up a batch preview itself', () => {
    const reading = sourceFiles(root, 'renderer/src')
      .filter((f) => f !== HOME)
      .filter((f) => readsLazyPreview(readFileSync(join(root, f), 'utf8')));
    expect(reading).toEqual([]);
  });

  it('recognises a lookup', () => {
    expect(readsLazyPreview("const t = entry.preview || lazyPreviews[id]?.preview || '';")).toBe(true);
    expect(readsLazyPreview('const text = e.preview || lazy[e.id]?.preview;')).toBe(true);
    expect(readsLazyPreview('const t = previewText(entry, lazyPreviews);')).toBe(false);
  });
});
