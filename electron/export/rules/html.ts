/**
 * A session (or its path to a leaf) as one self-contained HTML file, in the spirit of pi's own
 * `/export`: messages, tool calls and results folded in <details>, diffs, thinking folded. It
 * holds no script and makes no request: every session string is escaped (never inserted as
 * markup), images are data: URLs of raster types only, and a strict CSP forbids the rest. PURE.
 */
import { entryView, type Block, type EntryView } from './entry-view';
import { firstLine, scopeLine, type ExportMeta } from './export-meta';
import { escapeHtml as esc, imageDataUrl } from './html-escape';

/** Nothing may load or run: styles are inline, images data: URLs. */
export const EXPORT_CSP =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--user:#eef6ff;--asst:#f6f8fa;--tool:#fbf7ee;--add:#dafbe1;--del:#ffebe9}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--line:#30363d;--user:#10243e;--asst:#161b22;--tool:#1f1a0f;--add:#12361f;--del:#3d1414}}
body{margin:0 auto;max-width:920px;padding:24px;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,sans-serif}
header{border-bottom:1px solid var(--line);margin-bottom:16px}h1{font-size:20px;margin:0 0 4px}.meta{color:var(--muted);font-size:13px}
article{border:1px solid var(--line);border-radius:8px;margin:10px 0;padding:8px 12px;background:var(--asst)}
article.user{background:var(--user)}article.tool,article.bash{background:var(--tool)}
.h{color:var(--muted);font-size:12px;display:flex;gap:8px}.h b{color:var(--fg)}
.text,pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:6px 0}pre{font:12.5px/1.45 ui-monospace,monospace;background:rgba(127,127,127,.08);padding:8px;border-radius:6px}
details{margin:6px 0}summary{cursor:pointer;color:var(--muted)}.err summary{color:#cf222e}
.diff span{display:block}.diff .a{background:var(--add)}.diff .d{background:var(--del)}
img{max-width:100%;border:1px solid var(--line)}.ph{color:var(--muted);font-style:italic}`;

function diffHtml(diff: string): string {
  const lines = diff.split('\n').map((l) => {
    const cls = l.startsWith('+') ? ' class="a"' : l.startsWith('-') ? ' class="d"' : '';
    return `<span${cls}>${esc(l) || ' '}</span>`;
  });
  return `<pre class="diff">${lines.join('')}</pre>`;
}

function blockHtml(b: Block): string {
  switch (b.kind) {
    case 'text':
      return `<div class="text">${esc(b.text)}</div>`;
    case 'note':
      return `<pre>${esc(b.text)}</pre>`;
    case 'thinking':
      return `<details class="thinking"><summary>thinking · ${esc(firstLine(b.text, 80))}</summary><div class="text">${esc(b.text)}</div></details>`;
    case 'tool-call':
      return `<details><summary>tool call · ${esc(b.name)}</summary><pre>${esc(b.args)}</pre>${b.diff ? diffHtml(b.diff) : ''}</details>`;
    case 'tool-result':
      return `<details${b.isError ? ' class="err"' : ''}><summary>${b.isError ? 'error' : 'result'} · ${esc(firstLine(b.text, 80))}</summary>${b.diff ? diffHtml(b.diff) : ''}<pre>${esc(b.text)}</pre></details>`;
    case 'bash':
      return `<pre>$ ${esc(b.command)}</pre><details><summary>output${b.exitCode === null ? '' : ` · exit ${b.exitCode}`} · ${esc(firstLine(b.output, 80))}</summary><pre>${esc(b.output)}</pre></details>`;
    case 'image': {
      const url = imageDataUrl(b.mimeType, b.data);
      return url
        ? `<img alt="image" src="${url}">`
        : `<div class="ph">[image ${esc(b.mimeType || 'of unknown type')} not embedded]</div>`;
    }
  }
}

function entryHtml(v: EntryView): string {
  return `<article class="${esc(v.tone)}" id="e-${esc(v.id)}"><div class="h"><b>${esc(v.heading)}</b><span>${esc(v.id)}</span><span>${esc(v.timestamp)}</span></div>${v.blocks.map(blockHtml).join('')}</article>`;
}

/** The export's pieces (joined, they are the file): entries are rendered one at a time. */
export function* renderHtml(meta: ExportMeta, entries: Iterable<Record<string, unknown>>): Generator<string> {
  yield `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">`;
  yield `<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`;
  yield `<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width,initial-scale=1">`;
  yield `<title>${esc(meta.title)}</title><style>${STYLE}</style></head><body>\n`;
  yield `<header><h1>${esc(meta.title)}</h1><div class="meta">session ${esc(meta.sessionId)} · ${esc(scopeLine(meta))}</div></header>\n<main>\n`;
  for (const raw of entries) yield `${entryHtml(entryView(raw))}\n`;
  yield `</main></body></html>\n`;
}
