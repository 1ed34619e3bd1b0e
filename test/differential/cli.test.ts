/**
 * Differential test through the `canopy` command (runCli in-process, real files): `context --json`
 * and `fork` / `clone --json` against pi's own code, on a sample of corpus files. This checks the
 * whole chain (storage read → core → repo fork → file written on disk) against pi, not the core alone.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli';
import { sessionFileName, type Profile } from '../../electron/core';
import type { CorpusFile } from '../fixtures/corpus/build';
import { piFork, piRead, type PiForkRequest, type PiForkResult } from '../oracle/pi-oracle';
import { fileRng, freshIdNamer, hasParentCycle, makeCorpus, mapEntryIds, Report, type CorpusHandle } from './support';

let corpus: CorpusHandle;

beforeAll(async () => {
  // End to end through the command needs variety, not volume: a smaller corpus of the same kinds.
  corpus = await makeCorpus('cli', { perWriter: 20 });
}, 120_000);

afterAll(() => corpus?.cleanup());

async function cli(argv: string[]): Promise<{ code: number; lines: unknown[] }> {
  let out = '';
  const io = { stdout: { write: (c: string) => (out += c) }, stderr: { write: () => true } };
  const code = await runCli(argv, io);
  return {
    code,
    lines: out
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as unknown),
  };
}

/** Files with stable ids (v1 ids are random per read) and no cycles, from every writer. */
function sample(files: CorpusFile[]): CorpusFile[] {
  const rng = fileRng('cli', 'sample');
  const usable = files.filter((f) => !f.cyclic && f.format !== 1 && !f.features.includes('empty'));
  const byWriter = new Map<string, CorpusFile[]>();
  for (const f of usable) byWriter.set(f.writer, [...(byWriter.get(f.writer) ?? []), f]);
  return [...byWriter.values()].flatMap((list) => rng.sample(list, 5));
}

async function contextMatches(report: Report, file: CorpusFile, profile: Profile): Promise<void> {
  const pi = await piRead(file.path, profile, { scratchDir: corpus.scratch });
  const { code, lines } = await cli(['context', file.path, '--json', '--profile', profile]);
  const out = lines[0] as Record<string, any> | undefined;
  if (!pi.ok) {
    report.count(`${profile}: context of files pi refuses`);
    return;
  }
  report.count(`${profile}: context compared`);
  if (code !== 0 || !out || out.error) {
    report.mismatch(
      file.name,
      profile,
      'canopy context',
      `pi reads the file; canopy exits ${code}: ${JSON.stringify(out?.error)}`,
    );
    return;
  }
  for (const field of ['leafId', 'pathIds', 'contextEntryIds', 'context', 'labels', 'sessionName'] as const) {
    report.check(file.name, profile, `context ${field}`, pi.reading[field] ?? null, out[field] ?? null);
  }
}

const OPEN_FAILURES = new Set(['invalid_session', 'invalid_entry']);

