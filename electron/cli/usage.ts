/** `canopy usage`: cost and tokens across every session, each fork-copied message counted once. */
import {
  parseGroupKeys,
  USAGE_GROUP_KEYS,
  USAGE_SCHEMA_VERSION,
  type SpendTotals,
  type UsageGroup,
  type UsageGroupKey,
  usageReport,
  utcDay,
} from '../store-views';
import { resolveRoots } from '../repo/roots';
import { EXIT_OK, jsonLine, jsonOption, line, stringOpt, UsageError, type CliCommand, type CliIo } from './cli-io';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Problems printed by the table (each on stderr); --json lists every one. */
const PROBLEMS_SHOWN = 20;

function dateOpt(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (!DATE.test(value) || utcDay(`${value}T00:00:00Z`) !== value)
    throw new UsageError(`--${name} wants a date YYYY-MM-DD (UTC)`);
  return value;
}

const money = (n: number): string => `$${n.toFixed(2)}`;
const tokens = (n: number): string =>
  n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n);

function totalsJson(t: SpendTotals): Record<string, number> {
  const { cost, billedCost, messages, billedMessages, input, output, cacheRead, cacheWrite } = t;
  const { cacheWrite1h, reasoning, unpricedMessages } = t;
  return {
    cost,
    billedCost,
    estimatedCost: cost - billedCost,
    messages,
    billedMessages,
    input,
    output,
    cacheRead,
    cacheWrite,
    cacheWrite1h,
    reasoning,
    unpricedMessages,
  };
}

function groupJson(g: UsageGroup): Record<string, unknown> {
  return {
    schema: USAGE_SCHEMA_VERSION,
    kind: 'group',
    ...g.keys,
    ...totalsJson(g),
    active: g.active,
    otherSessions: g.otherSessions,
    abandoned: g.abandoned,
    duplicates: g.duplicates,
  };
}

function printTable(io: CliIo, by: readonly UsageGroupKey[], groups: UsageGroup[]): void {
  const head = [
    ...by.map((k) => k.padEnd(k === 'day' ? 10 : 24)),
    'cost'.padStart(10),
    'billed'.padStart(10),
    'msgs'.padStart(6),
    'input'.padStart(8),
    'output'.padStart(8),
    'cacheR'.padStart(8),
    'cacheW'.padStart(8),
    'dup cost'.padStart(10),
  ];
  line(io.stdout, head.join('  '));
  for (const g of groups) {
    const keys = by.map((k) => {
      const v = g.keys[k] ?? '';
      const w = k === 'day' ? 10 : 24;
      return (v.length > w ? `${v.slice(0, w - 1)}…` : v).padEnd(w);
    });
    const cost = money(g.cost) + (g.unpricedMessages > 0 ? '*' : ' ');
    line(
      io.stdout,
      [
        ...keys,
        cost.padStart(10),
        money(g.billedCost).padStart(10),
        String(g.messages).padStart(6),
        tokens(g.input).padStart(8),
        tokens(g.output).padStart(8),
        tokens(g.cacheRead).padStart(8),
        tokens(g.cacheWrite).padStart(8),
        money(g.duplicates.cost).padStart(10),
      ].join('  '),
    );
  }
}

export const usageCommand: CliCommand = {
  summary: 'cost and tokens of every session as pi counts them, fork copies counted once',
  usage: `canopy usage [--root DIR]... [--by ${USAGE_GROUP_KEYS.join('|')}[,...]] [--since DATE] [--until DATE] [--json]`,
  options: {
    ...jsonOption,
    root: { type: 'string', multiple: true },
    by: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
  },
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    let by: UsageGroupKey[];
    try {
      by = parseGroupKeys(stringOpt(args, 'by') ?? 'day');
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const since = dateOpt(stringOpt(args, 'since'), 'since');
    const until = dateOpt(stringOpt(args, 'until'), 'until');
    const roots = resolveRoots((args.values.root as string[] | undefined) ?? []);
    const report = await usageReport(roots, { by, ...(since ? { since } : {}), ...(until ? { until } : {}) });
    for (const k of report.walk.skipped) io.stderr.write(`canopy usage: skipped ${k.path}: ${k.error.message}\n`);
    if (args.values.json) {
      for (const g of report.groups) jsonLine(io, groupJson(g));
      for (const p of report.problems) jsonLine(io, { schema: USAGE_SCHEMA_VERSION, kind: 'problem', ...p });
      jsonLine(io, {
        schema: USAGE_SCHEMA_VERSION,
        kind: 'total',
        total: { ...totalsJson(report.total), unpricedModels: report.unpricedModels },
        duplicates: report.duplicates,
      });
      return EXIT_OK;
    }
    printTable(io, by, report.groups);
    const t = report.total;
    line(
      io.stdout,
      `\ntotal ${money(t.cost)} over ${t.messages} usage records in ${report.walk.sessions} sessions (${report.walk.families} fork families)`,
    );
    line(
      io.stdout,
      `a per-file sum would have added ${money(report.duplicates.cost)} (${report.duplicates.messages} messages copied by forks and clones)`,
    );
    if (t.billedMessages > 0) {
      line(
        io.stdout,
        `billed by the provider: ${money(t.billedCost)} of it (${t.billedMessages} records); the rest is estimated from model prices`,
      );
    }
    for (const p of report.problems.slice(0, PROBLEMS_SHOWN)) {
      io.stderr.write(
        `canopy usage: ${p.path}${p.line !== null ? `:${p.line}` : ''}: entry ${p.entryId}: ${p.message}\n`,
      );
    }
    const more = report.problems.length - PROBLEMS_SHOWN;
    if (more > 0) io.stderr.write(`canopy usage: … and ${more} more problems (--json lists them all)\n`);
    if (report.unpricedModels.length > 0) {
      line(
        io.stdout,
        `* ${t.unpricedMessages} messages of models without prices (counted in tokens, cost unknown): ${report.unpricedModels.join(', ')}`,
      );
    }
    return EXIT_OK;
  },
};
