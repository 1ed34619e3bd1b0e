/** The per-line facts of the store views: read from bytes, the same for pi's shapes and for odd ones. */
import { describe, expect, it } from 'vitest';
import { scanLineBlocks } from '../../../electron/store-views/rules/block-scan';
import { FactReader } from '../../../electron/store-views/rules/store-facts';
import { slimLine } from '../../../electron/store-views/rules/slim-plan';

const enc = new TextEncoder();
const dec = new TextDecoder();
const decode = (b: Uint8Array, s: number, e: number) => dec.decode(b.subarray(s, e));
const bytesOf = (v: unknown) => enc.encode(typeof v === 'string' ? v : JSON.stringify(v));
const usage = { input: 10, output: 5, cacheRead: 2, cacheWrite: 1, totalTokens: 18, cost: { total: 0.5 } };

function fact(v: unknown) {
  const b = bytesOf(v);
  return new FactReader(decode).entry(b, 0, b.length, b.length + 1);
}

describe('FactReader', () => {
  it("reads an assistant line's spend from its end, and the same from a line the envelope scan cannot read", () => {
    const msg = {
      role: 'assistant',
      content: [{ type: 'toolCall', arguments: { usage: { input: 999 }, model: 'decoy' } }],
      model: 'm "1"',
      usage,
    };
    const a = fact({ type: 'message', id: 'a', parentId: null, timestamp: 't', message: msg })!;
    expect(a.spend).toEqual({
      source: 'assistant',
      provider: '(unknown)',
      model: 'm "1"',
      input: 10,
      output: 5,
      cacheRead: 2,
      cacheWrite: 1,
      cacheWrite1h: 0,
      reasoning: 0,
      cost: 0.5,
      billed: false,
    });
    // Another key order: parsed whole, same facts.
    const b = fact({ message: msg, id: 'a', type: 'message', parentId: null, timestamp: 't' })!;
    expect(b.spend).toEqual(a.spend);
    expect(b.id).toBe('a');
  });

  it('flags spend without a price (no cost, or $0 for tokens) as unpriced, never $0', () => {
    const noCost = fact({
      type: 'message',
      id: 'a',
      parentId: null,
      timestamp: 't',
      message: { role: 'assistant', content: [], model: 'x', usage: { input: 3, output: 1 } },
    })!;
    expect(noCost.spend).toMatchObject({ input: 3, cacheRead: 0, cost: null });
    const zero = fact({
      type: 'message',
      id: 'a',
      parentId: null,
      timestamp: 't',
      message: { role: 'assistant', content: [], model: 'x', usage: { ...usage, cost: { total: 0 } } },
    })!;
    expect(zero.spend!.cost).toBeNull();
  });

  it("keys an assistant's spend by provider and the model that answered, read from the line's end", () => {
    const msg = {
      role: 'assistant',
      content: [{ type: 'toolCall', arguments: { api: 'decoy', provider: 'decoy', usage: { input: 1, output: 1 } } }],
      api: 'openai-completions',
      provider: 'openrouter',
      model: 'auto',
      responseModel: 'anthropic/claude-sonnet-4.5',
      usage: { ...usage, cacheWrite1h: 1, reasoning: 3, cost: { total: 0.25, totalFromProvider: true } },
      stopReason: 'stop',
    };
    const line = { type: 'message', id: 'a', parentId: null, timestamp: 't', message: msg };
    const fromEnd = fact(line)!;
    expect(fromEnd.spend).toMatchObject({
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
      requestedModel: 'auto',
      cacheWrite1h: 1,
      reasoning: 3,
      cost: 0.25,
      billed: true,
    });
    // Parsed whole (another key order), the same facts.
    expect(fact({ message: msg, type: 'message', id: 'a', parentId: null, timestamp: 't' })!.spend).toEqual(
      fromEnd.spend,
    );
  });

  it("puts tool-result, compaction and branch-summary usage in pi's Tools/summaries bucket; usage entries by their model", () => {
    const env = { id: 'x', parentId: null, timestamp: 't' };
    const tool = fact({ type: 'message', ...env, message: { role: 'toolResult', content: [], usage } })!;
    expect(tool.spend).toMatchObject({ source: 'toolResult', provider: 'Tools', model: 'summaries', cost: 0.5 });
    const noUsage = fact({
      type: 'message',
      ...env,
      message: { role: 'toolResult', content: [{ type: 'text', text: '"usage":{' }] },
    })!;
    expect(noUsage.spend).toBeUndefined();
    for (const type of ['compaction', 'branch_summary']) {
      expect(fact({ type, ...env, summary: 's', usage })!.spend).toMatchObject({
        source: 'summary',
        provider: 'Tools',
      });
    }
    const warm = fact({ type: 'usage', ...env, kind: 'cache_warm', provider: 'anthropic', model: 'claude', usage })!;
    expect(warm.spend).toMatchObject({ source: 'usage', provider: 'anthropic', model: 'claude', kind: 'cache_warm' });
  });

  it("counts only what pi's Usage type allows: negative, fractional, non-number or huge values are a problem", () => {
    const env = { type: 'message', id: 'a', parentId: null, timestamp: 't' };
    const bad = (u: unknown) => {
      const msg = { role: 'assistant', content: [], api: 'x', provider: 'p', model: 'm', usage: u };
      return fact({ ...env, message: msg })!;
    };
    for (const u of [
      { ...usage, cost: { total: -5 } },
      { ...usage, input: -1 },
      { ...usage, output: 1.5 },
      { ...usage, cacheRead: 'sk-live-secret' },
      { ...usage, cost: { total: 1e300 } },
      { ...usage, reasoning: 99 },
      { ...usage, cacheWrite1h: 2 },
    ]) {
      const f = bad(u);
      expect(f.spend, JSON.stringify(u)).toBeUndefined();
      expect(f.spendProblem, JSON.stringify(u)).toMatch(/^not counted: usage\./);
      // A value that is not a number is named by its type, never printed.
      expect(f.spendProblem).not.toContain('sk-live');
    }
    expect(bad(usage).spend).toMatchObject({ cost: 0.5 });
  });

  it('is null for lines that are no entry', () => {
    expect(fact('{"type":"mess')).toBeNull();
    expect(fact({ type: 'message' })).toBeNull();
  });
});

