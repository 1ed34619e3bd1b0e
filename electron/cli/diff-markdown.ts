/** `canopy diff` without --json: the comparison as Markdown (for a PR description or a note). */
import type { CompareDto, CompareFileDto, CompareSideDto, CompareVersusDto } from '../shared/compare-dto';

const code = (s: string) => `\`${s.replace(/`/g, 'ˋ')}\``;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
const usd = (n: number) => `$${n.toFixed(4)}`;

function statRows(a: CompareSideDto, b: CompareSideDto): string[] {
  const list = (xs: string[]) => (xs.length ? xs.map(code).join(', ') : '—');
  const rows: [string, (s: CompareSideDto) => string][] = [
    ['entries', (s) => String(s.stats.entries)],
    ['messages', (s) => String(s.stats.messages)],
    ['tool calls', (s) => String(s.stats.toolCalls)],
    ['errors', (s) => String(s.stats.errors)],
    [
      'tokens (in / out / cache read / cache write)',
      (s) => {
        const u = s.stats.usage;
        return `${u.input} / ${u.output} / ${u.cacheRead} / ${u.cacheWrite}`;
      },
    ],
    ['cost', (s) => usd(s.cost)],
    ['model changes', (s) => list(s.stats.modelChanges.map((m) => m.model))],
    ['thinking changes', (s) => list(s.stats.thinkingChanges.map((t) => t.level))],
    ['compactions', (s) => String(s.stats.compactions.length)],
    ['files changed', (s) => String(s.files.length)],
  ];
  return rows.map(([name, of]) => `| ${name} | ${cell(of(a))} | ${cell(of(b))} |`);
}

function fence(diff: string): string {
  const lines = diff.split('\n');
  const body = lines
    .slice(
      Math.max(
        0,
        lines.findIndex((l) => l.startsWith('@@')),
      ),
    )
    .join('\n')
    .trimEnd();
  const ticks = body.includes('```') ? '````' : '```';
  return `${ticks}diff\n${body}\n${ticks}`;
}

function fileSection(
  path: string,
  a: CompareFileDto | undefined,
  b: CompareFileDto | undefined,
  v: CompareVersusDto | undefined,
): string[] {
  const out = [`### ${code(path)}`, ''];
  for (const [name, f] of [['A', a] as const, ['B', b] as const]) {
    if (!f) {
      out.push(`**${name}**: unchanged`, '');
      continue;
    }
    out.push(`**${name}** (+${f.added} −${f.removed})`, '');
    for (const n of f.notes) out.push(`> ${n}`, '');
    out.push(fence(f.diff), '');
  }
  if (v?.same) out.push('**A → B**: the same text on both sides', '');
  else if (v) out.push(`**A → B** (+${v.added} −${v.removed})`, '', fence(v.diff), '');
  return out;
}

export function compareMarkdown(c: CompareDto, names: [string, string]): string {
  const [a, b] = c.sides;
  const out: string[] = [`## Branches ${code(a.leafId)} (A) and ${code(b.leafId)} (B)`, ''];
  out.push(`- A: ${code(names[0])} leaf ${code(a.leafId)}`, `- B: ${code(names[1])} leaf ${code(b.leafId)}`);
  out.push(
    c.ancestor
      ? `- Common ancestor: ${code(c.ancestor.id)} (${c.ancestor.type}) ${cell(c.ancestor.preview)}`
      : '- Common ancestor: none (the two paths share no entry)',
    '',
  );
  out.push('| | A | B |', '|---|---|---|', ...statRows(a, b), '');
  out.push('### Turns', '');
  if (c.rows.length === 0) out.push('Both leaves are the ancestor: nothing to compare.', '');
  c.rows.forEach((r, k) => {
    const prompt = (s: CompareSideDto, i: number | null) =>
      i === null ? '—' : cell(s.turns[i]!.prompt ?? '(continues without a new prompt)');
    const mark = k === c.firstDivergence ? ' **← first divergence**' : r.divergent ? ' (differs)' : '';
    const what = r.samePrompt ? `both: ${prompt(a, r.a)}` : `A: ${prompt(a, r.a)} · B: ${prompt(b, r.b)}`;
    out.push(`${k + 1}. ${what}${mark}`);
  });
  out.push('', '## Files', '');
  const paths = [...new Set([...a.files, ...b.files].map((f) => f.path))].sort();
  if (paths.length === 0) out.push('No edit or write call changed a file on either side.', '');
  for (const p of paths)
    out.push(
      ...fileSection(
        p,
        a.files.find((f) => f.path === p),
        b.files.find((f) => f.path === p),
        c.versus.find((v) => v.path === p),
      ),
    );
  for (const [name, s] of [['A', a] as const, ['B', b] as const]) {
    if (s.shell.length === 0) continue;
    out.push(`> **${name}** ran ${s.shell.length} shell command(s) that may have changed files the calls do not show:`);
    for (const r of s.shell.slice(0, 10)) out.push(`> - ${code(r.command.split('\n')[0]!)}`);
    if (s.shell.length > 10) out.push(`> - … ${s.shell.length - 10} more`);
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
