import type { StateCreator } from 'zustand/vanilla';
import type { ErrorValue, ForkPreviewDto, ForkRequestDto, ForkResultDto } from '../lib/shared';
import type { CanopyState } from './index';

/** pi's three ways to start a new file from the graph: /fork (before a user message), fork at an entry, /clone. */
export type ForkMode = 'before' | 'at' | 'clone';

export interface ForkPreviewState {
  /** Which request (session, profile, request) this preview answers: see forkKey(). */
  key: string;
  loading: boolean;
  preview: ForkPreviewDto | null;
  error: ErrorValue | null;
}

export interface ForkOutcome {
  sourceSessionId: string;
  request: ForkRequestDto;
  result: ForkResultDto;
  /** The source's cwd (the resume command changes to it first). */
  cwd?: string;
  /** A fork before a user message: that message, which pi puts back in the editor (offered to copy). */
  editorText?: string | null;
}

export interface ForkSlice {
  /** null = the default for the selected entry (before for a user message, else at). */
  forkMode: ForkMode | null;
  forkPreview: ForkPreviewState | null;
  forking: boolean;
  forkError: ErrorValue | null;
  /** The last fork written (shown with its `pi --session` command until dismissed). */
  forkOutcome: ForkOutcome | null;

  setForkMode(mode: ForkMode | null): void;
  startForkPreview(key: string): void;
  setForkPreview(key: string, preview: ForkPreviewDto | null, error?: ErrorValue | null): void;
  setForking(forking: boolean, error?: ErrorValue | null): void;
  setForkOutcome(outcome: ForkOutcome | null): void;
}

/** A stable key for one preview request on one version (size) of the file. */
export function forkKey(sessionId: string, profile: string | null, request: ForkRequestDto, sizeBytes: number): string {
  return JSON.stringify([sessionId, profile, request, sizeBytes]);
}

export const createForkSlice: StateCreator<CanopyState, [], [], ForkSlice> = (set) => ({
  forkMode: null,
  forkPreview: null,
  forking: false,
  forkError: null,
  forkOutcome: null,

  setForkMode: (forkMode) => set({ forkMode, forkError: null }),
  startForkPreview: (key) => set({ forkPreview: { key, loading: true, preview: null, error: null }, forkError: null }),
  setForkPreview: (key, preview, error = null) =>
    set((state) => (state.forkPreview?.key === key ? { forkPreview: { key, loading: false, preview, error } } : {})),
  setForking: (forking, forkError = null) => set({ forking, forkError }),
  setForkOutcome: (forkOutcome) => set({ forkOutcome }),
});
