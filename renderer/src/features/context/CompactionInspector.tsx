import { useEffect, useMemo, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatCount, formatTokens } from '../../lib/format';
import type { CompactionInfoDto, ContextMessageDto, EntryNodeDto } from '../../lib/shared';
import { kindTitle } from '../../model/kinds';
import { entryById, treeIndexOf } from '../../model/tree-index';
import { Markdown } from '../../ui/Markdown';
import { EntryLink } from '../../ui/EntryLink';
import { FileList } from '../../ui/Field';
import { STATE_LABELS } from '../../model/context-order';

const PREVIEW_ROWS = 6;

interface EntryLookup {
  get(id: string): EntryNodeDto | undefined;
}

function useEntryIndex(): EntryLookup {
  const graph = useCanopy((s) => s.graph);
  return useMemo(() => {
    const index = graph ? treeIndexOf(graph) : null;
    return { get: (id: string) => (index ? entryById(index, id) : undefined) };
  }, [graph]);
}

/** The retainedTail messages of a compaction, each with the path entry it copies. */
function tailOf(info: CompactionInfoDto, messages: ContextMessageDto[]): ContextMessageDto[] {
  return messages.filter((m) => m.entryId === info.id && m.role !== 'compactionSummary' && m.role !== 'system');
}

/** A selected compaction: what it replaced, what it keeps, and what the model can no longer see. */
export function CompactionInspector({ entryId }: { entryId: string }) {
  const view = useCanopy((s) => s.contextView);
  const setHighlight = useCanopy((s) => s.setHighlight);
  const highlight = useCanopy((s) => s.highlight);
  const whatIf = useCanopy((s) => s.whatIfLeaf !== null);
  const byId = useEntryIndex();
  const [compare, setCompare] = useState(false);
  const info = view?.compactions.find((c) => c.id === entryId);

  if (!view) return null;
  if (!info) {
    return (
      <section className="compaction-inspector off-path" data-testid="compaction-inspector" data-on-path="false">
        <div className="muted small">
          This compaction is not on the path of the {whatIf ? 'what-if' : 'current'} leaf, so it hides nothing from the
          model there. Choose “what if this were the leaf?” to see what it hides.
        </div>
      </section>
    );
  }
  const tail = tailOf(info, view.messages);
  const highlighted = highlight?.reason === `hidden:${info.id}`;
  return (
    <section
      className="compaction-inspector"
      data-testid="compaction-inspector"
      data-on-path="true"
      data-active={info.active ? 'true' : 'false'}
    >
      <div className="ci-head">
        <span className={`state-pill ${info.active ? 'state-included' : `state-${info.state}`}`}>
          {info.active ? 'opens the context' : `older · ${STATE_LABELS[info.state]}`}
        </span>
        <span className="grow" />
        <button
          type="button"
          className="action-button"
          data-testid="compaction-compare-open"
          onClick={() => setCompare(true)}
        >
          Side by side
        </button>
      </div>
      <dl className="fields">
        <dt>tokens before</dt>
        <dd>
          {info.tokensBefore === null ? <span className="muted">not recorded</span> : formatCount(info.tokensBefore)}
        </dd>
        <dt>kept</dt>
        <dd>
          {info.retainedTailCount !== null && view.profile === 'h3' ? (
            <>
              retainedTail: {info.retainedTailCount} message{info.retainedTailCount === 1 ? '' : 's'} copied into the
              compaction
            </>
          ) : info.firstKeptEntryId && info.firstKeptOnPath ? (
            <>
              from <EntryLink id={info.firstKeptEntryId} /> up to the compaction
            </>
          ) : info.firstKeptEntryId ? (
            <>
              <EntryLink id={info.firstKeptEntryId} />{' '}
              <span className="muted">is not on the path: nothing older is kept</span>
            </>
          ) : (
            <span className="muted">nothing older: the summary only</span>
          )}
        </dd>
        {info.hasSystemMessage && (
          <>
            <dt>system</dt>
            <dd>replays the system prompt (CA 1.6.0)</dd>
          </>
        )}
        <FileList title="read files" files={info.readFiles} />
        <FileList title="modified files" files={info.modifiedFiles} />
      </dl>
      {tail.length > 0 && <TailList tail={tail} />}
      <div className="hidden-span" data-testid="compaction-hidden" data-count={info.hiddenIds.length}>
        <div className="hidden-span-head">
          <strong>
            The model can no longer see{' '}
            {info.hiddenIds.length === 0
              ? 'anything new'
              : `${formatCount(info.hiddenIds.length)} entr${info.hiddenIds.length === 1 ? 'y' : 'ies'}`}
          </strong>
          <span className="grow" />
          {info.hiddenIds.length > 0 && (
            <button
              type="button"
              className="action-button"
              data-testid="highlight-hidden"
              aria-pressed={highlighted}
              onClick={() => setHighlight(highlighted ? null : info.hiddenIds, `hidden:${info.id}`)}
            >
              {highlighted ? 'Clear highlight' : 'Highlight on graph'}
            </button>
          )}
        </div>
        <EntryRows ids={info.hiddenIds} byId={byId} limit={PREVIEW_ROWS} copied={copiedIds(tail)} />
      </div>
      {compare && <CompactionCompare info={info} tail={tail} byId={byId} onClose={() => setCompare(false)} />}
    </section>
  );
}

