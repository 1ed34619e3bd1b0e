import { describe, expect, it } from 'vitest';
import { entryTexts } from '../../../electron/secrets/rules/entry-texts';
import { highEntropyMatcher } from '../../../electron/secrets/rules/entropy';
import { maskSecret } from '../../../electron/secrets/rules/mask';
import { matchText } from '../../../electron/secrets/rules/scan';
import { redactEntry, userRedactionMatcher } from '../../../electron/secrets/rules/redact';

const TOKEN = 'Zq8vR2mT6wX1yB4nK7pL0sD3fG5hJ9cV';

describe('entryTexts', () => {
  it('lists every string but the envelope, image data and provider signatures', () => {
    const raw = {
      type: 'message',
      id: 'a1',
      parentId: null,
      timestamp: 't',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hm', thinkingSignature: TOKEN },
          { type: 'image', mimeType: 'image/png', data: TOKEN },
          { type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'ls', 'a/b~': 'x' } },
        ],
      },
    };
    expect(entryTexts(raw).map((t) => [t.pointer, t.text])).toEqual([
      ['/message/role', 'assistant'],
      ['/message/content/0/type', 'thinking'],
      ['/message/content/0/thinking', 'hm'],
      ['/message/content/1/type', 'image'],
      ['/message/content/1/mimeType', 'image/png'],
      ['/message/content/2/type', 'toolCall'],
      ['/message/content/2/id', 'c1'],
      ['/message/content/2/name', 'bash'],
      ['/message/content/2/arguments/command', 'ls'],
      ['/message/content/2/arguments/a~1b~0', 'x'],
    ]);
  });
});

describe('high entropy in key positions', () => {
  it('flags KEY=value, "key": "value" and secret-named JSON keys; not UUIDs, digests, words or paths', () => {
    expect(highEntropyMatcher(`export API_TOKEN=${TOKEN}`, null)).toHaveLength(1);
    expect(highEntropyMatcher(`{"client_secret": "${TOKEN}"}`, null)).toHaveLength(1);
    expect(highEntropyMatcher(TOKEN, 'apiKey')).toEqual([{ start: 0, end: TOKEN.length, rule: 'high-entropy' }]);
    expect(highEntropyMatcher(TOKEN, 'path')).toEqual([]);
    expect(highEntropyMatcher('token=0e7c2a4e-3f1b-4c2d-9a8b-7c6d5e4f3a2b', null)).toEqual([]);
    expect(highEntropyMatcher(`secret=${'ab12'.repeat(10)}`, null)).toEqual([]);
    expect(highEntropyMatcher('password=correcthorsebatterystaple', null)).toEqual([]);
    expect(highEntropyMatcher('token_path=/home/user/project/src/index.ts', null)).toEqual([]);
  });
});

describe('masking and redaction', () => {
  it('masks with a short prefix only, never the value', () => {
    expect(maskSecret(TOKEN)).toBe('Zq8v******** (32 chars)');
    expect(maskSecret('short')).toBe('******** (5 chars)');
  });

  it('redacts a copy of the entry (the entry is untouched), each match a [REDACTED:rule] marker', () => {
    const raw = { type: 'custom', id: 'c', data: { apiKey: TOKEN, note: `use API_KEY=${TOKEN} now`, keep: 'fine' } };
    const frozen = JSON.stringify(raw);
    const r = redactEntry(raw, 'c', [highEntropyMatcher]);
    expect(JSON.stringify(raw)).toBe(frozen);
    expect(r.raw).toEqual({
      type: 'custom',
      id: 'c',
      data: { apiKey: '[REDACTED:high-entropy]', note: 'use API_KEY=[REDACTED:high-entropy] now', keep: 'fine' },
    });
    expect(r.replacements.map((x) => [x.pointer, x.rule])).toEqual([
      ['/data/apiKey', 'high-entropy'],
      ['/data/note', 'high-entropy'],
    ]);
    expect(JSON.stringify(r.replacements)).not.toContain(TOKEN);
    expect(redactEntry({ type: 'x', t: 'nothing' }, 'x', [highEntropyMatcher]).replacements).toEqual([]);
  });

  it("adds the user's literals and regexes, exactly as given; a bad regex is a clear error", () => {
    const m = userRedactionMatcher({ literals: ['acme-internal'], regexes: ['/proj-\\d+/i'] });
    const text = 'see acme-internal-x and PROJ-42';
    expect(matchText(text, null, [m]).map((h) => text.slice(h.start, h.end))).toEqual(['acme-internal', 'PROJ-42']);
    expect(() => userRedactionMatcher({ literals: [], regexes: ['a('] })).toThrow(
      /"a\(" is not a valid regular expression/,
    );
  });
});
