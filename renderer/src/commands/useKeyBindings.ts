import { useEffect } from 'react';
import type { CommandRegistry } from './registry';

export function isTextTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    target.isContentEditable
  );
}

/** Runs the registry's action for each key press no component handled first. */
export function useKeyBindings(registry: CommandRegistry | null): void {
  useEffect(() => {
    if (!registry) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || e.repeat) return;
      const action = registry.forKey(e, isTextTarget(e.target));
      if (!action) return;
      e.preventDefault();
      e.stopPropagation();
      void action.run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [registry]);
}
