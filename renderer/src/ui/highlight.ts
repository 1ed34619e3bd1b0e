/**
 * highlight.js, loaded on first use (dynamic import: the first frame does not pay for it) with a
 * handful of common languages. Its output escapes the code's text; only its own spans are markup.
 */
import type { HLJSApi } from 'highlight.js';

let loading: Promise<HLJSApi> | null = null;
let loaded: HLJSApi | null = null;

export function highlighterNow(): HLJSApi | null {
  return loaded;
}

export function loadHighlighter(): Promise<HLJSApi> {
  loading ??= (async () => {
    const [core, ...langs] = await Promise.all([
      import('highlight.js/lib/core'),
      import('highlight.js/lib/languages/typescript'),
      import('highlight.js/lib/languages/javascript'),
      import('highlight.js/lib/languages/python'),
      import('highlight.js/lib/languages/bash'),
      import('highlight.js/lib/languages/json'),
      import('highlight.js/lib/languages/diff'),
      import('highlight.js/lib/languages/css'),
      import('highlight.js/lib/languages/xml'),
      import('highlight.js/lib/languages/go'),
      import('highlight.js/lib/languages/rust'),
      import('highlight.js/lib/languages/yaml'),
      import('highlight.js/lib/languages/sql'),
    ]);
    const hljs = core.default;
    const names = [
      'typescript',
      'javascript',
      'python',
      'bash',
      'json',
      'diff',
      'css',
      'xml',
      'go',
      'rust',
      'yaml',
      'sql',
    ];
    names.forEach((name, i) => hljs.registerLanguage(name, langs[i]!.default));
    hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });
    hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
    loaded = hljs;
    return hljs;
  })();
  return loading;
}

/** Code longer than this stays plain (highlighting it would stall the inspector). */
export const HIGHLIGHT_LIMIT = 100_000;

/** Highlighted HTML for code in a known language, or null (unknown language, too long, not loaded). */
export function highlightHtml(hljs: HLJSApi, code: string, lang: string): string | null {
  if (!lang || code.length > HIGHLIGHT_LIMIT || !hljs.getLanguage(lang)) return null;
  return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
}
