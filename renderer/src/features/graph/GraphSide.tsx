import { useReactFlow } from '@xyflow/react';
import type { ReactNode } from 'react';

/**
 * The column docked right of the canvas: the overview above, the zoom buttons below, so neither
 * ever covers a node.
 */
export function GraphSide({ overview, onFit }: { overview: ReactNode; onFit(): void }) {
  const flow = useReactFlow();
  return (
    <div className="graph-side">
      {overview ?? <div className="graph-side-fill" />}
      <div className="graph-zoom" role="group" aria-label="Zoom">
        <button
          type="button"
          title="Zoom in: more detail"
          aria-label="zoom in"
          onClick={() => void flow.zoomIn({ duration: 150 })}
        >
          +
        </button>
        <button
          type="button"
          title="Zoom out"
          aria-label="zoom out"
          onClick={() => void flow.zoomOut({ duration: 150 })}
        >
          −
        </button>
        <button
          type="button"
          title="Fit: the session's skeleton"
          aria-label="fit view"
          data-testid="canvas-fit"
          onClick={onFit}
        >
          <svg viewBox="0 0 32 30" aria-hidden>
            <path d="M3.7 11.1V4.3h6.7V1H.5v10.1h3.2zm24.6 0V4.3h-6.7V1h9.9v10.1h-3.2zM3.7 18.9v6.8h6.7V29H.5V18.9h3.2zm24.6 0v6.8h-6.7V29h9.9V18.9h-3.2z" />
          </svg>
        </button>
      </div>
    </div>
  );
}
