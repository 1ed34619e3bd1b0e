/**
 * Marks every occurrence of a text inside a rendered element (the search match in the inspector)
 * without touching React's DOM: ranges over the text nodes, drawn by the CSS Custom Highlight API
 * (`::highlight(canopy-match)`), so markdown, code blocks and lazy parts render as they are.
 */
import { useEffect, useState, type RefObject } from 'react';

export const MARK_HIGHLIGHT = 'canopy-match';

/**
 * Case-insensitive occurrences of `needle` within single text nodes below `root`, in document
 * order; any run of whitespace matches any other (the index and its snippets fold whitespace).
 */
export function findTextRanges(root: Node, needle: string): Range[] {
  const words = needle
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) return [];
  const re = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'giu');
  const doc = root.ownerDocument ?? (root as Document);
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  const out: Range[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (const m of (n.nodeValue ?? '').matchAll(re)) {
      const r = doc.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      out.push(r);
    }
  }
  return out;
}

interface HighlightRegistry {
  set(name: string, h: unknown): void;
  delete(name: string): void;
}
type HighlightCtor = new (...ranges: Range[]) => unknown;

/**
 * Highlights `text` in the element while it is shown and scrolls the first match into view; the
 * number of matches is returned (the DOM shows it too, as data-marks). Re-run when `version` changes.
 */
export function useTextMarks(ref: RefObject<HTMLElement | null>, text: string | null, version: unknown): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el || !text) {
      setCount(0);
      return;
    }
    const registry = (globalThis.CSS as unknown as { highlights?: HighlightRegistry } | undefined)?.highlights;
    const Ctor = (globalThis as unknown as { Highlight?: HighlightCtor }).Highlight;
    let scrolled = false;
    const mark = () => {
      const ranges = findTextRanges(el, text);
      setCount(ranges.length);
      if (registry && Ctor) registry.set(MARK_HIGHLIGHT, new Ctor(...ranges));
      if (!scrolled && ranges[0]) {
        scrolled = true;
        ranges[0].startContainer.parentElement?.scrollIntoView?.({ block: 'center' });
      }
    };
    mark();
    // Parts render later (highlighted code, paged payloads) and replace text nodes: mark again.
    let queued = false;
    const observer = new MutationObserver(() => {
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        mark();
      });
    });
    observer.observe(el, { subtree: true, childList: true, characterData: true });
    return () => {
      observer.disconnect();
      registry?.delete(MARK_HIGHLIGHT);
    };
  }, [ref, text, version]);
  return count;
}
