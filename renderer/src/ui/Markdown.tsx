import { memo, useMemo, useState } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock';

/** Text beyond this is shown on request: a 5 MB tool output must not freeze the inspector. */
const SOFT_LIMIT = 60_000;

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * Raw HTML in a message is shown as the text it is: its nodes become text nodes before rendering
 * (rehype-raw is never used, so no session markup reaches the DOM).
 */
function remarkHtmlAsText() {
  return (tree: MdNode) => {
    const stack = [tree];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === 'html') node.type = 'text';
      if (node.children) stack.push(...node.children);
    }
  };
}

const REMARK_PLUGINS = [remarkGfm, remarkHtmlAsText];

interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

function hastText(node: HastNode): string {
  return node.type === 'text' ? (node.value ?? '') : (node.children ?? []).map(hastText).join('');
}

/**
 * Links and images are inert: a session's text is not a trusted source of addresses (the href
 * is shown as a tooltip). Headings step down so a message's h1 does not outrank the inspector.
 */
const COMPONENTS: Components = {
  a: ({ children, href }) => (
    <span className="md-link" title={href}>
      {children}
    </span>
  ),
  img: ({ alt, src }) => (
    <span className="md-image muted">
      [image{alt ? `: ${alt}` : ''}
      {src ? ` — ${src}` : ''}]
    </span>
  ),
  h1: ({ children }) => <h3 className="md-heading">{children}</h3>,
  h2: ({ children }) => <h4 className="md-heading">{children}</h4>,
  h3: ({ children }) => <h5 className="md-heading">{children}</h5>,
  h4: ({ children }) => <h6 className="md-heading">{children}</h6>,
  // A fenced block: its text and language come from the <code> inside (inline code stays <code>).
  pre: ({ node, children }) => {
    const code = node?.children[0] as HastNode | undefined;
    if (code?.type !== 'element' || code.tagName !== 'code') return <pre>{children}</pre>;
    const classes = code.properties?.className;
    const lang =
      (Array.isArray(classes) ? classes : [])
        .map(String)
        .find((c) => c.startsWith('language-'))
        ?.slice(9)
        .toLowerCase() ?? '';
    return <CodeBlock code={hastText(code).replace(/\n$/, '')} lang={lang} />;
  },
  table: ({ children }) => (
    <div className="md-table-wrap">
      <table className="md-table">{children}</table>
    </div>
  ),
};

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const [full, setFull] = useState(false);
  const shown = full || text.length <= SOFT_LIMIT ? text : text.slice(0, SOFT_LIMIT);
  const body = useMemo(
    () => (
      <ReactMarkdown remarkPlugins={REMARK_PLUGINS} components={COMPONENTS} skipHtml={false}>
        {shown}
      </ReactMarkdown>
    ),
    [shown],
  );
  return (
    <div className="markdown">
      {body}
      {shown.length < text.length && (
        <button type="button" className="link-button" onClick={() => setFull(true)}>
          show all ({text.length.toLocaleString('en-US')} characters)
        </button>
      )}
    </div>
  );
});

/** Preformatted text with the same soft limit. */
export const PlainText = memo(function PlainText({
  text,
  className = 'pre-text',
}: {
  text: string;
  className?: string;
}) {
  const [full, setFull] = useState(false);
  const shown = full || text.length <= SOFT_LIMIT ? text : text.slice(0, SOFT_LIMIT);
  return (
    <>
      <pre className={className}>{shown}</pre>
      {shown.length < text.length && (
        <button type="button" className="link-button" onClick={() => setFull(true)}>
          show all ({text.length.toLocaleString('en-US')} characters)
        </button>
      )}
    </>
  );
});
