import { describe, expect, it } from 'vitest';
import { validators } from '../../electron/shared/validate';

describe('keep channels refuse what the contract does not allow', () => {
  it('keep.set: a patch of known fields, each of its type', () => {
    expect(validators['keep.set']({ sessionId: 's', patch: { name: null, tags: ['a'], pinned: true } })).toEqual({
      sessionId: 's',
      patch: { name: null, tags: ['a'], pinned: true },
    });
    expect(() => validators['keep.set']({ sessionId: 's', patch: { path: '/etc' } })).toThrow(
      /unexpected argument "path"/,
    );
    expect(() => validators['keep.set']({ sessionId: 's', patch: { pinned: 'yes' } })).toThrow(/pinned/);
    expect(() => validators['keep.set']({ sessionId: 's', patch: { tags: [1] } })).toThrow(/tags/);
    expect(() => validators['keep.set']({ sessionId: 's', patch: { name: 'x'.repeat(300) } })).toThrow(/name/);
  });

  it('trash and continue: ids and booleans only (no terminal or path from the renderer)', () => {
    expect(() => validators['trash.move']({ sessionId: 's' })).toThrow(/withForks/);
    expect(() => validators['session.continue']({ sessionId: 's', terminal: 'sh' })).toThrow(/terminal/);
    expect(validators['session.continue']({ sessionId: 's', fork: false })).toEqual({ sessionId: 's' });
    expect(validators['trash.restore']({ id: 'r1' })).toEqual({ id: 'r1' });
  });
});
