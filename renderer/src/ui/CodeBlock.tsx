import { memo, useEffect, useState } from 'react';
import { highlighterNow, highlightHtml, loadHighlighter } from './highlight';

/** A fenced code block; highlighted once highlight.js has loaded (plain text until then). */
export const CodeBlock = memo(function CodeBlock({ code, lang }: { code: string; lang: string }) {
  const [hljs, setHljs] = useState(highlighterNow);
  useEffect(() => {
    if (hljs || !lang) return;
    let live = true;
    void loadHighlighter().then((h) => live && setHljs(h));
    return () => {
      live = false;
    };
  }, [hljs, lang]);
  const html = hljs ? highlightHtml(hljs, code, lang) : null;
  return (
    <pre className="code-block" data-lang={lang || undefined} data-highlighted={html !== null ? 'true' : undefined}>
      {html !== null ? (
        // highlight.js escapes the code's text; the markup is its own <span class="hljs-…">.
        <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <code>{code}</code>
      )}
    </pre>
  );
});
