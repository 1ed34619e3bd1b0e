/**
 * What each branch did to the files: per path, side A's and side B's unified diff from the common
 * ancestor's state, drawn with react-diff-view (it parses the unified diff jsdiff computed in main).
 */
import { memo, useMemo } from 'react';
import { Diff, Hunk, parseDiff } from 'react-diff-view';
import 'react-diff-view/style/index.css';
import type { CompareFileDto, CompareSideDto, CompareVersusDto } from '../../lib/shared';

const FileDiff = memo(function FileDiff({ file }: { file: CompareFileDto | CompareVersusDto }) {
  const parsed = useMemo(() => parseDiff(file.diff)[0], [file.diff]);
  return (
    <div className="compare-file-side">
      <div className="compare-file-counts small">
        <span className="compare-add">+{file.added}</span> <span className="compare-del">−{file.removed}</span>
      </div>
      {file.notes.map((n) => (
        <div key={n} className="compare-note small" role="note">
          {n}
        </div>
      ))}
      {parsed && parsed.hunks.length > 0 ? (
        <Diff viewType="unified" diffType={parsed.type} hunks={parsed.hunks} className="compare-diff">
          {(hunks) => hunks.map((h) => <Hunk key={h.content} hunk={h} />)}
        </Diff>
      ) : (
        <div className="muted small">no line changed</div>
      )}
    </div>
  );
});

function ShellNote({ name, side }: { name: string; side: CompareSideDto }) {
  if (side.shell.length === 0) return null;
  return (
    <div className="compare-note" role="note" data-testid={`compare-shell-${name}`}>
      <b>{name}</b> ran {side.shell.length} shell command{side.shell.length > 1 ? 's' : ''} that may have changed files
      the edit and write calls do not show:{' '}
      {side.shell.slice(0, 5).map((r) => (
        <code key={r.entryId + r.command} className="compare-shell">
          {r.command.split('\n')[0]}
        </code>
      ))}
      {side.shell.length > 5 && <span> … {side.shell.length - 5} more</span>}
    </div>
  );
}

/**
 * `versus`: A's text against B's per file (computed before any swap: `flip` says the sides were
 * swapped since, so it reads B → A).
 */
function Versus({ v, flip }: { v: CompareVersusDto | undefined; flip: boolean }) {
  if (!v) return null;
  const title = flip ? 'B → A' : 'A → B';
  if (v.same) return <div className="muted small compare-versus">{title}: the same text on both sides</div>;
  return (
    <details className="compare-versus" data-testid="compare-versus">
      <summary className="small">{title}: one side’s text against the other’s</summary>
      <FileDiff file={v} />
    </details>
  );
}

export function CompareFiles({
  a,
  b,
  versus,
  flip,
}: {
  a: CompareSideDto;
  b: CompareSideDto;
  versus: readonly CompareVersusDto[];
  flip: boolean;
}) {
  const paths = [...new Set([...a.files, ...b.files].map((f) => f.path))].sort();
  return (
    <section className="compare-files" aria-label="Files" data-testid="compare-files">
      <h3>Files</h3>
      <ShellNote name="A" side={a} />
      <ShellNote name="B" side={b} />
      {paths.length === 0 && <div className="muted">No edit or write call changed a file on either side.</div>}
      {paths.map((p) => {
        const fa = a.files.find((f) => f.path === p);
        const fb = b.files.find((f) => f.path === p);
        return (
          <div key={p} className="compare-file" data-testid="compare-file" data-path={p}>
            <div className="compare-file-path">
              <code>{p}</code>
            </div>
            <div className="compare-two">
              {[fa, fb].map((f, k) => (
                <div key={k} className="compare-side-col">
                  <div className="compare-side-label small">{k === 0 ? 'A' : 'B'}</div>
                  {f ? <FileDiff file={f} /> : <div className="muted small">unchanged</div>}
                </div>
              ))}
            </div>
            <Versus v={versus.find((x) => x.path === p)} flip={flip} />
          </div>
        );
      })}
    </section>
  );
}
