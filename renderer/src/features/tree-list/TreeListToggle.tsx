import { useCanopy } from '../../app-context';

/** Graph or tree list in the middle column (the list reads better when the canvas is too dense). */
export function TreeListToggle() {
  const view = useCanopy((s) => s.middleView);
  const setView = useCanopy((s) => s.setMiddleView);
  return (
    <button
      type="button"
      className="link-button"
      data-testid="tree-list-toggle"
      aria-pressed={view === 'tree'}
      title={view === 'tree' ? 'Show the graph' : "Show the tree as a list, like pi's /tree"}
      onClick={() => setView(view === 'tree' ? 'graph' : 'tree')}
    >
      {view === 'tree' ? 'graph' : 'tree list'}
    </button>
  );
}
