import { useEffect, useMemo } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatTokens } from '../../lib/format';
import { ForkIcon } from '../../lib/icons';
import type { ProfileDto } from '../../lib/shared';
import { currentForkKey } from '../../store/fork-actions';
import type { ForkMode } from '../../store';
import { EntryLink } from '../../ui/EntryLink';
import { forkRequest, MODE_HELP, MODE_LABELS } from './fork-model';

const MODES: readonly ForkMode[] = ['before', 'at', 'clone'];
/** From this size a preview reads seconds of bodies in main: it waits until the selection rests. */
export const REST_BEFORE_PREVIEW_BYTES = 64 * 1024 * 1024;
export const PREVIEW_REST_MS = 300;

/**
 * Fork from the selected entry, by pi's rules for the reading profile. The preview (what main
 * would write) comes first; a target pi refuses is explained and the write button stays disabled.
 */
export function ForkPanel({ entryId, isUserMessage }: { entryId: string; isUserMessage: boolean }) {
  const actions = useActions();
  const profile = useCanopy((s) => s.graph?.profile ?? 'ca');
  const leafId = useCanopy((s) => s.graph?.leafId ?? null);
  const chosen = useCanopy((s) => s.forkMode);
  const setMode = useCanopy((s) => s.setForkMode);
  const forking = useCanopy((s) => s.forking);
  const forkError = useCanopy((s) => s.forkError);
  const mode: ForkMode = chosen ?? (isUserMessage ? 'before' : 'at');
  const request = useMemo(() => forkRequest(mode, entryId), [mode, entryId]);
  const key = useCanopy((s) => currentForkKey(s, request));
  const state = useCanopy((s) => (s.forkPreview && s.forkPreview.key === key ? s.forkPreview : null));

  const big = useCanopy((s) => (s.graph?.sizeBytes ?? 0) >= REST_BEFORE_PREVIEW_BYTES);
  useEffect(() => {
    if (key === null) return;
    if (!big) {
      void actions.previewFork(request);
      return;
    }
    // Arrowing through a big session's entries asks for no preview until a selection stays.
    const timer = setTimeout(() => void actions.previewFork(request), PREVIEW_REST_MS);
    return () => clearTimeout(timer);
  }, [key, request, actions, big]);

  const preview = state?.preview ?? null;
  const ok = preview?.ok === true;
  const status = !state || state.loading ? 'loading' : state.error ? 'error' : ok ? 'ok' : 'refused';
  return (
    <section className="fork-panel" data-testid="fork-panel" data-mode={mode}>
      <div className="fork-head">
        <span className="fork-title">
          <ForkIcon /> New session from here
        </span>
        <span className="grow" />
        <div className="segmented small-seg" role="group" aria-label="Fork kind">
          {MODES.map((m) => (
            <button
              key={m}
              type="button"
              className={m === mode ? 'on' : undefined}
              aria-pressed={m === mode}
              data-fork-mode={m}
              title={MODE_HELP[profile][m]}
              onClick={() => setMode(m)}
            >
              {MODE_LABELS[m]}
            </button>
          ))}
        </div>
      </div>
      <div className="muted small fork-help">{describe(mode, profile, leafId)}</div>
      <div
        className={`fork-preview ${status}`}
        data-testid="fork-preview"
        data-status={status}
        data-ok={ok ? 'true' : 'false'}
        aria-live="polite"
      >
        {status === 'loading' && <span className="muted">Checking what pi would write…</span>}
        {status === 'error' && <span className="error-text">Cannot preview: {state!.error!.message}</span>}
        {preview && !preview.ok && (
          <div className="fork-refusal" data-testid="fork-refusal" data-kind={preview.error.kind}>
            <strong>{preview.error.kind === 'read_only' ? 'Read-only' : 'pi refuses this target'}:</strong>{' '}
            {preview.error.message}
            <div className="muted small">Nothing was written.</div>
          </div>
        )}
        {preview?.ok && (
          <dl className="fields fork-facts">
            <dt>new file</dt>
            <dd>
              <code className="break" title={`${preview.directory}/${preview.fileName}`} data-testid="fork-file-name">
                {preview.fileName}
              </code>
              <div className="muted small break">in {preview.directory} (its time is set when it is written)</div>
            </dd>
            <dt>entries</dt>
            <dd data-testid="fork-entry-count" data-count={preview.entryCount}>
              {preview.entryCount.toLocaleString('en-US')}
              {preview.newEntryCount > 0 && <span className="muted"> ({preview.newEntryCount} re-created labels)</span>}
            </dd>
            <dt>leaf</dt>
            <dd>
              {preview.leafId === null ? (
                <span className="muted">none (an empty session)</span>
              ) : preview.leafIsNew ? (
                <span className="muted">a re-created label (new id)</span>
              ) : (
                <EntryLink id={preview.leafId} />
              )}
            </dd>
            <dt>context</dt>
            <dd>
              {preview.context.messageCount} message{preview.context.messageCount === 1 ? '' : 's'} · ≈{' '}
              {formatTokens(preview.context.tokens)}
            </dd>
          </dl>
        )}
      </div>
      <div className="fork-actions">
        <button
          type="button"
          className="primary-button"
          data-testid="fork-button"
          disabled={!ok || forking}
          title={
            ok ? 'Write the new session file next to this one, then open it' : 'pi would not write this: see above'
          }
          onClick={() => void actions.fork(request)}
        >
          {forking ? 'Writing…' : mode === 'clone' ? 'Write clone' : 'Write fork'}
        </button>
        <span className="muted small">Writes a new file only; this session is not changed.</span>
      </div>
      {forkError && (
        <div className="error-note" role="alert" data-testid="fork-error">
          {forkError.message}
        </div>
      )}
    </section>
  );
}

function describe(mode: ForkMode, profile: ProfileDto, leafId: string | null): string {
  if (mode === 'clone' && profile === 'ca')
    return `/clone: copies the current branch${leafId ? ` (leaf ${leafId})` : ''} with its labels.`;
  return MODE_HELP[profile][mode];
}
