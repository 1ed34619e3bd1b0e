import { memo, useMemo, useState } from 'react';
import { parseInline, parseMarkdown, type MdBlock } from './markdown';

/** Text beyond this is shown on request: a 5 MB tool output must not freeze the inspector. */
const SOFT_LIMIT = 60_000;

function Inline({ text }: { text: string }) {
  const parts = useMemo(() => parseInline(text), [text]);
  return (
    <>
      {parts.map((p, i) => {
        switch (p.kind) {
          case 'code':
            return <code key={i}>{p.text}</code>;
          case 'bold':
            return <strong key={i}>{p.text}</strong>;
          case 'italic':
            return <em key={i}>{p.text}</em>;
          default:
            return <span key={i}>{p.text}</span>;
        }
      })}
    </>
  );
}

function Block({ block }: { block: MdBlock }) {
  switch (block.kind) {
    case 'code':
      return (
        <pre className="code-block" data-lang={block.lang || undefined}>
          <code>{block.text}</code>
        </pre>
      );
    case 'heading': {
      const Tag = `h${Math.min(block.level + 2, 6)}` as 'h3';
      return (
        <Tag className="md-heading">
          <Inline text={block.text} />
        </Tag>
      );
    }
    case 'list': {
      const Tag = block.ordered ? 'ol' : 'ul';
      return (
        <Tag>
          {block.items.map((item, i) => (
            <li key={i}>
              <Inline text={item} />
            </li>
          ))}
        </Tag>
      );
    }
    case 'quote':
      return (
        <blockquote>
          <Inline text={block.text} />
        </blockquote>
      );
    default:
      return (
        <p>
          <Inline text={block.text} />
        </p>
      );
  }
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const [full, setFull] = useState(false);
  const shown = full || text.length <= SOFT_LIMIT ? text : text.slice(0, SOFT_LIMIT);
  const blocks = useMemo(() => parseMarkdown(shown), [shown]);
  return (
    <div className="markdown">
      {blocks.map((b, i) => (
        <Block key={i} block={b} />
      ))}
      {shown.length < text.length && (
        <button type="button" className="link-button" onClick={() => setFull(true)}>
          show all ({text.length.toLocaleString('en-US')} characters)
        </button>
      )}
    </div>
  );
});

/** Preformatted text with the same soft limit. */
export const PlainText = memo(function PlainText({ text, className = 'pre-text' }: { text: string; className?: string }) {
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
