import {
  Background,
  BackgroundVariant,
  ControlButton,
  Controls,
  ReactFlow,
  useReactFlow,
  type NodeMouseHandler,
} from '@xyflow/react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { fitViewport } from './model/fit';
import { toFlowEdges, toFlowNodes, type FlowNode } from './model/flow';
import { NODE_HEIGHT, NODE_WIDTH } from './model/layout';
import { isNavKey, navigate } from './model/navigate';
import { overviewMarks } from './model/overview';
import { GraphOverview } from './GraphOverview';
import { TipPicker } from './TipPicker';
import { useTipJumps } from './useTipJumps';
import { nodeTypes } from './nodes';
import type { GraphModel } from './useGraphModel';

const DEFAULT_VIEWPORT = { x: 40, y: 40, zoom: 1 };
/** Canvas width (px) from which the minimap shows by default: the 1280 px window's default panes
 * leave ~560 px, where its 200 px box still leaves most of the canvas free. */
export const MINIMAP_MIN_CANVAS = 520;
const MIN_ZOOM = 0.05;
/** Arrow moves select the entry under the cursor once the keys have rested this long. */
const CURSOR_SELECT_MS = 150;

/** The middle of a placed node (what centring on it aims at). */
function middleOf(p: { x: number; y: number }): { x: number; y: number } {
  return { x: p.x + NODE_WIDTH / 2, y: p.y + NODE_HEIGHT / 2 };
}

/** The drawn node a focus request names: itself when drawn, else the node that shows the entry. */
function drawIdOf(view: GraphModel['view'], id: string): string | null {
  return view.drawTree.nodes.has(id) ? id : (view.drawNodeOf(id)?.id ?? null);
}

