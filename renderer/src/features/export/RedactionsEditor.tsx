/** The user's own redactions (kept by main in Canopy's data folder): literal strings and regexes. */
import { useEffect, useState } from 'react';
import { useActions } from '../../app-context';
import { linesOf } from './export-model';

export function RedactionsEditor({ onSaved }: { onSaved: () => void }) {
  const actions = useActions();
  const [literals, setLiterals] = useState('');
  const [regexes, setRegexes] = useState('');
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    void actions.redactions().then((r) => {
      if ('error' in r) return;
      setLiterals(r.data.literals.join('\n'));
      setRegexes(r.data.regexes.join('\n'));
    });
  }, [actions]);
  const save = () => {
    void actions.saveRedactions({ literals: linesOf(literals), regexes: linesOf(regexes) }).then((r) => {
      setNote('data' in r ? 'Saved' : r.error.message);
      if ('data' in r) onSaved();
    });
  };
  return (
    <details className="export-redactions">
      <summary>Also redact my own words and patterns</summary>
      <div className="export-redactions-body">
        <label>
          Literal strings (one per line)
          <textarea value={literals} onChange={(e) => setLiterals(e.target.value)} rows={3} spellCheck={false} />
        </label>
        <label>
          Regular expressions (one per line, <code>/…/flags</code> allowed)
          <textarea value={regexes} onChange={(e) => setRegexes(e.target.value)} rows={3} spellCheck={false} />
        </label>
        <div>
          <button type="button" className="compact" onClick={save}>
            Save
          </button>{' '}
          {note && <span className="muted">{note}</span>}
        </div>
      </div>
    </details>
  );
}