async function forkMatches(
  report: Report,
  file: CorpusFile,
  profile: Profile,
  req: PiForkRequest,
  argv: string[],
): Promise<void> {
  const { code, lines } = await cli(argv);
  const out = lines[0] as Record<string, any> | undefined;
  const what = argv.slice(0, 1).concat(argv.slice(2)).join(' ');
  // The CLI picked the session id; H3 takes it as an option so headers compare exactly.
  const newSessionId = out?.ok ? String(out.header.id) : '019c0000-0000-7000-8000-00000000c1c1';
  let pi: PiForkResult;
  try {
    pi = await piFork(file.path, profile, req, { scratchDir: corpus.scratch, newSessionId });
  } catch (error) {
    // CA cannot open the file at all ("not a valid pi session").
    pi = {
      ok: false,
      error: { kind: 'invalid_session', message: (error as Error).message },
      sourcePath: file.path,
      sourceEntryIds: [],
    };
  }
  if (!pi.ok) {
    report.count(`${profile}: refusals compared`);
    if (out?.ok !== false) {
      report.mismatch(file.name, profile, what, `pi refuses (${pi.error.kind}); canopy exits ${code}`);
    } else if (OPEN_FAILURES.has(pi.error.kind)) {
      // pi cannot open the source: Canopy says invalid_session (or, for format 4, unsupported_format).
      if (!['invalid_session', 'unsupported_format'].includes(String(out.error?.kind))) {
        report.mismatch(
          file.name,
          profile,
          `${what} refusal kind`,
          `pi=${pi.error.kind} canopy=${String(out.error?.kind)}`,
        );
      }
    } else {
      report.check(file.name, profile, `${what} refusal kind`, pi.error.kind, out.error?.kind);
    }
    return;
  }
  if (code !== 0 || !out?.ok) {
    report.mismatch(file.name, profile, what, `pi forks; canopy exits ${code}: ${JSON.stringify(out?.error)}`);
    return;
  }
  report.count(`${profile}: forks compared`);
  const path = String(out.path);
  if (dirname(path) !== dirname(file.path))
    report.mismatch(file.name, profile, what, `new file not next to the source: ${path}`);
  if (basename(path) !== sessionFileName(String(out.header.timestamp), newSessionId)) {
    report.mismatch(file.name, profile, what, `file name ${basename(path)} does not match header time and id`);
  }
  const written = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const [header, ...entries] = written;
  const piHeader: Record<string, unknown> = { ...pi.header, parentSession: file.path };
  const cHeader: Record<string, unknown> = { ...header };
  const sourceHasCwd =
    typeof (JSON.parse(readFileSync(file.path, 'utf8').split('\n')[0] ?? '{}') as { cwd?: unknown }).cwd === 'string';
  for (const h of [piHeader, cHeader]) {
    delete h.timestamp;
    if (profile === 'ca') delete h.id;
    // Without a header cwd pi CA uses its process cwd; nothing to compare.
    if (!sourceHasCwd) delete h.cwd;
  }
  report.check(file.name, profile, `${what} header`, piHeader, cHeader);
  const source = new Set(pi.sourceEntryIds);
  report.check(
    file.name,
    profile,
    `${what} entries`,
    mapEntryIds(pi.entries, freshIdNamer(source)),
    mapEntryIds(entries, freshIdNamer(source)),
  );
}

async function runProfile(profile: Profile): Promise<Report> {
  const report = new Report();
  for (const file of sample(corpus.files)) {
    const text = readFileSync(file.path, 'utf8');
    if (hasParentCycle(text)) continue;
    await contextMatches(report, file, profile);
    const ids = text
      .split('\n')
      .slice(1)
      .flatMap((l) => {
        try {
          const id = (JSON.parse(l) as { id?: unknown }).id;
          return typeof id === 'string' ? [id] : [];
        } catch {
          return [];
        }
      });
    if (ids.length === 0) continue;
    const rng = fileRng(file.name, `cli-${profile}`);
    const target = rng.pick(ids);
    await forkMatches(report, file, profile, { kind: 'fork', entry: { id: target }, position: 'at' }, [
      'fork',
      file.path,
      '--entry',
      target,
      '--position',
      'at',
      '--profile',
      profile,
      '--json',
    ]);
    const user = ids.find(
      (id) =>
        text.includes(`"id":"${id}","parentId"`) &&
        new RegExp(`"id":"${id}"[^\\n]*"message":\\{"role":"user"`).test(text),
    );
    if (user) {
      await forkMatches(report, file, profile, { kind: 'fork', entry: { id: user }, position: 'before' }, [
        'fork',
        file.path,
        '--entry',
        user,
        '--profile',
        profile,
        '--json',
      ]);
    }
    await forkMatches(report, file, profile, { kind: 'clone' }, ['clone', file.path, '--profile', profile, '--json']);
  }
  return report;
}

describe('differential: the canopy command vs pi', () => {
  for (const profile of ['ca', 'h3'] as const) {
    it(`${profile}: context --json and fork/clone --json match pi`, async () => {
      const report = await runProfile(profile);
      console.log(report.summary(`differential cli, profile ${profile}`));
      if (report.mismatches.length > 0)
        expect.fail(`${report.mismatches.length} mismatches with pi:\n${report.failureText()}`);
    });
  }
});
