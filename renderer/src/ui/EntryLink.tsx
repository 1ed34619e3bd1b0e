import { useActions } from '../app-context';

/** An entry id as a link: selects the entry and centres the graph on it. */
export function EntryLink({ id }: { id: string }) {
  const actions = useActions();
  return (
    <button
      type="button"
      className="entry-link"
      title={`Show entry ${id}`}
      onClick={() => actions.selectEntry(id, { focus: true })}
    >
      {id}
    </button>
  );
}
