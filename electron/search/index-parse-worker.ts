/**
 * The index's parse worker thread: parses whole session files for a first build (search/
 * parse-ahead.ts), so JSON parsing runs on one core while the search thread inserts on the other.
 * It reads session files and never writes.
 */
import { parentPort } from 'node:worker_threads';
import { parseFile } from './file-parse';
import { errorValue } from '../threads/error-value';

const port = parentPort;
if (!port) throw new Error('index-parse-worker runs only as a worker thread');

port.on('message', ({ id, task }: { id: number; task: { path: string } }) => {
  parseFile(task.path).then(
    (value) => port.postMessage({ id, ok: true, value }),
    (err: unknown) => port.postMessage({ id, ok: false, error: errorValue(err) }),
  );
});
