import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { RightPanel } from './RightPanel';
import { SessionsPanel } from '../features/sessions/SessionsPanel';
import { GraphPane } from './panes';
import { RowSlotsContext, type RowSlots } from '../features/sessions/row-slots';
import { SecretsMarker } from '../features/secrets/SecretsMarker';

// Module-level: a new object would redraw every row.
const ROW_SLOTS: RowSlots = { Marker: SecretsMarker };

export const PANES_KEY = 'canopy.panes';

/** The three columns, resizable (drag or arrow keys on a divider); the widths persist in localStorage. */
export function Workspace() {
  const { defaultLayout, onLayoutChanged } = useDefaultLayout({
    id: PANES_KEY,
    storage: localStorage,
    onlySaveAfterUserInteractions: true,
  });
  return (
    <Group
      className="workspace"
      orientation="horizontal"
      id={PANES_KEY}
      defaultLayout={defaultLayout}
      onLayoutChanged={onLayoutChanged}
    >
      <Panel id="sessions" className="pane" defaultSize="24%" minSize="200px" maxSize="45%">
        <RowSlotsContext.Provider value={ROW_SLOTS}>
          <SessionsPanel />
        </RowSlotsContext.Provider>
      </Panel>
      <Separator className="pane-divider" id="divider-sessions" aria-label="Resize the session list" />
      <Panel id="graph" className="pane" minSize="320px">
        <GraphPane />
      </Panel>
      <Separator className="pane-divider" id="divider-details" aria-label="Resize the details panel" />
      <Panel id="details" className="pane" defaultSize="32%" minSize="300px" maxSize="60%">
        <RightPanel />
      </Panel>
    </Group>
  );
}
