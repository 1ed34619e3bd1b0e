/** The export's choices: format, which entries, redaction. */
import type { RefObject } from 'react';
import type { ExportFormatDto } from '../../lib/shared';
import { FORMAT_LABELS, type ExportScope } from './export-model';

export interface ExportChoices {
  format: ExportFormatDto;
  scope: ExportScope;
  redact: boolean;
}

export function ExportForm({
  choices,
  onChange,
  selected,
  whatIf,
  first,
}: {
  choices: ExportChoices;
  onChange: (patch: Partial<ExportChoices>) => void;
  selected: string | null;
  whatIf: string | null;
  first: RefObject<HTMLSelectElement | null>;
}) {
  return (
    <div className="export-form">
      <label>
        Format{' '}
        <select
          ref={first}
          value={choices.format}
          onChange={(e) => onChange({ format: e.target.value as ExportFormatDto })}
        >
          {(Object.keys(FORMAT_LABELS) as ExportFormatDto[]).map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Entries{' '}
        <select
          value={choices.scope}
          onChange={(e) => onChange({ scope: e.target.value as ExportScope })}
          data-testid="export-scope"
        >
          <option value="branch">the current branch</option>
          {selected && <option value="selected">the path to the selected entry</option>}
          {whatIf && <option value="whatif">the path to the what-if leaf</option>}
          <option value="all">the whole session</option>
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          checked={choices.redact}
          onChange={(e) => onChange({ redact: e.target.checked })}
          data-testid="export-redact"
        />{' '}
        Redact secrets
      </label>
    </div>
  );
}
