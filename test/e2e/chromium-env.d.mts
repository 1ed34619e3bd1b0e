export declare const REPO: string;
export declare const RENDERER_DIR: string;
export declare const CHROMIUM: string;
export declare const CHROMIUM_MISSING: string;
export declare const CHROMIUM_ARGS: readonly string[];
export declare function ensureRendererBuilt(opts?: { quiet?: boolean }): void;
