/**
 * One usage record as pi 1.6 counts it (`getUsageCostBreakdown`, pi-coding-agent
 * dist/core/usage-totals.js): an assistant message keyed `provider/(responseModel ?? model)`, a
 * `usage` entry (cache warming and the like) keyed `provider/model`, and tool-result, compaction and
 * branch-summary usage in a bucket of their own, "Tools/summaries". PURE.
 *
 * Only what pi's `Usage` type allows is counted: token counts are non-negative safe integers and
 * costs non-negative finite numbers; anything else is a problem, listed and never summed (a negative
 * cost would subtract from the day, the project and the total).
 */

/** Where a record came from (the line's entry). */
export type SpendSource = 'assistant' | 'usage' | 'toolResult' | 'summary';

/** The provider and model of pi's "Tools/summaries" bucket (its key, split at the slash). */
export const TOOLS_PROVIDER = 'Tools';
export const TOOLS_MODEL = 'summaries';

/** One record's spend. `cost` null: the record has no price (counted in tokens only). */
export interface SpendFact {
  source: SpendSource;
  provider: string;
  /** The concrete model: `responseModel ?? model` (a gateway or virtual model routes to it). */
  model: string;
  /** The model asked for, when the response names another one. */
  requestedModel?: string;
  /** A `usage` entry's kind ("cache_warm"). */
  kind?: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Part of cacheWrite (written with 1 h retention); never added to it again. */
  cacheWrite1h: number;
  /** Part of output (reasoning tokens); never added to it again. */
  reasoning: number;
  cost: number | null;
  /** The provider billed this cost (`cost.totalFromProvider`); else it is the catalog's estimate. */
  billed: boolean;
}

export type SpendRead = { spend: SpendFact } | { problem: string } | null;

/** The fields of the record's owner that name where the spend goes. */
export interface SpendOwner {
  source: SpendSource;
  provider?: unknown;
  model?: unknown;
  responseModel?: unknown;
  kind?: unknown;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Above this a cost per record is no real bill: a typo or an attack, and sums would overflow. */
const MAX_COST = 1e6;

/** pi's Usage from a parsed `usage` value; null when it holds no token counts (no usage). */
export function readSpend(usage: unknown, owner: SpendOwner): SpendRead {
  if (!isRec(usage)) return null;
  if (usage.input === undefined && usage.output === undefined) return null;
  const bad: string[] = [];
  const tokens = (name: string, optional: boolean): number => {
    const v = usage[name];
    if (v === undefined && optional) return 0;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
    bad.push(`usage.${name} ${describe(v)}`);
    return 0;
  };
  const input = tokens('input', false);
  const output = tokens('output', false);
  const cacheRead = tokens('cacheRead', true);
  const cacheWrite = tokens('cacheWrite', true);
  const cacheWrite1h = tokens('cacheWrite1h', true);
  const reasoning = tokens('reasoning', true);
  if (cacheWrite1h > cacheWrite) bad.push(`usage.cacheWrite1h ${cacheWrite1h} is more than cacheWrite ${cacheWrite}`);
  if (reasoning > output) bad.push(`usage.reasoning ${reasoning} is more than output ${output}`);
  let total: number | undefined;
  let billed = false;
  if (usage.cost !== undefined) {
    if (!isRec(usage.cost)) bad.push(`usage.cost ${describe(usage.cost)}`);
    else {
      const t = usage.cost.total;
      if (typeof t === 'number' && Number.isFinite(t) && t >= 0 && t <= MAX_COST) total = t;
      else if (t !== undefined) bad.push(`usage.cost.total ${describe(t)}`);
      billed = usage.cost.totalFromProvider === true;
    }
  }
  if (bad.length > 0) return { problem: `not counted: ${bad.join('; ')}` };
  // pi writes zero costs for models it has no prices for: tokens with a $0 total are unpriced.
  const sum = input + output + cacheRead + cacheWrite;
  const cost = total === undefined || (total === 0 && sum > 0 && !billed) ? null : total;
  const tools = owner.source === 'toolResult' || owner.source === 'summary';
  const asked = str(owner.model);
  const answered = str(owner.responseModel);
  const spend: SpendFact = {
    source: owner.source,
    provider: tools ? TOOLS_PROVIDER : (str(owner.provider) ?? '(unknown)'),
    model: tools ? TOOLS_MODEL : (answered ?? asked ?? '(unknown)'),
    input,
    output,
    cacheRead,
    cacheWrite,
    cacheWrite1h,
    reasoning,
    cost,
    billed: billed && cost !== null,
  };
  if (!tools && answered !== undefined && asked !== undefined && answered !== asked) spend.requestedModel = asked;
  const kind = str(owner.kind);
  if (kind !== undefined) spend.kind = kind;
  return { spend };
}

/** A value named without its text: a string where a number belongs could be anything, a key included. */
function describe(v: unknown): string {
  if (typeof v === 'number') return `is ${String(v)}`;
  if (v === undefined) return 'is missing';
  return `is ${v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`}`;
}
