/**
 * One session's keep dialog: Canopy's name for it (pi's own name shown beside), tags, a pin and
 * a note, all kept in Canopy's data folder; "Continue in pi"; and the trash, previewed first
 * (alone or with its forks). Keyboard: Enter saves, Esc closes.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatBytes } from '../../lib/format';
import { tagsInUse, type TrashPreviewDto } from '../../lib/shared';
import { sessionTitle } from '../../model/session-title';
import { useContinueInPi } from './use-continue';
import { KeepModal } from './KeepModal';

/** "a, b c" → ['a', 'b', 'c']. */
export function splitTags(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

export function KeepDialog() {
  const state = useCanopy((s) => s.keepDialog);
  if (state.open !== 'keep') return null;
  return <KeepForm key={state.sessionId} sessionId={state.sessionId} focus={state.focus ?? 'name'} />;
}

function KeepForm({ sessionId, focus }: { sessionId: string; focus: 'name' | 'tags' | 'trash' }) {
  const actions = useActions();
  const row = useCanopy((s) => s.sessionList?.sessions.find((r) => r.sessionId === sessionId) ?? null);
  const summary = useCanopy((s) => s.summaries[sessionId] ?? null);
  const record = useCanopy((s) => s.keep[sessionId]);
  const allKeep = useCanopy((s) => s.keep);
  const toast = useCanopy((s) => s.showToast);
  const [name, setName] = useState(record?.name ?? '');
  const [tags, setTags] = useState((record?.tags ?? []).join(', '));
  const [pinned, setPinned] = useState(record?.pinned === true);
  const [note, setNote] = useState(record?.note ?? '');
  const [error, setError] = useState<string | null>(null);
  const [withForks, setWithForks] = useState(true);
  const [preview, setPreview] = useState<TrashPreviewDto | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const tagsRef = useRef<HTMLInputElement>(null);
  const trashRef = useRef<HTMLButtonElement>(null);
  const continueInPi = useContinueInPi();
  const setDialog = useCanopy((s) => s.setKeepDialog);
  const close = () => setDialog({ open: null });
  const known = useMemo(() => tagsInUse(allKeep).map(([t]) => t), [allKeep]);

  useEffect(() => {
    if (focus !== 'trash') setTimeout(() => (focus === 'tags' ? tagsRef : nameRef).current?.focus(), 0);
  }, [focus]);
  // The trash button is enabled once its preview is in: focused then (once).
  const focusedTrash = useRef(false);
  useEffect(() => {
    if (focus !== 'trash' || !preview || focusedTrash.current) return;
    focusedTrash.current = true;
    setTimeout(() => trashRef.current?.focus(), 0);
  }, [focus, preview]);
  useEffect(() => {
    let live = true;
    void actions.trashPreview(sessionId, withForks).then((r) => live && 'data' in r && setPreview(r.data));
    return () => {
      live = false;
    };
  }, [actions, sessionId, withForks]);

  if (!row) return null;
  const piName = summary?.name?.trim() || '';
  const save = async () => {
    const r = await actions.keepSession(sessionId, { name, tags: splitTags(tags), pinned, note });
    if ('error' in r) return setError(r.error.message);
    close();
  };
  const trash = async () => {
    const r = await actions.trashSession(sessionId, withForks);
    if ('error' in r) return setError(r.error.message);
    close();
    toast(`${r.data.files.length} session file${r.data.files.length === 1 ? '' : 's'} moved to the trash`);
  };
  const forks = preview ? preview.files.filter((f) => f.fork).length : 0;

  return (
    <KeepModal
      label="Keep this session"
      testId="keep-dialog"
      title={sessionTitle(row, summary)}
      onClose={close}
      onSubmit={() => void save()}
    >
      <div className="keep-form">
        <label>
          Name
          <input
            ref={nameRef}
            value={name}
            placeholder={piName || 'A name of your own'}
            data-testid="keep-name"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        {piName && <p className="muted small">pi&apos;s own name (session_info): {piName}</p>}
        <label>
          Tags
          <input
            ref={tagsRef}
            value={tags}
            list="keep-known-tags"
            placeholder="comma or space separated"
            data-testid="keep-tags"
            onChange={(e) => setTags(e.target.value)}
          />
          <datalist id="keep-known-tags">
            {known.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </label>
        <label className="keep-check">
          <input
            type="checkbox"
            checked={pinned}
            data-testid="keep-pinned"
            onChange={(e) => setPinned(e.target.checked)}
          />{' '}
          Pinned (listed first)
        </label>
        <label>
          Note
          <textarea value={note} rows={3} data-testid="keep-note" onChange={(e) => setNote(e.target.value)} />
        </label>
        <p className="muted small">Kept in Canopy&apos;s data folder by session id: the session file is not changed.</p>
        {error && (
          <div className="error-note" role="alert">
            {error}
          </div>
        )}
        <div className="keep-buttons">
          <button type="submit" className="primary-button" data-testid="keep-save">
            Save
          </button>
          <button type="button" data-testid="keep-continue" onClick={() => void continueInPi(sessionId)}>
            Continue in pi
          </button>
        </div>
      </div>
      <section className="keep-trash" aria-label="Move to the trash">
        <h3>Move to the trash</h3>
        {forks > 0 || !withForks ? (
          <label className="keep-check">
            <input type="checkbox" checked={withForks} onChange={(e) => setWithForks(e.target.checked)} /> With its
            forks
          </label>
        ) : null}
        <ul className="keep-trash-files" data-testid="trash-preview">
          {preview?.files.map((f) => (
            <li key={f.sessionId} title={f.path}>
              {f.fork ? 'fork · ' : ''}
              <code>{f.path.split(/[\\/]/).pop()}</code> · {formatBytes(f.sizeBytes)}
            </li>
          ))}
        </ul>
        {preview?.refused && <p className="muted small">{preview.refused}</p>}
        <button
          type="button"
          ref={trashRef}
          className="danger"
          data-testid="keep-trash"
          disabled={!preview || preview.refused !== null}
          onClick={() => void trash()}
        >
          Move {preview?.files.length ?? ''} file{preview?.files.length === 1 ? '' : 's'} to the trash
        </button>
        <p className="muted small">The OS trash keeps them; Canopy can put them back (Trash: restore).</p>
      </section>
    </KeepModal>
  );
}
