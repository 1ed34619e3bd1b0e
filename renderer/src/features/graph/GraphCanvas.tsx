import { Background, BackgroundVariant, ReactFlow, type NodeMouseHandler } from '@xyflow/react';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useCanopy } from '../../app-context';
import { toFlowEdges } from './model/flow-edges';
import { toFlowNodes } from './model/flow-nodes';
import type { FlowNode } from './model/flow';
import { overviewMarks } from './model/overview';
import { GraphOverview } from './GraphOverview';
import { GraphSide } from './GraphSide';
import { TipPicker } from './TipPicker';
import { useCanvasKeys } from './useCanvasKeys';
import { MAX_ZOOM, MIN_ZOOM, useCanvasView } from './useCanvasView';
import { useFocusSideEffects } from './useFocusSideEffects';
import { useLod } from './useLod';
import { useTipJumps } from './useTipJumps';
import { nodeTypes } from './nodes';
import type { GraphModel } from './useGraphModel';

/** The pane's size, followed as it resizes. */
function usePaneSize(ref: React.RefObject<HTMLDivElement | null>) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  // A layout effect: the first paint already has the pane's size (the level-0 budget depends on it).
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const read = () => setSize({ width: box.clientWidth, height: box.clientHeight });
    read();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(read);
    observer.observe(box);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/** The react-flow canvas at its level of detail, with the overview docked beside it. */
export function GraphCanvas({ model }: { model: GraphModel }) {
  const { graph, view, hitSet, context, forksAt, parentAt } = model;
  const cursorId = useCanopy((s) => s.cursorId);
  const selectedId = useCanopy((s) => s.selectedEntryId);
  const whatIf = useCanopy((s) => s.whatIfLeaf);
  const highlight = useCanopy((s) => s.highlight);
  const minimapChoice = useCanopy((s) => s.minimap);
  const boxRef = useRef<HTMLDivElement>(null);
  const pane = usePaneSize(boxRef);
  const lod = useLod(model, pane.height);
  const { lodView } = lod;
  const canvasView = useCanvasView(model, lod, boxRef, pane.height);
  const { activate, onKeyDown } = useCanvasKeys(model, lod, canvasView.centerOn);
  useFocusSideEffects(model, lodView, canvasView);
  const highlightSet = useMemo(() => (highlight ? new Set(highlight.ids) : undefined), [highlight]);
  const whatIfPath = useMemo(() => whatIfDraws(model, whatIf?.entryId ?? null), [model, whatIf]);

  const nodes = useMemo(
    () =>
      toFlowNodes(view, lodView, graph, {
        cursorId,
        selectedId,
        matches: hitSet,
        context,
        whatIfLeafId: whatIf?.entryId ?? null,
        whatIfPath,
        highlight: highlightSet,
        forksAt,
        parentAt,
      }),
    [view, lodView, graph, cursorId, selectedId, hitSet, context, whatIf, whatIfPath, highlightSet, forksAt, parentAt],
  );
  const edges = useMemo(() => toFlowEdges(view, lodView, whatIfPath), [view, lodView, whatIfPath]);
  const marks = useMemo(() => overviewMarks(view, graph.leafId, graph.labels), [view, graph.leafId, graph.labels]);
  const tips = useTipJumps(view, lodView, marks);
  const onNodeClick: NodeMouseHandler<FlowNode> = (_e, node) => activate(node.id);

  return (
    <div className="graph-body" data-level={lodView.level} data-finest={lodView.finest}>
      <div
        ref={boxRef}
        className="graph-canvas"
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-testid="graph-canvas"
        data-level={lodView.level}
        aria-label="Entry graph. Arrow keys move and inspect, Enter expands a run or opens a cluster, + and − zoom (more or less detail)."
      >
        {canvasView.initialViewport && (
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            onNodeClick={onNodeClick}
            onInit={() => canvasView.setReady(true)}
            onMoveEnd={canvasView.onMoveEnd}
            onlyRenderVisibleElements
            nodesDraggable={false}
            nodesConnectable={false}
            nodesFocusable={false}
            edgesFocusable={false}
            elementsSelectable={false}
            disableKeyboardA11y
            minZoom={MIN_ZOOM}
            maxZoom={MAX_ZOOM}
            defaultViewport={canvasView.initialViewport}
            proOptions={{ hideAttribution: true }}
          >
            <Background variant={BackgroundVariant.Dots} gap={18} size={1} />
          </ReactFlow>
        )}
      </div>
      <GraphSide
        onFit={canvasView.fit}
        overview={
          minimapChoice !== 'off' && (
            <GraphOverview
              marks={marks}
              lodView={lodView}
              index={view.index}
              onTip={tips.jump}
              onPan={(id) => canvasView.centerOn(id, { duration: 0 })}
            />
          )
        }
      />
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
    </div>
  );
}

/** Draw nodes on the what-if leaf's path (its edges are drawn as the active path's are). */
function whatIfDraws(model: GraphModel, leafId: string | null): ReadonlySet<string> | undefined {
  if (!leafId) return undefined;
  const { index, view } = model;
  const out = new Set<string>();
  for (let i = index.indexOf.get(leafId) ?? -1; i !== -1; i = index.parent[i]!) {
    const d = view.drawTree.owner[i];
    if (d) out.add(d.id);
  }
  return out;
}