/** The react-flow canvas: drawing, clicks, keyboard moves and centring requests. */
export function GraphCanvas({ model }: { model: GraphModel }) {
  const { graph, view, hitSet, context, forksAt, parentAt } = model;
  const actions = useActions();
  const cursorId = useCanopy((s) => s.cursorId);
  const setCursor = useCanopy((s) => s.setCursor);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const expandChain = useCanopy((s) => s.expandChain);
  const focusRequest = useCanopy((s) => s.focusRequest);
  const requestFocus = useCanopy((s) => s.requestFocus);
  const whatIfLeafId = useCanopy((s) => s.whatIfLeaf?.entryId ?? null);
  const highlight = useCanopy((s) => s.highlight);
  const minimapChoice = useCanopy((s) => s.minimap);
  const [canvasWidth, setCanvasWidth] = useState(0);
  const flow = useReactFlow();
  const [ready, setReady] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  // The first viewport: on the node a focus request asks for (the leaf, on open), so the first
  // frame draws its neighbourhood rather than the root's (the request then centres it exactly).
  const [initialViewport, setInitialViewport] = useState<{ x: number; y: number; zoom: number } | null>(null);
  useLayoutEffect(() => {
    if (initialViewport) return;
    const box = boxRef.current;
    const id = focusRequest?.nodeId;
    const drawId = id === undefined ? null : drawIdOf(view, id);
    const p = drawId === null ? undefined : view.layout.placed.get(drawId);
    if (!box || !p) {
      setInitialViewport(DEFAULT_VIEWPORT);
      return;
    }
    const mid = middleOf(p);
    setInitialViewport({ x: box.clientWidth / 2 - mid.x, y: box.clientHeight / 2 - mid.y, zoom: 1 });
  }, [initialViewport, focusRequest, view]);
  // The minimap would cover nodes on a narrow canvas (1280 px window, default panes): auto hides it there.
  useEffect(() => {
    const box = boxRef.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setCanvasWidth(box.clientWidth));
    observer.observe(box);
    setCanvasWidth(box.clientWidth);
    return () => observer.disconnect();
  }, []);
  const showMinimap = minimapChoice === 'on' || (minimapChoice === 'auto' && canvasWidth >= MINIMAP_MIN_CANVAS);
  const handledSeq = useRef(0);
  const handledHighlight = useRef(0);
  const highlightSet = useMemo(() => (highlight ? new Set(highlight.ids) : undefined), [highlight]);

  const nodes = useMemo(
    () =>
      toFlowNodes(view, graph, {
        cursorId,
        selectedId,
        matches: hitSet,
        context,
        whatIfLeafId,
        highlight: highlightSet,
        forksAt,
        parentAt,
      }),
    [view, graph, cursorId, selectedId, hitSet, context, whatIfLeafId, highlightSet, forksAt, parentAt],
  );
  const edges = useMemo(() => toFlowEdges(view), [view]);
  const marks = useMemo(() => overviewMarks(view, graph.leafId), [view, graph.leafId]);
  const tips = useTipJumps(view, marks);
  // The overview never covers the leaf or the selection (it moves to a free corner).
  const avoid = useMemo(() => {
    const out = marks.leaf ? [marks.leaf] : [];
    const sel = selectedId ? view.drawNodeOf(selectedId) : null;
    const p = sel ? view.layout.placed.get(sel.id) : undefined;
    if (p) out.push(middleOf(p));
    return out;
  }, [marks, selectedId, view]);

  const centerOn = useCallback(
    (drawId: string, opts: { zoom?: number; duration?: number } = {}) => {
      const p = view.layout.placed.get(drawId);
      if (!p) return false;
      const zoom = opts.zoom ?? Math.max(flow.getZoom(), 0.8);
      const mid = middleOf(p);
      void flow.setCenter(mid.x, mid.y, { zoom, duration: opts.duration ?? 250 });
      return true;
    },
    [flow, view],
  );

  // Centre on whatever was asked for (leaf on open, a deep-linked entry, a search hit), once the
  // drawing that shows it exists.
  useEffect(() => {
    if (!ready || !focusRequest || focusRequest.seq === handledSeq.current) return;
    const id = focusRequest.nodeId;
    const drawId = drawIdOf(view, id);
    if (drawId && centerOn(drawId, { zoom: Math.max(flow.getZoom(), 0.9) })) {
      handledSeq.current = focusRequest.seq;
      setCursor(drawId);
    }
  }, [ready, focusRequest, view, centerOn, flow, setCursor]);

  // Bring highlighted entries (a compaction's hidden span) into view, once per request.
  useEffect(() => {
    if (!ready || !highlight || highlight.seq === handledHighlight.current) return;
    handledHighlight.current = highlight.seq;
    const drawIds = new Set<string>();
    for (const id of highlight.ids) {
      const d = view.drawNodeOf(id);
      if (d) drawIds.add(d.id);
    }
    if (drawIds.size > 0)
      void flow.fitView({ nodes: [...drawIds].map((id) => ({ id })), padding: 0.2, duration: 300, maxZoom: 1 });
  }, [ready, highlight, view, flow]);

  const fit = useCallback(() => {
    const box = boxRef.current;
    const { width, height } = view.layout;
    const first = view.layout.order[0];
    const root = first === undefined ? undefined : view.layout.placed.get(first);
    const v =
      box &&
      fitViewport(
        { width, height: height + NODE_HEIGHT },
        { width: box.clientWidth, height: box.clientHeight },
        {
          minZoom: MIN_ZOOM,
          ...(root ? { rootX: root.x + NODE_WIDTH / 2 } : {}),
        },
      );
    if (v) void flow.setViewport(v, { duration: 250 });
  }, [flow, view]);

  // Fit requests (toolbar, palette, key) made after the canvas mounted.
  const fitRequest = useCanopy((s) => s.fitRequest);
  const handledFit = useRef(fitRequest);
  useEffect(() => {
    if (!ready || fitRequest === handledFit.current) return;
    handledFit.current = fitRequest;
    fit();
  }, [ready, fitRequest, fit]);

  // A filter change lays the tree out anew: keep the selection (or the leaf) in view, not the
  // old coordinates (which may now be empty canvas).
  const filterMode = useCanopy((s) => s.filterMode);
  const showLeafRecords = useCanopy((s) => s.showLeafRecords);
  const filterKey = `${filterMode}/${showLeafRecords}`;
  const lastFilter = useRef(filterKey);
  useEffect(() => {
    if (lastFilter.current === filterKey) return;
    lastFilter.current = filterKey;
    const id = selectedId ?? graph.leafId ?? view.drawTree.roots[0];
    if (id) requestFocus(id);
  }, [filterKey, selectedId, graph.leafId, view, requestFocus]);

  const activate = useCallback(
    (id: string) => {
      const draw = view.drawTree.nodes.get(id);
      if (!draw) return;
      if (draw.kind === 'chain') {
        const firstId = view.index.ids[draw.first]!;
        expandChain(firstId);
        setCursor(firstId);
      } else {
        setCursor(id);
        actions.selectEntry(id);
      }
    },
    [view, expandChain, setCursor, actions],
  );

  const onNodeClick: NodeMouseHandler<FlowNode> = useCallback((_e, node) => activate(node.id), [activate]);

  const selectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (selectTimer.current && clearTimeout(selectTimer.current)), []);
  // The cursor now, for a cursor-follow that fires later: a selection made since (Enter, a search jump
  // moving the cursor) is not undone by the step that scheduled it.
  const cursorNow = useRef(cursorId);
  cursorNow.current = cursorId;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (
      e.target instanceof HTMLInputElement ||
      e.target instanceof HTMLTextAreaElement ||
      e.target instanceof HTMLSelectElement
    )
      return;
    const start =
      cursorId && view.drawTree.nodes.has(cursorId)
        ? cursorId
        : (view.drawNodeOf(selectedId ?? graph.leafId ?? '')?.id ?? view.drawTree.roots[0] ?? null);
    if (isNavKey(e.key)) {
      e.preventDefault();
      const next = navigate(view.drawTree, start, e.key);
      if (next) {
        setCursor(next);
        centerOn(next, { duration: 120 });
        // The inspector follows the cursor without Enter, once the keys rest (one read, not one per step).
        if (selectTimer.current) clearTimeout(selectTimer.current);
        if (view.drawTree.nodes.get(next)?.kind !== 'chain')
          selectTimer.current = setTimeout(() => {
            if (cursorNow.current === next) actions.selectEntry(next);
          }, CURSOR_SELECT_MS);
      }
    } else if (e.key === 'Enter' && start) {
      e.preventDefault();
      if (selectTimer.current) clearTimeout(selectTimer.current);
      activate(start);
    } else if (e.key === 'Escape') {
      if (selectTimer.current) clearTimeout(selectTimer.current);
      actions.selectEntry(null);
    }
  };

  return (
    <>
      <div
        ref={boxRef}
        className="graph-canvas"
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-testid="graph-canvas"
        aria-label="Entry graph. Arrow keys move and inspect, Enter expands a run."
      >
        {initialViewport && (
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            onNodeClick={onNodeClick}
            onInit={() => setReady(true)}
            onlyRenderVisibleElements
            nodesDraggable={false}
            nodesConnectable={false}
            nodesFocusable={false}
            edgesFocusable={false}
            elementsSelectable={false}
            disableKeyboardA11y
            minZoom={MIN_ZOOM}
            maxZoom={2}
            defaultViewport={initialViewport}
            proOptions={{ hideAttribution: true }}
          >
            <Background variant={BackgroundVariant.Dots} gap={18} size={1} />
            <Controls showInteractive={false} showFitView={false}>
              <ControlButton onClick={fit} title="Fit the whole tree" aria-label="fit view" data-testid="canvas-fit">
                <svg viewBox="0 0 32 30" aria-hidden>
                  <path d="M3.7 11.1V4.3h6.7V1H.5v10.1h3.2zm24.6 0V4.3h-6.7V1h9.9v10.1h-3.2zM3.7 18.9v6.8h6.7V29H.5V18.9h3.2zm24.6 0v6.8h-6.7V29h9.9V18.9h-3.2z" />
                </svg>
              </ControlButton>
            </Controls>
            {showMinimap && <GraphOverview marks={marks} index={view.index} onTip={tips.jump} avoid={avoid} />}
          </ReactFlow>
        )}
      </div>
      {tips.pickerOpen && (
        <TipPicker
          tips={marks.tips}
          index={view.index}
          onPick={(tip) => {
            tips.jump(tip);
            boxRef.current?.focus();
          }}
          onClose={() => {
            tips.setPickerOpen(false);
            boxRef.current?.focus();
          }}
        />
      )}
    </>
  );
}
