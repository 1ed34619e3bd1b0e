import type { Page } from 'playwright-core';

export interface FitFacts {
  /** Drawn nodes inside the pane. */
  drawn: number;
  kinds: string[];
  tipsShown: number;
  tipsTotal: number;
  compactionsShown: number;
  compactionsTotal: number;
  /** Text labels on the drawn nodes, and those ≥ 11 px on screen. */
  labels: number;
  readable: number;
  underOverview: string[];
  outside: string[];
}
export declare function fitFacts(page: Page): Promise<FitFacts>;
