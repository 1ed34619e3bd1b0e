/** The archive journal's pure rules: a journal read back (a torn last line too) and what resuming does. */
import { describe, expect, it } from 'vitest';
import { checkManifest } from '../../../electron/store-views/archive/manifest-rules';
import {
  familyFolderName,
  readJournal,
  recoveryOf,
  runFinished,
  storedName,
  type JournalRecord,
} from '../../../electron/store-views/archive/journal-rules';

const file = { from: '/r/p/a.jsonl', to: '/x/k/0-a.jsonl', bytes: 3, mtimeMs: 1 };
const fam = (key: string): JournalRecord => ({
  op: 'family',
  key,
  family: key,
  folder: `/x/${key}`,
  roots: ['/r'],
  files: [file, file],
});
const lines = (...r: JournalRecord[]) => r.map((x) => JSON.stringify(x));

describe('journal rules', () => {
  it('rolls back an archive cut before commit, goes forward after it, and always forward for a restore', () => {
    const s = readJournal([
      ...lines(
        { op: 'begin', kind: 'archive', pid: 1, at: '' },
        fam('a'),
        { op: 'placed', key: 'a', index: 0, sha256: 'h' },
        fam('b'),
        { op: 'placed', key: 'b', index: 0, sha256: 'h' },
        { op: 'placed', key: 'b', index: 1, sha256: 'h' },
        { op: 'commit', key: 'b' },
        { op: 'removed', key: 'b', index: 0 },
        fam('c'),
        { op: 'commit', key: 'c' },
        { op: 'putback', key: 'c', reason: 'written' },
        fam('d'),
        { op: 'undone', key: 'd', reason: 'gone' },
      ),
      '{"op":"done","key":"b"', // torn by the crash: never acted on
    ]);
    expect(s.torn).toBe(1);
    expect(s.families.map((f) => recoveryOf('archive', f).action)).toEqual(['rollback', 'forward', 'putback', 'none']);
    expect([...s.families[1]!.removed]).toEqual([0]);
    expect(recoveryOf('restore', s.families[0]!).action).toBe('forward');
    expect(runFinished(s)).toBe(false);
    expect(
      runFinished(
        readJournal(lines({ op: 'begin', kind: 'archive', pid: 1, at: '' }, fam('a'), { op: 'done', key: 'a' })),
      ),
    ).toBe(true);
  });

  it('names folders and stored files within a file system limit, whatever the id', () => {
    expect(familyFolderName('a/b'.repeat(100), 'T', 'u').length).toBeLessThan(70);
    expect(familyFolderName('../..', 'T', 'u')).not.toContain('/');
    expect(storedName(3, 'x'.repeat(300)).length).toBeLessThanOrEqual(200);
  });

  it('a manifest may restore only to .jsonl paths inside a known root, from files inside its folder', () => {
    const m = {
      version: 2,
      family: 'f',
      archivedAt: '',
      roots: ['/r'],
      files: [{ original: '/r/p/a.jsonl', stored: '0-a.jsonl', bytes: 1, sha256: 'h' }],
    };
    expect(typeof checkManifest(m, ['/r'])).toBe('object');
    expect(checkManifest(m, ['/other'])).toMatch(/outside every session root/);
    const bad = (edit: Record<string, unknown>) => checkManifest({ ...m, files: [{ ...m.files[0], ...edit }] }, ['/r']);
    expect(bad({ original: '/r/p/../../etc/x.jsonl' })).toMatch(/no session file path/);
    expect(bad({ original: '/r/p/a.sh' })).toMatch(/no session file path/);
    expect(bad({ stored: '../a.jsonl' })).toMatch(/outside its folder/);
    expect(bad({ sha256: 7 })).toMatch(/without its path, size or hash/);
    expect(checkManifest({ ...m, files: [m.files[0], m.files[0]] }, ['/r'])).toMatch(/twice/);
    expect(checkManifest({ ...m, roots: ['/r/q'] }, ['/r'])).toMatch(/outside the roots the family came from/);
  });
});
