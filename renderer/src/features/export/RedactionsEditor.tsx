/** The user's own redactions (kept by main in Canopy's data folder): literal strings and regexes. */
import { useEffect, useState } from 'react';
import { useServices } from '../../app-context';
import { linesOf } from './export-model';

export function RedactionsEditor({ onSaved }: { onSaved: () => void }) {
  const { api } = useServices();
  const [literals, setLiterals] = useState('');
  const [regexes, setRegexes] = useState('');
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    void api['redactions.get']({}).then((r) => {
      if (!r.ok) return;
      setLiterals(r.data.literals.join('\n'));
      setRegexes(r.data.regexes.join('\n'));
    });
  }, [api]);
  const save = () => {
    void api['redactions.set']({ literals: linesOf(literals), regexes: linesOf(regexes) }).then((r) => {
      setNote(r.ok ? 'Saved' : r.error.message);
      if (r.ok) onSaved();
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
