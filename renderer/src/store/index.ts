import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Api } from '../lib/shared';
import { createCheck, type ActionContext } from './action-context';
import { createAppActions, type AppActions } from './app-actions';
import { createContextActions, type ContextActions } from './context-actions';
import { createForkActions, type ForkActions } from './fork-actions';
import { createGraphActions, type GraphActions } from './graph-actions';
import { createSelectionActions, type SelectionActions } from './selection-actions';
import { createSessionsActions, type SessionsActions } from './sessions-actions';
import { createSettingsActions, type SettingsActions } from './settings-actions';
import { createSummaries } from './summaries';
import { createAppSlice, type AppSlice } from './app-slice';
import { createContextSlice, type ContextSlice } from './context-slice';
import { createForkSlice, type ForkSlice } from './fork-slice';
import { createGraphSlice, type GraphSlice } from './graph-slice';
import { createSelectionSlice, type SelectionSlice } from './selection-slice';
import { createSessionsSlice, type SessionsSlice } from './sessions-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createUiSlice, type UiSlice } from './ui-slice';
import { createFollowSlice, type FollowSlice } from './follow-slice';
import { createFollowActions, type FollowActions } from './follow-actions';
import { createLiveActions, type LiveActions } from './live-actions';
import { createStorageActions, type StorageActions } from './storage-actions';
import { createDoctorActions, type DoctorActions } from './doctor-actions';
import { createCompareActions, type CompareActions } from './compare-actions';
import { createShareActions, type ShareActions } from './share-actions';
import { createShareSlice, type ShareSlice } from './share-slice';
import { createSearchActions, type SearchActions } from './search-actions';
import { createSearchSlice, type SearchSlice } from './search-slice';
import { createKeepSlice, type KeepSlice } from './keep-slice';
import { createKeepActions, type KeepActions } from './keep-actions';
import { createReportActions, type ReportActions } from './report-actions';
import { createReportSlice, type ReportSlice } from './report-slice';
import { createExportActions, type ExportActions } from './export-actions';
import { createExportSlice, type ExportSlice } from './export-slice';
import { createCompareSlice, type CompareSlice } from './compare-slice';
import { createStorageSlice, type StorageSlice } from './storage-slice';
import { createDoctorSlice, type DoctorSlice } from './doctor-slice';

export type CanopyState = AppSlice &
  SessionsSlice &
  GraphSlice &
  SelectionSlice &
  SettingsSlice &
  ContextSlice &
  ForkSlice &
  UiSlice &
  FollowSlice &
  ShareSlice &
  SearchSlice &
  KeepSlice &
  ReportSlice &
  ExportSlice &
  CompareSlice &
  StorageSlice &
  DoctorSlice;
export type CanopyStore = StoreApi<CanopyState>;

/** A fresh store (one per app; tests make their own). */
export function createCanopyStore(): CanopyStore {
  return createStore<CanopyState>()((...a) => ({
    ...createAppSlice(...a),
    ...createSessionsSlice(...a),
    ...createGraphSlice(...a),
    ...createSelectionSlice(...a),
    ...createSettingsSlice(...a),
    ...createContextSlice(...a),
    ...createForkSlice(...a),
    ...createUiSlice(...a),
    ...createFollowSlice(...a),
    ...createShareSlice(...a),
    ...createSearchSlice(...a),
    ...createKeepSlice(...a),
    ...createReportSlice(...a),
    ...createExportSlice(...a),
    ...createCompareSlice(...a),
    ...createStorageSlice(...a),
    ...createDoctorSlice(...a),
  }));
}

/**
 * Everything that talks to the Api and writes the store, one group per slice. Components call
 * these; the slices stay synchronous and testable on their own.
 */
export type Actions = AppActions &
  SessionsActions &
  GraphActions &
  SelectionActions &
  ContextActions &
  ForkActions &
  SettingsActions &
  FollowActions &
  LiveActions &
  StorageActions &
  DoctorActions &
  CompareActions &
  ShareActions &
  SearchActions &
  KeepActions &
  ReportActions &
  ExportActions;

export function createActions(api: Api, store: CanopyStore): Actions {
  // Filled below; a slice's actions reach another's through it only when they run.
  const actions = {} as Actions;
  const check = createCheck(store);
  const ctx: ActionContext = {
    api,
    store,
    s: store.getState,
    check,
    summaries: createSummaries(api, store, check),
    actions,
  };
  return Object.assign(
    actions,
    createAppActions(ctx),
    createSessionsActions(ctx),
    createGraphActions(ctx),
    createSelectionActions(ctx),
    createContextActions(ctx),
    createForkActions(ctx),
    createSettingsActions(ctx),
    createFollowActions(ctx),
    createLiveActions(ctx),
    createStorageActions(ctx),
    createDoctorActions(ctx),
    createCompareActions(ctx),
    createShareActions(ctx),
    createSearchActions(ctx),
    createKeepActions(ctx),
    createReportActions(ctx),
    createExportActions(ctx),
  );
}

export type { SessionSort } from './sessions-slice';
export type { MinimapChoice, ThemeChoice } from './ui-slice';
export type { RightTab } from './context-slice';
export type { ForkMode, ForkOutcome, ForkPreviewState } from './fork-slice';
export type { MiddleView } from './follow-slice';
export type { Outcome } from './action-context';
