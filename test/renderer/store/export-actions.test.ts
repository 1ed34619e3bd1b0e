import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import type { Result } from '../../../electron/shared/errors';
import type { ExportPreviewDto, ExportRequestDto } from '../../../renderer/src/lib/shared';
import { fakeApi } from '../fake-api';

const request = (format: ExportRequestDto['format']): ExportRequestDto => ({ sessionId: 's1', format, redact: true });
const preview = (name: string) =>
  ({ suggestedName: name, bytes: 10, leafId: 'e1', replacements: [] }) as unknown as ExportPreviewDto;
const LEDGER = [
  { time: '2026-01-01T00:00:00Z', format: 'md', redacted: true, sessionId: 's1', leafId: null, writtenTo: '/x' },
];

describe('the export dialog in the store', () => {
  it('opens and closes for everyone who asks (palette, Share button, the dialog)', () => {
    const store = createCanopyStore();
    const actions = createActions(fakeApi({}).api, store);
    actions.openExport();
    expect(store.getState().exporting.open).toBe(true);
    actions.closeExport();
    expect(store.getState().exporting.open).toBe(false);
  });

  it('keeps the preview of the form as it is now: an answer for an earlier form is dropped', async () => {
    const answers: Array<(r: Result<ExportPreviewDto>) => void> = [];
    const fake = fakeApi({ 'export.preview': () => new Promise((resolve) => answers.push(resolve)) });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    const older = actions.previewExport(request('html'));
    const newer = actions.previewExport(request('md'));
    expect(store.getState().exporting.preview).toBeNull();
    answers[1]!({ ok: true, data: preview('a.md') });
    await newer;
    answers[0]!({ ok: true, data: preview('a.html') });
    await older;
    expect(store.getState().exporting.preview).toEqual(preview('a.md'));
  });

  it('writes, keeps the answer and reads the ledger again; an error is kept to show', async () => {
    let fail = false;
    const fake = fakeApi({
      'export.write': async () =>
        fail
          ? { ok: false, error: { code: 'io', message: 'cannot write' } }
          : { ok: true, data: { fileName: 'a.md', writtenTo: null, content: '# a' } as never },
      'export.ledger': async () => ({ ok: true, data: LEDGER as never }),
    });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    expect(await actions.writeExport(request('md'))).toMatchObject({ content: '# a' });
    expect(store.getState().exporting).toMatchObject({ writing: false, result: { fileName: 'a.md' }, ledger: LEDGER });
    expect(fake.calls.map((c) => c.channel)).toEqual(['export.write', 'export.ledger']);
    fail = true;
    expect(await actions.writeExport(request('md'))).toBeNull();
    expect(store.getState().exporting).toMatchObject({ writing: false, error: 'cannot write' });
  });
});
