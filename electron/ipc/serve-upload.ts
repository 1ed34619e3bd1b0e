/**
 * session.upload over HTTP, streamed: the body is decoded as it arrives (upload-body.ts) and the
 * text's bytes go to a private staging file, which the target then keeps (moved, never read whole
 * into memory). Whatever happens, the staged file is gone when the request ends.
 */
import type { IncomingMessage } from 'node:http';
import type { Handlers } from '../shared/contract';
import type { Result } from '../shared/errors';
import { validators } from '../shared/validate';
import { makePrivateDir, removeTree } from '../storage/private-dir';
import { readTextFile, removeFileIfAny, streamToNewFile } from '../storage/stream-file';
import { answer } from './dispatch';
import { UploadBodyError, UploadDecoder } from './upload-body';

/** Where uploads are staged and kept (the catalog's upload folder, outside every root). */
export interface UploadTarget {
  stagingPath(): string;
  /** Keeps the staged file (moving it) as the upload `name`. */
  accept(name: string, staged: string): Promise<{ sessionId: string }>;
}

/** The answer to send; null when the client went away (nobody to answer). */
export type UploadAnswer = { status: number; value: Result<unknown> } | null;

export async function receiveUpload(
  req: IncomingMessage,
  target: UploadTarget,
  maxBytes: number,
): Promise<UploadAnswer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return refused(413, `request body over ${maxBytes} bytes`);
  let staged: string;
  try {
    staged = target.stagingPath();
  } catch (err) {
    return { status: 200, value: await answer('session.upload', () => Promise.reject(err)) };
  }
  try {
    const decoder = new UploadDecoder(maxBytes);
    const end = await streamToNewFile(req, staged, decoder);
    if (end.kind === 'gone') return null;
    if (end.kind === 'failed') {
      if (!(end.error instanceof UploadBodyError)) throw end.error;
      const { status, message } = end.error;
      return refused(status, status === 413 ? message : `bad request body: ${message}`);
    }
    const name = decoder.name ?? '';
    const value = await answer('session.upload', async () => {
      // The checks every channel gets (dispatch): the name's length and characters.
      validators['session.upload']({ name, text: '' });
      return target.accept(name, staged);
    });
    return { status: 200, value };
  } finally {
    await removeFileIfAny(staged);
  }
}

function refused(status: number, message: string): UploadAnswer {
  return { status, value: { ok: false, error: { code: 'invalid_argument', message } } };
}

/**
 * Without a target (tests with handlers of their own): uploads are staged in a private folder of
 * the server's and handed to the session.upload handler as text.
 */
export class HandlerUploads implements UploadTarget {
  private dir: string | null = null;
  private n = 0;

  constructor(private readonly handlers: Handlers) {}

  stagingPath(): string {
    this.dir ??= makePrivateDir('canopy-serve-staging-');
    return `${this.dir}/${++this.n}.part`;
  }

  async accept(name: string, staged: string): Promise<{ sessionId: string }> {
    const args = validators['session.upload']({ name, text: await readTextFile(staged) });
    return this.handlers['session.upload'](args);
  }

  close(): void {
    if (this.dir) removeTree(this.dir);
    this.dir = null;
  }
}
