/** Turn alignment: common prompts pair up, the rest pairs in order or stands alone; the first divergence. */
import { describe, expect, it } from 'vitest';
import { alignTurns, firstDivergence } from '../../electron/core/rules/compare-turns';
import type { CompareTurnDto } from '../../electron/shared/compare-dto';

const turn = (prompt: string | null, reply = 'ok'): CompareTurnDto => ({
  prompt,
  entries: [
    ...(prompt === null ? [] : [{ id: `u-${prompt}`, type: 'message', role: 'user', preview: prompt }]),
    { id: `a-${prompt}-${reply}`, type: 'message', role: 'assistant', preview: reply },
  ],
});

const shape = (rows: ReturnType<typeof alignTurns>) =>
  rows.map((r) => `${r.a ?? '-'}/${r.b ?? '-'}${r.samePrompt ? (r.divergent ? '~' : '=') : '!'}`);

describe('alignTurns', () => {
  it('pairs the prompts both sides asked, in order, and pairs or leaves the others', () => {
    const a = [turn('fix x'), turn('run tests'), turn('commit')];
    const b = [turn('fix x', 'otherwise'), turn('try y'), turn('also z'), turn('run tests'), turn('commit')];
    const rows = alignTurns(a, b);
    expect(shape(rows)).toEqual(['0/0~', '-/1!', '-/2!', '1/3=', '2/4=']);
    expect(firstDivergence(rows)).toBe(0);
  });

  it('another prompt in the same place is one divergent row; a side longer than the other stands alone', () => {
    const rows = alignTurns(
      [turn('same'), turn('left'), turn('end')],
      [turn('same'), turn('right'), turn('end'), turn('more')],
    );
    expect(shape(rows)).toEqual(['0/0=', '1/1!', '2/2=', '-/3!']);
    expect(firstDivergence(rows)).toBe(1);
  });

  it('a continuation without a prompt pairs with the other side’s; identical sides do not diverge', () => {
    const rows = alignTurns([turn(null), turn('q')], [turn(null), turn('q')]);
    expect(shape(rows)).toEqual(['0/0=', '1/1=']);
    expect(firstDivergence(rows)).toBeNull();
  });

  it('many turns (over the table bound) pair in order', () => {
    const many = Array.from({ length: 2100 }, (_, k) => turn(`p${k}`));
    const rows = alignTurns(many, [...many.slice(0, 5), turn('x'), ...many.slice(6)]);
    expect(rows).toHaveLength(2100);
    expect(firstDivergence(rows)).toBe(5);
  });
});
