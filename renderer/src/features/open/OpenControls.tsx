import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { useContributedActions } from '../../commands/commands-context';
import { CONTRIBUTED } from '../../commands/registry';

/** Files a drop carries (only files: dropped text or links are ignored). */
function droppedFiles(e: DragEvent): File[] {
  return e.dataTransfer ? [...e.dataTransfer.files] : [];
}

/**
 * Open: a button (Electron: main's native dialog; serve: a file input whose bytes are uploaded) and
 * a drop anywhere on the window. The renderer never sends a path.
 */
export function OpenControls() {
  const actions = useActions();
  const transport = useCanopy((s) => s.appInfo?.transport);
  const input = useRef<HTMLInputElement>(null);
  const openPicker = useCallback(
    () => (transport === 'electron' ? void actions.openDialog() : input.current?.click()),
    [transport, actions],
  );
  // Ctrl/Cmd+O and the palette's "Open…" go through the action registry.
  const contributed = useMemo(() => [{ ...CONTRIBUTED.openFile, run: openPicker }], [openPicker]);
  useContributedActions(contributed);

  useEffect(() => {
    const over = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      const files = droppedFiles(e);
      if (files.length === 0) return;
      e.preventDefault();
      void actions.openFiles(files);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [actions]);

  return (
    <span className="open-controls">
      <button
        type="button"
        className="compact"
        data-testid="open-button"
        title="Open a session file (or drop one on the window)"
        onClick={openPicker}
      >
        Open…
      </button>
      <input
        ref={input}
        type="file"
        accept=".jsonl"
        multiple
        hidden
        data-testid="open-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 0) void actions.openFiles(files);
        }}
      />
    </span>
  );
}
