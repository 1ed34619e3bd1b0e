import { SIDE_Y } from '../model/flow';

/** Handles are only anchors for edges (flow.ts declares them): never seen, never grabbed. */
export const hidden = { opacity: 0, pointerEvents: 'none' as const };
/** Side-lane handles sit where flow.ts declares them (SIDE_Y), not at the edge's middle. */
export const sideHidden = { ...hidden, top: SIDE_Y };
