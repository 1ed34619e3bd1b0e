import { Panel, useReactFlow, useStore } from '@xyflow/react';
import { useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { useCanopy } from '../../app-context';
import type { TreeIndex } from '../../model/tree-index';
import { tipPreview } from './model/tips';
import { NODE_HEIGHT, NODE_WIDTH } from './model/layout';
import { overviewCorner, screenRect } from './model/overview-place';
import {
  fromOverview,
  overviewFrame,
  tipAt,
  toOverview,
  viewportRect,
  type OverviewMarks,
  type OverviewTip,
} from './model/overview';

/** The overview's size in CSS pixels (fixed: the marks are laid out for it). */
export const OVERVIEW_BOX = { width: 200, height: 140 };
/** Zoomed in on a huge tree the viewport is a speck: drawn at least this big, around its centre. */
const VIEWPORT_MIN = 10;

function minSize(r: { x: number; y: number; width: number; height: number }, min: number) {
  const width = Math.max(min, r.width);
  const height = Math.max(min, r.height);
  return { left: r.x + (r.width - width) / 2, top: r.y + (r.height - height) / 2, width, height };
}

/** Off-path nodes from which the overview draws density cells instead of edges. */
const DENSITY_FROM = 1500;
const CELL = 3;

/** Node density: the child end of each edge counted in CELL-pixel cells, shaded by log count. */
function density(
  ctx: CanvasRenderingContext2D,
  f: ReturnType<typeof overviewFrame>,
  edges: Float64Array,
  colour: string,
): void {
  const cols = Math.ceil(OVERVIEW_BOX.width / CELL);
  const rows = Math.ceil(OVERVIEW_BOX.height / CELL);
  const counts = new Uint32Array(cols * rows);
  let max = 1;
  for (let i = 0; i < edges.length; i += 4) {
    const p = toOverview(f, edges[i + 2]!, edges[i + 3]!);
    const cx = Math.min(cols - 1, Math.max(0, Math.floor(p.x / CELL)));
    const cy = Math.min(rows - 1, Math.max(0, Math.floor(p.y / CELL)));
    const k = cy * cols + cx;
    max = Math.max(max, ++counts[k]!);
  }
  ctx.fillStyle = colour;
  const scale = Math.log(max + 1);
  for (let k = 0; k < counts.length; k++) {
    if (counts[k] === 0) continue;
    ctx.globalAlpha = 0.35 + (0.65 * Math.log(counts[k]! + 1)) / scale;
    ctx.fillRect((k % cols) * CELL, Math.floor(k / cols) * CELL, CELL, CELL);
  }
  ctx.globalAlpha = 1;
}

function draw(canvas: HTMLCanvasElement, marks: OverviewMarks): void {
  const ctx = canvas.getContext?.('2d');
  if (!ctx) return; // no canvas (a DOM test): the marks still answer clicks
  const dpr = window.devicePixelRatio || 1;
  const { width, height } = OVERVIEW_BOX;
  canvas.width = width * dpr;
  canvas.height = height * dpr;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  // Colours come from CSS custom properties, resolved through `color` (the theme's light-dark()
  // values stay unresolved in a custom property's own computed value).
  const colour = (name: string) => {
    canvas.style.color = `var(--ov-${name})`;
    return getComputedStyle(canvas).color || '#888';
  };
  const f = overviewFrame(marks, OVERVIEW_BOX);
  // One path per class: an 84k-entry session is a few thousand drawn nodes, a handful of strokes.
  const segments = (xs: Float64Array, colour: string, lineWidth: number) => {
    ctx.beginPath();
    for (let i = 0; i < xs.length; i += 4) {
      const a = toOverview(f, xs[i]!, xs[i + 1]!);
      const b = toOverview(f, xs[i + 2]!, xs[i + 3]!);
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
    }
    ctx.strokeStyle = colour;
    ctx.lineWidth = lineWidth;
    ctx.stroke();
  };
  const points = (xs: ArrayLike<number>, colour: string, shape: (x: number, y: number) => void) => {
    ctx.beginPath();
    for (let i = 0; i < xs.length; i += 2) {
      const p = toOverview(f, xs[i]!, xs[i + 1]!);
      shape(p.x, p.y);
    }
    ctx.fillStyle = colour;
    ctx.fill();
  };
  const square = (s: number) => (x: number, y: number) => ctx.rect(x - s / 2, y - s / 2, s, s);
  const dot = (r: number) => (x: number, y: number) => {
    ctx.moveTo(x + r, y);
    ctx.arc(x, y, r, 0, Math.PI * 2);
  };
  const diamond = (r: number) => (x: number, y: number) => {
    ctx.moveTo(x, y - r);
    ctx.lineTo(x + r, y);
    ctx.lineTo(x, y + r);
    ctx.lineTo(x - r, y);
    ctx.closePath();
  };
  // Many marks share the box: smaller ones, so neighbours stay apart. The path goes over the marks.
  const small = marks.tips.length + marks.branchPoints.length / 2 > 60;
  // Too many nodes for lines to stay apart (they merge into one band): their density instead,
  // cell by cell, so the path, tips and checkpoints drawn over it stay readable.
  if (marks.edges.length / 4 > DENSITY_FROM) density(ctx, f, marks.edges, colour('edge'));
  else segments(marks.edges, colour('edge'), 1);
  points(marks.branchPoints, colour('branch'), square(small ? 3 : 5));
  points(marks.checkpoints, colour('checkpoint'), diamond(small ? 3 : 4));
  points(
    marks.tips.flatMap((t) => [t.x, t.y]),
    colour('tip'),
    dot(small ? 2 : 3),
  );
  segments(marks.pathEdges, colour('path'), 2);
  if (marks.leaf) points([marks.leaf.x, marks.leaf.y], colour('leaf'), dot(4));
}

/**
 * The structural minimap: the collapsed tree's edges, the leaf's path, branch points, checkpoints
 * and tips on one canvas, the viewport as a rectangle. A click on a tip jumps to it; a click or a
 * drag elsewhere pans the canvas there.
 */
export function GraphOverview({
  marks,
  index,
  onTip,
  avoid = [],
}: {
  marks: OverviewMarks;
  index: TreeIndex;
  onTip(tip: OverviewTip): void;
  /** Layout centres of nodes it must not cover (the leaf, the selection): it moves to another corner. */
  avoid?: ReadonlyArray<{ x: number; y: number }>;
}) {
  const lazyPreviews = useCanopy((s) => s.lazyPreviews);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const theme = useCanopy((s) => s.theme);
  const flow = useReactFlow();
  const transform = useStore((s) => s.transform);
  const paneWidth = useStore((s) => s.width);
  const paneHeight = useStore((s) => s.height);
  const frame = useMemo(() => overviewFrame(marks, OVERVIEW_BOX), [marks]);
  const [hover, setHover] = useState<OverviewTip | null>(null);
  const dragging = useRef(false);

  const rect = paneWidth > 0 ? viewportRect(frame, transform, { width: paneWidth, height: paneHeight }) : null;
  const node = { width: NODE_WIDTH, height: NODE_HEIGHT };
  const corner = overviewCorner(
    { width: paneWidth, height: paneHeight },
    { width: OVERVIEW_BOX.width + 2, height: OVERVIEW_BOX.height + 2 },
    avoid.map((c) => screenRect(c, node, transform)),
  );
  const hidden = paneWidth > 0 && corner === null;
  // Drawn again when it comes back after hiding (a new canvas element).
  useEffect(() => {
    if (canvasRef.current) draw(canvasRef.current, marks);
  }, [marks, theme, hidden]);

  const local = (e: { clientX: number; clientY: number }) => {
    const r = canvasRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const panTo = (x: number, y: number) => {
    const p = fromOverview(frame, x, y);
    void flow.setCenter(p.x, p.y, { zoom: flow.getZoom(), duration: 0 });
  };

  const onMouseDown = (e: ReactMouseEvent) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const p = local(e);
    const tip = tipAt(marks, frame, p.x, p.y);
    if (tip) return onTip(tip);
    panTo(p.x, p.y);
    dragging.current = true;
    const move = (ev: MouseEvent) => {
      const q = local(ev);
      if (dragging.current) panTo(q.x, q.y);
    };
    const up = () => {
      dragging.current = false;
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  };
  const onMouseMove = (e: ReactMouseEvent) => {
    if (dragging.current) return;
    const p = local(e);
    setHover(tipAt(marks, frame, p.x, p.y));
  };

  if (hidden) return null;
  const hoverAt = hover ? toOverview(frame, hover.x, hover.y) : null;
  return (
    <Panel
      position={corner ?? 'bottom-right'}
      className="graph-overview"
      data-testid="graph-overview"
      data-corner={corner ?? 'bottom-right'}
      data-tips={marks.tips.length}
    >
      <div
        className="overview-box"
        style={OVERVIEW_BOX}
        onMouseDown={onMouseDown}
        onMouseMove={onMouseMove}
        onMouseLeave={() => setHover(null)}
      >
        <canvas
          ref={canvasRef}
          className="overview-canvas"
          style={OVERVIEW_BOX}
          aria-label="Overview of the tree: click a tip to go there, click or drag to pan"
          role="img"
          data-testid="overview-canvas"
        />
        {rect && (
          <div className="overview-viewport" data-testid="overview-viewport" style={minSize(rect, VIEWPORT_MIN)} />
        )}
        {hover && hoverAt && (
          <>
            <div
              className="overview-hover"
              data-testid="overview-hover"
              data-entry-id={hover.entryId}
              style={{ left: hoverAt.x, top: hoverAt.y }}
            />
            <div className="overview-label" style={hoverAt.y > OVERVIEW_BOX.height / 2 ? { top: 4 } : { bottom: 4 }}>
              {tipPreview(index, hover.entryId, lazyPreviews) || hover.entryId}
            </div>
          </>
        )}
      </div>
    </Panel>
  );
}
