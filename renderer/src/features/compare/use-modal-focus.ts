import { useEffect, type RefObject } from 'react';

/**
 * A modal's focus: focus that leaves the box (the graph focusing the node it was asked to, a late
 * restore, a focused element removed) comes back to the first element `selector` finds in it.
 */
export function useModalFocus(box: RefObject<HTMLElement | null>, selector: string, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const refocus = () => box.current?.querySelector<HTMLElement>(selector)?.focus();
    const outside = (t: EventTarget | null) => !(t instanceof Node && box.current?.contains(t));
    const onFocusIn = (e: FocusEvent) => {
      if (outside(e.target)) refocus();
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onFocusOut = (e: FocusEvent) => {
      if (e.relatedTarget !== null) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!document.activeElement || document.activeElement === document.body) refocus();
      }, 0);
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
    };
  }, [box, selector, active]);
}
