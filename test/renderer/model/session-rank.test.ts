import { describe, expect, it } from 'vitest';
import { fuzzyPositions, parseRankQuery, rankSession, type RankDoc } from '../../../renderer/src/model/session-rank';

const doc = (over: Partial<RankDoc> = {}): RankDoc => ({
  names: [],
  tags: [],
  note: '',
  id: '0190aaaa-bbbb-cccc',
  text: 'fix the parser',
  cwd: '/home/u/proj',
  ...over,
});
const rank = (d: RankDoc, q: string) => rankSession(d, parseRankQuery(q));

describe('session ranking (pi 1.5 /resume rules)', () => {
  it('matches text and ids only as whole substrings: a scattered word in a long message is no hit', () => {
    const long = doc({ text: 'zero errors, but a real fish bowl in the sea' });
    expect(rank(long, 'zebrafish')).toBeNull();
    expect(rank(doc({ text: 'the zebrafish larvae' }), 'zebrafish')?.tier).toBe(1);
    expect(rank(doc(), 'bbbb-cc')?.marks[0]).toMatchObject({ field: 'id', ranges: [[9, 16]] });
  });

  it('ranks a whole hit in a name first, whole in text next, scattered over names and cwd last', () => {
    const inName = rank(doc({ names: [{ field: 'name', text: 'Parser work' }] }), 'parser')!;
    const inText = rank(doc(), 'parser')!;
    const scattered = rank(doc({ names: [{ field: 'piName', text: 'pa-r-s-e-r' }], text: 'x' }), 'parser')!;
    expect([inName.tier, inText.tier, scattered.tier]).toEqual([0, 1, 2]);
    expect(inName.score).toBeLessThan(inText.score);
    expect(inText.score).toBeLessThan(scattered.score);
  });

  it('marks where each hit is: a name hit in the name, a scattered one letter by letter', () => {
    const named = rank(doc({ names: [{ field: 'piName', text: 'Refactor Parser' }] }), 'parser')!;
    expect(named.marks).toEqual([{ field: 'piName', text: 'Refactor Parser', ranges: [[9, 15]] }]);
    const cwd = rank(doc(), 'hmpj')!;
    expect(cwd.marks[0]!.field).toBe('cwd');
    expect(cwd.marks[0]!.ranges.length).toBeGreaterThan(1);
  });

  it('needs every token; phrases stay whole; re: is a regex; a bad one matches nothing', () => {
    expect(rank(doc(), 'fix parser')).not.toBeNull();
    expect(rank(doc(), 'fix nothing-here')).toBeNull();
    expect(rank(doc(), '"the parser"')?.tier).toBe(1);
    expect(rank(doc(), '"parser the"')).toBeNull();
    expect(rank(doc(), 're:pars.r')?.marks[0]).toMatchObject({ field: 'text', ranges: [[8, 14]] });
    expect(rank(doc(), 're:(')).toBeNull();
  });

  it('finds tags and notes', () => {
    expect(rank(doc({ tags: ['release'] }), 'release')?.marks[0]?.field).toBe('tag');
    expect(rank(doc({ note: 'ask Bob about it' }), 'bob')?.marks[0]?.field).toBe('note');
  });

  it('scores a fuzzy match as pi-tui does (a contiguous run beats a scattered one)', () => {
    expect(fuzzyPositions('opus', 'openrouter/anthropic/claude-opus')!.positions).toEqual([28, 29, 30, 31]);
    expect(fuzzyPositions('xyz', 'abc')).toBeNull();
  });
});
