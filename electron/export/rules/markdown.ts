/**
 * A session (or its path to a leaf) as Markdown: messages as text, tool calls and results in
 * <details> with their bodies fenced, diffs in `diff` fences, images as placeholders. Fences are
 * longer than any backtick run inside, so session text cannot close them. PURE.
 */
import { entryView, type Block, type EntryView } from './entry-view';
import { firstLine, scopeLine, type ExportMeta } from './export-meta';
import { escapeHtml } from './html-escape';

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

/** <details> with a summary (escaped: it is HTML) and a Markdown body. */
function folded(summary: string, body: string): string {
  return `<details><summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

function approxBytes(base64: string): string {
  const kb = (base64.length * 3) / 4 / 1024;
  return kb >= 1024 ? `${(kb / 1024).toFixed(1)} MiB` : `${kb.toFixed(1)} KiB`;
}

function blockMd(b: Block): string {
  switch (b.kind) {
    case 'text':
      return b.text;
    case 'note':
      return fence(b.text);
    case 'thinking':
      return folded(`thinking · ${firstLine(b.text, 80)}`, fence(b.text));
    case 'tool-call':
      return folded(
        `tool call · ${b.name}`,
        [fence(b.args, 'json'), b.diff ? fence(b.diff, 'diff') : ''].filter(Boolean).join('\n\n'),
      );
    case 'tool-result':
      return folded(
        `${b.isError ? 'error' : 'result'} · ${b.name} · ${firstLine(b.text, 80)}`,
        [b.diff ? fence(b.diff, 'diff') : '', fence(b.text)].filter(Boolean).join('\n\n'),
      );
    case 'bash':
      return `${fence(`$ ${b.command}`, 'sh')}\n\n${folded(`output${b.exitCode === null ? '' : ` · exit ${b.exitCode}`}`, fence(b.output))}`;
    case 'image':
      return `*[image: ${b.mimeType || 'unknown type'}, ${approxBytes(b.data)} — not included]*`;
  }
}

function entryMd(v: EntryView): string {
  const body = v.blocks.map(blockMd).join('\n\n');
  return `### ${escapeHtml(v.heading)}\n\n<sub>${escapeHtml(v.id)} · ${escapeHtml(v.timestamp)}</sub>\n\n${body}\n`;
}

export function* renderMarkdown(meta: ExportMeta, entries: Iterable<Record<string, unknown>>): Generator<string> {
  yield `# ${escapeHtml(meta.title.replace(/\s+/g, ' '))}\n\nsession \`${meta.sessionId}\` · ${scopeLine(meta)}\n\n---\n\n`;
  for (const raw of entries) yield `${entryMd(entryView(raw))}\n`;
}
