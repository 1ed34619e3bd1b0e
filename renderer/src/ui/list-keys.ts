/**
 * Where a list key moves a cursor: ↑/↓ one row, PageUp/PageDown a page, Home/End the ends.
 * `at` -1 = no cursor yet (↓ and Home start at the top, ↑ and End at the bottom). null = not a move key.
 */
export function listKeyMove(key: string, at: number, count: number, page = 10): number | null {
  if (count === 0) return null;
  const last = count - 1;
  const clamp = (i: number) => Math.min(last, Math.max(0, i));
  switch (key) {
    case 'ArrowDown':
      return at < 0 ? 0 : clamp(at + 1);
    case 'ArrowUp':
      return at < 0 ? last : clamp(at - 1);
    case 'PageDown':
      return clamp((at < 0 ? 0 : at) + page);
    case 'PageUp':
      return clamp((at < 0 ? last : at) - page);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

/**
 * Arrow/Home/End focus moves among the focusable items of a list (`selector` inside `container`),
 * for lists whose items take focus themselves. True when the key was a move.
 */
export function moveFocusAmong(container: HTMLElement, selector: string, key: string): boolean {
  const items = [...container.querySelectorAll<HTMLElement>(selector)];
  const at = items.findIndex((el) => el === document.activeElement || el.contains(document.activeElement));
  const next = listKeyMove(key, at, items.length);
  if (next === null) return false;
  items[next]!.focus();
  return true;
}
