import { useStore } from '@xyflow/react';
import { useEffect, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { useCanopy } from '../../app-context';
import type { TreeIndex } from '../../model/tree-index';
import { ROW_PITCH } from './model/layout';
import type { LodView } from './model/lod-view';
import { tipPreview } from './model/tips';
import {
  stripAt,
  stripY,
  tipNear,
  trunkAt,
  viewportSpan,
  type OverviewMarks,
  type OverviewTip,
  type StripFrame,
} from './model/overview';
import { drawStrip, STRIP_WIDTH, TIP_X } from './overview-draw';

/** Free pixels above the trunk's start and below its end. */
export const OVERVIEW_PAD = 10;
/** A click this close (px) to a tip's row picks the tip. */
const TIP_SLACK_PX = 5;

/**
 * The overview, docked beside the canvas (it covers nothing): the trunk top to bottom, its
 * compactions, labels and forks, every tip, and the canvas's viewport as a band. A click on a
 * tip jumps to it; a click or a drag elsewhere centres the canvas on that part of the trunk.
 */
export function GraphOverview({
  marks,
  lodView,
  index,
  onTip,
  onPan,
}: {
  marks: OverviewMarks;
  lodView: LodView;
  index: TreeIndex;
  onTip(tip: OverviewTip): void;
  onPan(drawnId: string): void;
}) {
  const lazyPreviews = useCanopy((s) => s.lazyPreviews);
  const theme = useCanopy((s) => s.theme);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  const [hover, setHover] = useState<OverviewTip | null>(null);
  const [ty, zoom] = useStore(
    (s) => [s.transform[1], s.transform[2]] as const,
    (a, b) => a[0] === b[0] && a[1] === b[1],
  );
  const paneHeight = useStore((s) => s.height);
  useEffect(() => {
    const box = boxRef.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setHeight(box.clientHeight));
    observer.observe(box);
    setHeight(box.clientHeight);
    return () => observer.disconnect();
  }, []);
  const frame: StripFrame = { total: marks.total, height, pad: OVERVIEW_PAD };
  useEffect(() => {
    if (canvasRef.current && height > 0)
      drawStrip(canvasRef.current, marks, { total: marks.total, height, pad: OVERVIEW_PAD });
  }, [marks, height, theme]);

  const rows = { top: Math.floor(-ty / zoom / ROW_PITCH), bottom: Math.floor((paneHeight - ty) / zoom / ROW_PITCH) };
  const span = paneHeight > 0 ? viewportSpan(marks, lodView, rows) : null;

  const local = (e: { clientX: number; clientY: number }) => {
    const r = boxRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const slack = Math.max(1, (TIP_SLACK_PX / Math.max(1, height - 2 * OVERVIEW_PAD)) * marks.total);
  const tipAtPoint = (x: number, y: number) => (x >= TIP_X - 6 ? tipNear(marks, stripAt(frame, y), slack) : null);
  const panTo = (y: number) => {
    const d = trunkAt(marks, stripAt(frame, y));
    const owner = d ? lodView.lod.ownerOf.get(d) : undefined;
    if (owner) onPan(owner);
  };
  const onMouseDown = (e: ReactMouseEvent) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const p = local(e);
    const tip = tipAtPoint(p.x, p.y);
    if (tip) return onTip(tip);
    panTo(p.y);
    const move = (ev: MouseEvent) => panTo(local(ev).y);
    const up = () => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  };
  const onMouseMove = (e: ReactMouseEvent) => {
    const p = local(e);
    setHover(tipAtPoint(p.x, p.y));
  };

  const bandTop = span ? stripY(frame, span.from) : 0;
  const bandHeight = span ? Math.max(6, stripY(frame, span.to) - bandTop) : 0;
  return (
    <div
      ref={boxRef}
      className="graph-overview"
      data-testid="graph-overview"
      data-tips={marks.tips.length}
      data-compactions={marks.compactions.length + marks.sideCompactions.length}
      data-labels={marks.labels.length}
      style={{ width: STRIP_WIDTH }}
      onMouseDown={onMouseDown}
      onMouseMove={onMouseMove}
      onMouseLeave={() => setHover(null)}
    >
      <canvas
        ref={canvasRef}
        className="overview-canvas"
        style={{ width: STRIP_WIDTH, height }}
        aria-label="Overview of the session: the trunk with its compactions, labels and tips. Click a tip to go there, click or drag to pan"
        role="img"
        data-testid="overview-canvas"
      />
      {span && (
        <div
          className="overview-viewport"
          data-testid="overview-viewport"
          style={{ left: 1, width: STRIP_WIDTH - 2, top: bandTop, height: bandHeight }}
        />
      )}
      {hover && (
        <>
          <div
            className="overview-hover"
            data-testid="overview-hover"
            data-entry-id={hover.entryId}
            style={{ left: TIP_X, top: stripY(frame, hover.at) }}
          />
          <div className="overview-label" style={{ top: Math.min(stripY(frame, hover.at), height - 40) }}>
            {tipPreview(index, hover.entryId, lazyPreviews) || hover.entryId}
          </div>
        </>
      )}
    </div>
  );
}
