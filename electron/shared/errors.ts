/** Every error that crosses the IPC/HTTP boundary has one of these codes (a closed union). */
export const ERROR_CODES = [
  'invalid_argument', // the caller sent arguments that do not match the contract
  'unknown_channel', // no such channel
  'forbidden', // sender/token/host refused
  'outside_roots', // a path resolved outside every configured session root
  'not_found', // no session/entry with that id
  'invalid_session', // the file is not a readable pi session
  'unsupported_format', // format 4 and later
  'invalid_fork_target', // pi would refuse this fork target
  'nothing_to_clone',
  'already_exists', // a new file would overwrite an existing path
  'io', // the file system failed
  'cancelled', // the caller cancelled a long operation (session.cancelOpen)
  'internal', // a bug: reported, never swallowed
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorValue {
  code: ErrorCode;
  message: string;
}

export type Result<T> = { ok: true; data: T } | { ok: false; error: ErrorValue };

/** Thrown inside main-process code; converted to a `Result` at the transport boundary. */
export class CanopyError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CanopyError';
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
