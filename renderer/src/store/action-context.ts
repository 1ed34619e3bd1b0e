import type { Api, ErrorValue, Result } from '../lib/shared';
import type { Actions, CanopyState, CanopyStore } from './index';
import type { Summaries } from './summaries';

/** An answer the asking view shows itself: the data, or the error to show in its place. */
export type Outcome<T> = { data: T } | { error: ErrorValue };
export type Check = <T>(result: Result<T>) => Outcome<T>;

/** What each slice's actions are made from. */
export interface ActionContext {
  api: Api;
  store: CanopyStore;
  s: () => CanopyState;
  /** Unwraps a result; a refused token becomes the app-wide error. */
  check: Check;
  /** The sidebar's summaries: filled by the sessions actions, stopped with the app. */
  summaries: Summaries;
  /** Every slice's actions, complete once createActions returns: slices call each other through it. */
  actions: Actions;
}

export function createCheck(store: CanopyStore): Check {
  return (result) => {
    if (result.ok) return { data: result.data };
    if (result.error.code === 'forbidden') store.getState().setFatalError(result.error);
    return { error: result.error };
  };
}