describe('scanLineBlocks and slimLine', () => {
  const line = {
    type: 'message',
    id: 'x',
    parentId: null,
    timestamp: 't',
    message: {
      role: 'toolResult',
      content: [
        { type: 'text', text: 'out\\put "quoted"' },
        { type: 'image', data: 'QUJD'.repeat(10), mimeType: 'image/png' },
      ],
      details: { content: [{ type: 'image', data: 'nested' }] },
    },
  };
  it('finds content images and tool output, not look-alikes elsewhere', () => {
    const b = bytesOf(line);
    const blocks = scanLineBlocks(b, 0, b.length, decode)!;
    expect(blocks.role).toBe('toolResult');
    expect(blocks.images).toHaveLength(2); // message.content and details.content are both content arrays
    expect(decode(b, blocks.outputs[0]!.start, blocks.outputs[0]!.end)).toBe(
      JSON.stringify('out\\put "quoted"').slice(1, -1),
    );
  });

  it('replaces images by a text note and cuts outputs; what is left parses', () => {
    const b = bytesOf(line);
    const slim = slimLine(b, 0, b.length, 7, { dropImages: true, maxOutputBytes: 4 }, decode)!;
    const out = JSON.parse(dec.decode(Buffer.concat(slim.pieces))) as typeof line;
    expect(out.message.content[1]).toEqual({
      type: 'text',
      text: '[image removed by canopy slim: image/png, 30 B, source line 7]',
    });
    expect(out.message.content[0]!.text).toMatch(
      /^out\n\[\.\.\. \d+ B of output removed by canopy slim \(--max-output 4\), source line 7\]$/,
    );
    expect(slim.imagesRemoved).toBe(2);
    expect(slimLine(b, 0, b.length, 7, { dropImages: false }, decode)).toBeNull();
  });
});
