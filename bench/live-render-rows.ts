/**
 * `npm run bench` (issue 38): live at real size. A copy of the 100 MiB session (never the cached file
 * itself: it is appended to) under a root `canopy serve` watches, open in Chromium, appended to 40
 * times at 4 per second. Child: bench/live-render.mjs (it serves the built app).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Measured {
  ok: boolean;
  error?: string;
  skipped?: string;
  [key: string]: unknown;
}

export interface LiveRenderDeps {
  rows: string[][];
  notes: string[];
  log: (text: string) => void;
  /** The cached 100 MiB session and its id. */
  big: { path: string; sessionId: string };
  run: (argv: string[]) => Measured;
}

const noteRow = (label: string, value: string, note: string): string[] => [
  label,
  value,
  ...Array<string>(7).fill('–'),
  note,
];

export function liveRenderRows(d: LiveRenderDeps): void {
  const root = mkdtempSync(join(tmpdir(), 'canopy-live-render-'));
  try {
    const project = join(root, '--bench-live--');
    mkdirSync(project, { recursive: true });
    const file = join(project, 'live-100mb.jsonl');
    copyFileSync(d.big.path, file);
    d.log('bench: live at real size (Chromium, 40 appends at 4/s to the 100 MiB session)');
    const r = d.run([root, d.big.sessionId, file]);
    if (!r.ok) {
      const why = r.skipped ? `skipped: ${r.skipped}` : `fails: ${String(r.error)}`;
      d.rows.push(noteRow('live: write → node drawn, 100 MiB session', why, ''));
      d.log(`bench: live ${why}`);
      return;
    }
    const n = (k: string): number => r[k] as number;
    const ms = (k: string): string => `${n(k).toFixed(0)} ms`;
    d.rows.push(
      noteRow(
        'live: write → node drawn and followed, 100 MiB session, p95 (Chromium)',
        ms('p95'),
        `≤ 250 ms; p50 ${ms('p50')}, max ${ms('max')}; ${n('missing')} of ${n('appends')} appends missing`,
      ),
    );
    const perAppend = n('appendedBytes') / n('appends');
    d.rows.push(
      noteRow(
        'live: bytes sent per append (events), 100 MiB session',
        `${(n('eventBytes') / n('appends')).toFixed(0)} B`,
        `${(n('eventBytes') / n('appendedBytes')).toFixed(1)}× the ${perAppend.toFixed(0)} B appended; largest event ${n('eventBytesMax')} B`,
      ),
    );
    d.notes.push(
      `live: while appended to, the page asked ${JSON.stringify(r.answers)} (${(n('answerBytes') / 1024).toFixed(0)} KiB of answers in all: the followed entry's detail and its transcript rows); serve ${(n('busyCores') - n('idleCores')).toFixed(3)} core above idle (idle ${n('idleCores').toFixed(3)}, appended ${n('busyCores').toFixed(3)})`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
