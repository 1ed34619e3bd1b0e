import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN, compactContext, messageLine, type CanopyContext } from '../../pi-package/src/compact';

const session = { id: '019c0000-0000-7000-8000-000000000001', cwd: '/work/proj' };
const contextOf = (messages: unknown[]): CanopyContext => ({
  file: '/s.jsonl',
  leafId: 'e9',
  pathIds: ['e1', 'e9'],
  contextEntryIds: ['e1', 'e9'],
  context: { messages },
});
const message = fc.oneof(
  fc.record({ role: fc.constant('user'), content: fc.string({ maxLength: 3000 }) }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 2000 }) }),
        fc.record({
          type: fc.constant('toolCall'),
          name: fc.string(),
          arguments: fc.dictionary(fc.string(), fc.string()),
        }),
      ),
    ),
  }),
  fc.record({ role: fc.constant('toolResult'), toolName: fc.string(), content: fc.string({ maxLength: 5000 }) }),
);

describe('compactContext', () => {
  it('never goes over the budget, and shows the newest messages it has room for, in order', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 40 }), fc.integer({ min: 1, max: 4000 }), (messages, budget) => {
        const c = compactContext(contextOf(messages), session, budget);
        expect(c.text.length).toBeLessThanOrEqual(budget * CHARS_PER_TOKEN);
        expect(c.tokens).toBeLessThanOrEqual(budget);
        expect(c.messages).toBe(messages.length);
        const lines = c.text.split('\n');
        // Each shown line begins as its message's line does (long ones are clipped), newest last.
        if (c.shown > 0 && budget >= 200)
          messages.slice(messages.length - c.shown).forEach((m, i) => {
            const shown = lines[lines.length - c.shown + i]!.replace(/…$/, '');
            expect(messageLine(m).startsWith(shown)).toBe(true);
          });
      }),
    );
  });

  it('says when older messages were left out, and when all are shown', () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ role: 'user', content: `message ${i} ${'x'.repeat(200)}` }));
    const cut = compactContext(contextOf(many), session, 500);
    expect(cut.shown).toBeLessThan(50);
    expect(cut.text).toMatch(/the newest \d+ shown \(older ones left out for the 500-token budget\)/);
    expect(cut.text).toContain('message 49');
    expect(cut.text).not.toContain('message 0 ');
    const all = compactContext(contextOf(many.slice(0, 3)), session, 4000);
    expect(all.shown).toBe(3);
    expect(all.text).toMatch(/all shown/);
  });
});
