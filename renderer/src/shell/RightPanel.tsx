import type { ReactNode } from 'react';
import { useCanopy } from '../app-context';
import { formatTokens } from '../lib/format';
import { ContextPanel } from '../features/context/ContextPanel';
import type { RightTab } from '../store';
import { InspectorPane, TranscriptPane } from './panes';

const TABS: readonly RightTab[] = ['entry', 'transcript', 'context'];

/** The right column: the selected entry, the path read as a conversation, or what reaches the model. */
export function RightPanel() {
  const tab = useCanopy((s) => s.rightTab);
  const setTab = useCanopy((s) => s.setRightTab);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const view = useCanopy((s) => s.contextView);
  const whatIf = useCanopy((s) => s.whatIfLeaf !== null);
  return (
    <aside className="right-panel" aria-label="Details">
      <div
        className="tabs"
        role="tablist"
        aria-label="Details"
        onKeyDown={(e) => {
          // WAI-ARIA tabs: arrows move between the tabs (and select them).
          if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight' && e.key !== 'Home' && e.key !== 'End') return;
          e.preventDefault();
          const at = TABS.indexOf(tab);
          const step = e.key === 'ArrowLeft' ? TABS.length - 1 : 1;
          const next =
            e.key === 'Home' ? TABS[0]! : e.key === 'End' ? TABS[TABS.length - 1]! : TABS[(at + step) % TABS.length]!;
          setTab(next);
          e.currentTarget.querySelector<HTMLElement>(`[data-testid="tab-${next}"]`)?.focus();
        }}
      >
        <Tab id="entry" current={tab} onSelect={setTab}>
          Entry
          {selectedId && (
            <code className="tab-note">{selectedId.length > 10 ? `${selectedId.slice(0, 8)}…` : selectedId}</code>
          )}
        </Tab>
        <Tab id="transcript" current={tab} onSelect={setTab}>
          Transcript
        </Tab>
        <Tab id="context" current={tab} onSelect={setTab}>
          What the model sees
          {view && (
            <span
              className={`tab-note${whatIf ? ' what-if' : ''}`}
              title={whatIf ? 'At the what-if leaf' : 'At the current leaf'}
            >
              {formatTokens(view.tokens.total)}
            </span>
          )}
        </Tab>
      </div>
      {/* Both stay mounted (scroll positions survive a switch); the other one is hidden. */}
      <div className="tab-page" hidden={tab !== 'entry'} role="tabpanel" aria-label="Entry">
        <InspectorPane />
      </div>
      <div className="tab-page" hidden={tab !== 'transcript'} role="tabpanel" aria-label="Transcript">
        {tab === 'transcript' && <TranscriptPane />}
      </div>
      <div className="tab-page" hidden={tab !== 'context'} role="tabpanel" aria-label="What the model sees">
        <ContextPanel />
      </div>
    </aside>
  );
}

/** One tab of the strip; only the selected one is in the tab order (arrows move between them). */
function Tab({
  id,
  current,
  onSelect,
  children,
}: {
  id: RightTab;
  current: RightTab;
  onSelect: (tab: RightTab) => void;
  children: ReactNode;
}) {
  const on = id === current;
  return (
    <button
      type="button"
      role="tab"
      aria-selected={on}
      tabIndex={on ? 0 : -1}
      className={on ? 'on' : undefined}
      data-testid={`tab-${id}`}
      onClick={() => onSelect(id)}
    >
      {children}
    </button>
  );
}
