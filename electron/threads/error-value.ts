/** An error as a worker thread posts it: its code (a CanopyError's, SQLite's) and message, nothing that cannot be cloned. */
export function errorValue(err: unknown): { code?: string; message: string } {
  const e = err as { code?: unknown; message?: unknown } | null;
  return {
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    message: typeof e?.message === 'string' ? e.message : String(err),
  };
}
