import type { ReactNode } from 'react';
import { formatTokens } from '../../lib/format';
import type { ContextViewDto, SystemStateDto } from '../../lib/shared';
import { PlainText } from '../../ui/Markdown';
import { EntryLink } from '../../ui/EntryLink';

/** Where a value came from: the entry that set it (click selects it), or pi's default. */
function Source({ entryId, fallback = "pi's default" }: { entryId: string | null; fallback?: string }) {
  return (
    <span className="source">{entryId ? <EntryLink id={entryId} /> : <span className="muted">{fallback}</span>}</span>
  );
}

function Row({ name, value, source, testId }: { name: string; value: ReactNode; source: ReactNode; testId: string }) {
  return (
    <div className="state-row" data-testid={testId}>
      <span className="state-name">{name}</span>
      <span className="state-value">{value}</span>
      {source}
    </div>
  );
}

/** Model, thinking level, active tools (H3) or system prompt + tools (CA), each with its source. */
export function DerivedState({ view }: { view: ContextViewDto }) {
  const { model, thinkingLevel, activeTools, system } = view.state;
  const modelText = model.value ? [model.value.provider, model.value.modelId].filter(Boolean).join(' / ') || '?' : null;
  return (
    <section className="ctx-section" data-testid="derived-state">
      <h3>State on this path</h3>
      <div className="state-rows">
        <Row
          name="model"
          testId="state-model"
          value={modelText ?? <span className="muted">none recorded</span>}
          source={<Source entryId={model.entryId} fallback="not set in the file" />}
        />
        <Row
          name="thinking"
          testId="state-thinking"
          value={thinkingLevel.value ?? <span className="muted">?</span>}
          source={<Source entryId={thinkingLevel.entryId} />}
        />
        {view.profile === 'h3' && (
          <Row
            name="active tools"
            testId="state-tools"
            value={
              activeTools.value === null ? (
                <span className="muted">all registered tools</span>
              ) : activeTools.value.length === 0 ? (
                <span className="muted">none</span>
              ) : (
                activeTools.value.join(', ')
              )
            }
            source={<Source entryId={activeTools.entryId} fallback="never changed" />}
          />
        )}
      </div>
      {view.profile === 'ca' && <SystemState system={system} />}
    </section>
  );
}

function SystemState({ system }: { system: SystemStateDto | null }) {
  if (!system || (system.entryIds.length === 0 && system.tools.length === 0 && !system.prompt)) {
    return (
      <div className="muted small state-note" data-testid="state-system">
        No system message on this path: pi sends the system prompt and tools of the running agent (not recorded in the
        file).
      </div>
    );
  }
  return (
    <div className="system-state" data-testid="state-system">
      <details className="system-prompt">
        <summary>
          system prompt <span className="muted">· ≈ {formatTokens(system.tokens)}</span>
          <span className="muted small"> · from </span>
          {system.entryIds.slice(0, 3).map((id) => (
            <EntryLink key={id} id={id} />
          ))}
          {system.entryIds.length > 3 && <span className="muted small"> +{system.entryIds.length - 3}</span>}
        </summary>
        {system.promptParts.length === 0 && <div className="muted small">(empty)</div>}
        {system.promptParts.map((part, i) => (
          <div key={i} className="prompt-part">
            <div className="muted small">
              part {i + 1} · from <EntryLink id={part.entryId} />
            </div>
            <PlainText text={part.text} />
          </div>
        ))}
        {system.sections.length > 0 && (
          <ul className="prompt-sections">
            {system.sections.map((s, i) => (
              <li key={`${s.name}-${i}`}>
                <code>{s.name}</code>{' '}
                <span className="muted small">({formatTokens(Math.ceil(s.text.length / 4))})</span>{' '}
                <EntryLink id={s.entryId} />
              </li>
            ))}
          </ul>
        )}
      </details>
      <div className="tool-set">
        <span className="state-name">tools</span>
        <span className="tool-chips">
          {system.tools.length === 0 && <span className="muted small">none declared</span>}
          {system.tools.map((t) => (
            <span key={t.name} className="chip tool-chip" title={`declared by ${t.entryId}`}>
              {t.name}
            </span>
          ))}
          {system.removedTools.map((t) => (
            <span key={`x-${t.name}`} className="chip removed-tool" title={`removed by ${t.entryId}`}>
              {t.name}
            </span>
          ))}
        </span>
      </div>
    </div>
  );
}
