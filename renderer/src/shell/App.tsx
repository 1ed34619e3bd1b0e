import { useEffect, useState } from 'react';
import { useCanopy } from '../app-context';
import { CommandLayer } from '../features/palette/CommandLayer';
import { coreActions } from '../features/palette/app-actions';
import { CommandsProvider } from '../commands/commands-context';
import { TopBarControls } from '../features/palette/TopBarControls';
import { Workspace } from './Workspace';
import { OpenControls } from '../features/open/OpenControls';
import { SearchPanel } from '../features/search/SearchPanel';
import { SecretsRadar } from '../features/secrets/SecretsRadar';
import { ExportDialog } from '../features/export/ExportDialog';
import { DoctorDialog } from '../features/doctor/DoctorDialog';
import { DoctorStorePanel } from '../features/doctor/DoctorStorePanel';
import { ComparePanel } from '../features/compare/ComparePanel';
import { CanopyMark } from '../lib/icons';
import { UsagePanel } from '../features/usage/UsagePanel';
import { StoragePanel } from '../features/storage/StoragePanel';
import { StoreButtons } from './StoreButtons';
import { KeepLayer } from '../features/keep/KeepLayer';

export function App() {
  const fatal = useCanopy((s) => s.fatalError);
  return (
    <CommandsProvider seed={coreActions}>
      <div className="app">
        <TopBar />
        {fatal ? (
          <div className="fatal" role="alert" data-testid="fatal-error" data-code={fatal.code}>
            <div className="fatal-title">{fatal.code === 'forbidden' ? 'Access refused' : 'Canopy cannot start'}</div>
            <div>{fatal.message}</div>
            {fatal.code === 'forbidden' && (
              <div className="muted">
                Open the exact address that <code>canopy serve</code> printed: it carries a one-time token (
                <code>?token=…</code>).
              </div>
            )}
          </div>
        ) : (
          <Workspace />
        )}
        {!fatal && <SearchPanel />}
        {!fatal && <SecretsRadar />}
        {!fatal && <ExportDialog />}
        {!fatal && <DoctorDialog />}
        {!fatal && <DoctorStorePanel />}
        {!fatal && <UsagePanel />}
        {!fatal && <StoragePanel />}
        {!fatal && <ComparePanel />}
        {!fatal && <KeepLayer />}
        <Toast />
        <CommandLayer />
      </div>
    </CommandsProvider>
  );
}

function TopBar() {
  const info = useCanopy((s) => s.appInfo);
  const stream = useCanopy((s) => s.streamState);
  return (
    <header className="topbar">
      <span className="brand">
        <span className="brand-mark">
          <CanopyMark />
        </span>
        Canopy
      </span>
      {info?.demo && (
        <span className="chip demo-chip" title="No pi sessions were found: showing the bundled demo sessions">
          demo sessions
        </span>
      )}
      <span className="roots muted small" title={info?.roots.join('\n')}>
        {info?.roots.join(' · ')}
      </span>
      <span className="grow" />
      <OpenControls />
      <StoreButtons />
      {info?.transport === 'http' && (
        <span
          className={`stream-dot ${stream}`}
          title={`Live updates: ${stream}`}
          aria-label={`Live updates ${stream}`}
        />
      )}
      <TopBarControls />
      {info && <span className="muted small">v{info.version}</span>}
    </header>
  );
}

function Toast() {
  const toast = useCanopy((s) => s.toast);
  const [visible, setVisible] = useState<number | null>(null);
  useEffect(() => {
    if (!toast) return;
    setVisible(toast.seq);
    const timer = setTimeout(() => setVisible(null), 1800);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!toast || visible !== toast.seq) return null;
  return (
    <div className="toast" role="status">
      {toast.text}
    </div>
  );
}
