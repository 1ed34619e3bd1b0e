import { useMemo, useRef, type ReactNode } from 'react';
import { useCanopy } from '../../app-context';
import { shareableUrl } from '../../lib/deep-link';
import { formatDateTime } from '../../lib/format';
import type { EntryDetailDto } from '../../lib/shared';
import { CopyButton } from '../../ui/CopyButton';
import { EntryBody } from './EntryBody';
import { PlainText } from '../../ui/Markdown';
import { EntryLink } from '../../ui/EntryLink';
import { Section } from './parts';
import { useTextMarks } from '../../ui/text-marks';
import { obj, str } from './raw';
import { CutNote, OtherPayloads, PayloadProvider } from './payloads';

const MAX_CHILD_LINKS = 24;

/** Other features' cards for the shown entry (context, lineage, fork), drawn above its body; passed in by the shell. */
export type EntryCards = (detail: EntryDetailDto, kind: string) => ReactNode;

export function Inspector({ cards }: { cards?: EntryCards }) {
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const detail = useCanopy((s) => s.detail);
  const loading = useCanopy((s) => s.detailLoading);
  const error = useCanopy((s) => s.detailError);
  const mark = useCanopy((s) => s.mark);
  const markText =
    mark && detail && !loading && mark.sessionId === detail.sessionId && mark.entryId === detail.entryId
      ? mark.text
      : null;
  const ref = useRef<HTMLDivElement>(null);
  const marks = useTextMarks(ref, markText, detail);

  let body;
  if (!selectedId) {
    body = (
      <div className="placeholder small-placeholder">
        <div className="muted">Select an entry in the graph (click, or move with the arrow keys) to see it here.</div>
      </div>
    );
  } else if (error) {
    body = (
      <div className="error-note" role="alert">
        Cannot load entry {selectedId}: {error.message}
      </div>
    );
  } else if (!detail || loading) {
    body = <div className="muted small pad">Loading {selectedId}…</div>;
  } else {
    body = <EntryView detail={detail} cards={cards} />;
  }
  return (
    <div
      ref={ref}
      className="inspector"
      data-testid="inspector"
      data-entry-id={detail?.entryId ?? undefined}
      data-marks={markText ? marks : undefined}
      aria-label="Inspector"
    >
      {body}
    </div>
  );
}

function kindOf(raw: Record<string, unknown>): string {
  if (raw.type === 'message') return str(obj(raw.message)?.role) ?? 'message';
  return str(raw.type) ?? '(no type)';
}

function EntryView({ detail, cards }: { detail: EntryDetailDto; cards?: EntryCards }) {
  const { raw } = detail;
  const rawText = useMemo(() => JSON.stringify(raw, null, 2), [raw]);
  const parentId = typeof raw.parentId === 'string' && raw.parentId !== '' ? raw.parentId : null;
  const kind = kindOf(raw);
  return (
    <div className="entry-view" data-kind={kind}>
      <header className="inspector-head">
        <div className="inspector-title">
          <span className={`kind-pill kind-${kind}`}>{kind}</span>
          <code className="entry-id" data-testid="inspector-entry-id">
            {detail.entryId}
          </code>
          <CopyButton text={detail.entryId} label="copy id" />
          <span className="grow" />
          <CopyButton
            text={() => shareableUrl(window.location, { sessionId: detail.sessionId, entryId: detail.entryId })}
            label="copy link"
            title="Copy a link to this entry"
          />
        </div>
        <div className="inspector-sub muted small">
          <span data-testid="inspector-line">line {detail.line}</span>
          {str(raw.timestamp) && <span title={str(raw.timestamp)}>{formatDateTime(str(raw.timestamp))}</span>}
          {detail.label && <span className="chip label-badge"># {detail.label}</span>}
        </div>
        <div className="inspector-links small">
          <span className="muted">parent</span>{' '}
          {parentId ? <EntryLink id={parentId} /> : <span className="muted">none (root)</span>}
          {detail.children.length > 0 && (
            <>
              <span className="muted"> · children</span>{' '}
              {detail.children.slice(0, MAX_CHILD_LINKS).map((c) => (
                <EntryLink key={c} id={c} />
              ))}
              {detail.children.length > MAX_CHILD_LINKS && (
                <span className="muted">+{detail.children.length - MAX_CHILD_LINKS}</span>
              )}
            </>
          )}
        </div>
      </header>
      <PayloadProvider key={`${detail.sessionId} ${detail.entryId}`} detail={detail}>
        <div className="inspector-body">
          {cards?.(detail, kind)}
          <OtherPayloads detail={detail} />
          <EntryBody raw={raw} />
          <Section
            title={
              <>
                Raw JSON <CopyButton text={rawText} label="copy" />
              </>
            }
            open={false}
            testId="raw-json"
          >
            <CutNote detail={detail} />
            <PlainText text={rawText} className="json" />
          </Section>
        </div>
      </PayloadProvider>
    </div>
  );
}
