/** A slim copy of one session: options, the preview (what goes, the bytes left), then the write. */
import { useEffect, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatBytes } from '../../lib/format';
import type { SlimRequestDto } from '../../lib/shared';

const OUTPUT_LIMIT = 64 * 1024;

export function SlimAction({ sessionId, title }: { sessionId: string; title: string }) {
  const actions = useActions();
  const [dropImages, setDropImages] = useState(true);
  const [cutOutputs, setCutOutputs] = useState(false);
  const { preview, result, error, busy } = useCanopy((s) => s.slim);
  const request: SlimRequestDto = { sessionId, dropImages, ...(cutOutputs ? { maxOutputBytes: OUTPUT_LIMIT } : {}) };
  const valid = dropImages || cutOutputs;

  useEffect(() => {
    void actions.previewSlim(valid ? request : null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the request is made of these three
  }, [actions, sessionId, dropImages, cutOutputs]);

  const write = () => void actions.writeSlim(request);

  return (
    <section className="slim-action" data-testid="slim-action" aria-label={`Slim copy of ${title}`}>
      <h3>Slim copy of “{title}”</h3>
      <div className="slim-options">
        <label>
          <input type="checkbox" checked={dropImages} onChange={(e) => setDropImages(e.target.checked)} /> replace
          images by a note (mime type, size, line)
        </label>
        <label>
          <input type="checkbox" checked={cutOutputs} onChange={(e) => setCutOutputs(e.target.checked)} /> cut tool and
          bash outputs over {formatBytes(OUTPUT_LIMIT)} to their head
        </label>
      </div>
      <div className="small" data-testid="slim-preview" role="status">
        {!valid
          ? 'Choose what to remove.'
          : error
            ? error
            : preview
              ? `A new session next to this one: ${formatBytes(preview.bytesBefore)} → ${formatBytes(preview.bytesAfter)} (${preview.imagesRemoved} images replaced, ${preview.outputsCut} outputs cut). The source stays as it is.`
              : 'Reading the session…'}
      </div>
      {result ? (
        <div className="small" data-testid="slim-result">
          Written {result.fileName} ({formatBytes(result.bytesAfter)}).{' '}
          {result.sessionId && (
            <button type="button" className="link-button" onClick={() => void actions.openSession(result.sessionId!)}>
              Open it
            </button>
          )}
        </div>
      ) : (
        <button type="button" disabled={!preview || busy} onClick={write} data-testid="slim-write">
          {busy ? 'Writing…' : 'Write slim copy'}
        </button>
      )}
    </section>
  );
}
