import { describe, expect, it } from 'vitest';
import { createCanopyStore } from '../../../renderer/src/store';

describe('entry search per session', () => {
  it('keeps each session its own search text and restores it on return', () => {
    const store = createCanopyStore();
    const st = () => store.getState();
    st().startOpening('one');
    st().setGraphQuery('needle');
    st().setSearchHit(2);
    st().startOpening('two');
    expect(st().graphQuery).toBe('');
    expect(st().searchHit).toBe(-1);
    st().setGraphQuery('other');
    st().startOpening('one');
    expect(st().graphQuery).toBe('needle');
    expect(st().searchHit).toBe(2);
    st().closeSession();
    expect(st().graphQuery).toBe('');
    st().startOpening('two');
    expect(st().graphQuery).toBe('other');
  });
});