function copiedIds(tail: ContextMessageDto[]): Set<string> {
  return new Set(tail.map((m) => m.copyOf).filter((id): id is string => id !== undefined));
}

function TailList({ tail }: { tail: ContextMessageDto[] }) {
  return (
    <div className="tail-list">
      <div className="muted small">Retained tail (sent after the summary):</div>
      {tail.map((m) => (
        <div key={m.index} className="tail-row small">
          <span className="role-tag">{m.role}</span>
          <span className="ellipsis">{m.preview || '\u00a0'}</span>
          {m.copyOf && (
            <span className="muted">
              copy of <EntryLink id={m.copyOf} />
            </span>
          )}
        </div>
      ))}
    </div>
  );
}

function EntryRows({
  ids,
  byId,
  limit,
  copied,
}: {
  ids: string[];
  byId: EntryLookup;
  limit?: number;
  copied?: ReadonlySet<string>;
}) {
  const actions = useActions();
  const shown = limit === undefined ? ids : ids.slice(0, limit);
  return (
    <ol className="entry-rows">
      {shown.map((id) => {
        const e = byId.get(id);
        return (
          <li key={id}>
            <button
              type="button"
              className="entry-row"
              title={`Show entry ${id}`}
              onClick={() => actions.selectEntry(id, { focus: true })}
            >
              <span className="role-tag">{e ? kindTitle(e) : '?'}</span>
              <span className="ellipsis">{e?.preview || id}</span>
              {copied?.has(id) && (
                <span className="chip" title="Its message is still sent, as a copy in the retained tail">
                  in tail
                </span>
              )}
            </button>
          </li>
        );
      })}
      {limit !== undefined && ids.length > limit && (
        <li className="muted small">… and {formatCount(ids.length - limit)} more</li>
      )}
    </ol>
  );
}

/** The summary beside the span it replaced, over the graph. */
function CompactionCompare({
  info,
  tail,
  byId,
  onClose,
}: {
  info: CompactionInfoDto;
  tail: ContextMessageDto[];
  byId: EntryLookup;
  onClose: () => void;
}) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const summaryTokens = Math.ceil(info.summary.length / 4);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal compaction-compare"
        role="dialog"
        aria-label={`Compaction ${info.id}`}
        data-testid="compaction-compare"
        onClick={(e) => e.stopPropagation()}
      >
        <header className="modal-head">
          <strong>Compaction</strong> <code>{info.id}</code>
          <span className="muted small">line {info.line}</span>
          <span className="grow" />
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </header>
        <div className="compare-cols">
          <section className="compare-col">
            <h3>
              Replaced · {formatCount(info.hiddenIds.length)} entr{info.hiddenIds.length === 1 ? 'y' : 'ies'}
              {info.tokensBefore !== null && <span className="muted"> · {formatTokens(info.tokensBefore)} before</span>}
            </h3>
            {info.hiddenIds.length === 0 ? (
              <div className="muted small">Nothing on this path that the model no longer sees.</div>
            ) : (
              <EntryRows ids={info.hiddenIds} byId={byId} limit={400} copied={copiedIds(tail)} />
            )}
            <h3>Kept</h3>
            {info.firstKeptEntryId && info.firstKeptOnPath ? (
              <div className="small">
                From <EntryLink id={info.firstKeptEntryId} /> on, the original entries are still sent.
              </div>
            ) : (
              <div className="muted small">No older entry is sent as is.</div>
            )}
            {tail.length > 0 && <TailList tail={tail} />}
          </section>
          <section className="compare-col">
            <h3>
              Summary <span className="muted">· ≈ {formatTokens(summaryTokens)}</span>
            </h3>
            {info.summary ? <Markdown text={info.summary} /> : <div className="muted small">(empty)</div>}
            {(info.readFiles.length > 0 || info.modifiedFiles.length > 0) && (
              <dl className="fields">
                <FileList title="read" files={info.readFiles} />
                <FileList title="modified" files={info.modifiedFiles} />
              </dl>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}
