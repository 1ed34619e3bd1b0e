import { memo, useMemo, type ReactNode } from 'react';
import { Diff } from './Diff';
import { editsOf, lineDiff, type TextEdit } from './edit-diff';
import { Field } from '../../ui/Field';
import { Markdown, PlainText } from '../../ui/Markdown';
import { UsageTable } from '../../ui/UsageTable';
import { contentBlocks, imageDataUrl, num, obj, str, type Obj } from './raw';
import { ImagePayload, TextPayload, usePayload, usePayloadBytes } from './payloads';
import { formatBytes } from '../../lib/format';
import { useCompact } from './compact';

export function Section({
  title,
  children,
  open = true,
  testId,
}: {
  title: ReactNode;
  children: ReactNode;
  open?: boolean;
  testId?: string;
}) {
  return (
    <details className="section" open={open} data-testid={testId}>
      <summary>{title}</summary>
      <div className="section-body">{children}</div>
    </details>
  );
}

export function Json({ value }: { value: unknown }) {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? 'undefined';
  } catch {
    text = String(value);
  }
  return <PlainText text={text} className="json" />;
}

/** `path`: JSON pointer of `content` in the entry, so that cut payloads are drawn in place (payloads.tsx). */
export const ContentBlocks = memo(function ContentBlocks({ content, path }: { content: unknown; path?: string }) {
  const blocks = contentBlocks(content);
  if (blocks.length === 0) return <div className="muted small">(no content)</div>;
  return (
    <div className="blocks">
      {blocks.map((block, i) => (
        <ContentBlock
          key={i}
          block={block}
          path={
            path === undefined
              ? undefined
              : typeof content === 'string'
                ? { text: path, data: path }
                : { text: `${path}/${i}/text`, data: `${path}/${i}/data` }
          }
        />
      ))}
    </div>
  );
});

function ContentBlock({ block, path }: { block: Obj; path: { text: string; data: string } | undefined }) {
  const payload = usePayload(block.type === 'image' ? path?.data : block.type === 'text' ? path?.text : undefined);
  const compact = useCompact();
  if (payload)
    return payload.kind === 'image' ? (
      <ImagePayload p={payload} />
    ) : (
      <TextPayload p={payload} cut={str(block.text) ?? ''} />
    );
  switch (block.type) {
    case 'text':
      return <Markdown text={str(block.text) ?? ''} />;
    case 'thinking': {
      const text = str(block.thinking) ?? '';
      const redacted = block.redacted === true;
      return (
        <details className="thinking" data-testid="thinking">
          <summary>
            {redacted ? 'Thinking (redacted)' : `Thinking · ${text.length.toLocaleString('en-US')} chars`}
          </summary>
          {redacted ? (
            <div className="muted small">The provider returned this thinking encrypted.</div>
          ) : (
            <PlainText text={text} />
          )}
        </details>
      );
    }
    case 'toolCall':
      return <ToolCall block={block} />;
    case 'image': {
      if (compact)
        return (
          <div className="muted small image-placeholder" data-testid="image-placeholder">
            image · {str(block.mimeType) ?? 'unknown type'}
            {str(block.data) ? ` · ${formatBytes(Math.floor((str(block.data)!.length * 3) / 4))}` : ''}
          </div>
        );
      const url = imageDataUrl(block);
      return url ? (
        <img className="content-image" src={url} alt={`image (${str(block.mimeType)})`} data-testid="content-image" />
      ) : (
        <div className="muted small">image not shown ({str(block.mimeType) ?? 'unknown type'})</div>
      );
    }
    default:
      return (
        <Section title={`${str(block.type) ?? 'unknown'} block`} open={false}>
          <Json value={block} />
        </Section>
      );
  }
}

/** An edit call as pi's export shows edits: old → new text as a diff (the arguments stay one click away). */
function EditCallDiff({ edits, args }: { edits: TextEdit[]; args: Obj }) {
  const diffs = useMemo(() => edits.map((e) => lineDiff(e.oldText, e.newText)), [edits]);
  return (
    <div className="edit-call" data-testid="edit-call-diff">
      {diffs.map((d, i) => (
        <div key={i}>
          {diffs.length > 1 && (
            <div className="muted small">
              edit {i + 1} of {diffs.length}
            </div>
          )}
          <Diff text={d} />
        </div>
      ))}
      <Section title="Arguments" open={false}>
        <Json value={args} />
      </Section>
    </div>
  );
}

function ToolCall({ block }: { block: Obj }) {
  const name = str(block.name) ?? '(unnamed tool)';
  const args = obj(block.arguments) ?? {};
  const command = name === 'bash' ? str(args.command) : undefined;
  const path = str(args.path) ?? str(args.file_path);
  const edits = name === 'edit' ? editsOf(args) : null;
  const compact = useCompact();
  const body =
    command !== undefined ? (
      <pre className="code-block">
        <code>{command}</code>
      </pre>
    ) : edits ? (
      <EditCallDiff edits={edits} args={args} />
    ) : (
      <Json value={args} />
    );
  if (compact)
    return (
      <details className="tool-call compact" data-testid="tool-call">
        <summary className="tool-call-head">
          <span className="chip tool-chip">⚙ {name}</span>
          <code className="small ellipsis">{path ?? command?.split('\n')[0] ?? ''}</code>
        </summary>
        {body}
      </details>
    );
  return (
    <div className="tool-call" data-testid="tool-call">
      <div className="tool-call-head">
        <span className="chip tool-chip">⚙ {name}</span>
        {path && <code className="small">{path}</code>}
        <span className="grow" />
        <span className="muted small mono" title="Tool call id">
          {str(block.id)}
        </span>
      </div>
      {body}
    </div>
  );
}

export function ToolResultBody({ message }: { message: Obj }) {
  const details = obj(message.details);
  const diff = str(details?.diff);
  const blocks = contentBlocks(message.content);
  const textLength = blocks.reduce((n, b) => n + (str(b.text)?.length ?? 0), 0);
  const cut = usePayloadBytes('/message/content/');
  return (
    <>
      <dl className="fields">
        <Field name="tool">{str(message.toolName) ?? '?'}</Field>
        <Field name="call id">
          <span className="mono">{str(message.toolCallId) ?? '?'}</span>
        </Field>
        {message.isError === true && (
          <Field name="status">
            <span className="chip error-chip">error</span>
          </Field>
        )}
      </dl>
      {diff && (
        <Section title="Diff" testId="diff-section">
          <Diff text={diff} />
        </Section>
      )}
      <Section
        title={cut ? `Output · ${formatBytes(cut)} (cut)` : `Output · ${textLength.toLocaleString('en-US')} chars`}
        open={!diff && (textLength < 4000 || cut > 0)}
        testId="tool-output"
      >
        <ContentBlocks content={message.content} path="/message/content" />
      </Section>
      {details && Object.keys(details).some((k) => k !== 'diff') && (
        <Section title="Details" open={false}>
          <Json value={diff ? { ...details, diff: undefined } : details} />
        </Section>
      )}
    </>
  );
}

export function BashBody({ message }: { message: Obj }) {
  const exit = num(message.exitCode);
  const output = usePayload('/message/output');
  return (
    <>
      <pre className="code-block">
        <code>$ {str(message.command) ?? ''}</code>
      </pre>
      <dl className="fields">
        {exit !== undefined && (
          <Field name="exit code">{exit === 0 ? '0' : <span className="chip error-chip">{exit}</span>}</Field>
        )}
        {message.cancelled === true && <Field name="cancelled">yes</Field>}
        {message.truncated === true && <Field name="truncated">{str(message.fullOutputPath) ?? 'yes'}</Field>}
        {message.excludeFromContext === true && <Field name="context">excluded (!!)</Field>}
      </dl>
      <Section title="Output" open>
        {output ? (
          <TextPayload p={output} cut={str(message.output) ?? ''} />
        ) : (
          <PlainText text={str(message.output) || '(no output)'} />
        )}
      </Section>
    </>
  );
}

export function AssistantMeta({ message }: { message: Obj }) {
  const usage = obj(message.usage);
  const cost = obj(usage?.cost);
  const stop = str(message.stopReason);
  const error = str(message.errorMessage);
  return (
    <div className="assistant-meta" data-testid="assistant-meta">
      <dl className="fields">
        <Field name="model">
          {str(message.provider) ? `${str(message.provider)} / ` : ''}
          {str(message.model) ?? '?'}
          {str(message.responseModel) && str(message.responseModel) !== str(message.model)
            ? ` → ${str(message.responseModel)}`
            : ''}
        </Field>
        {str(message.api) && <Field name="api">{str(message.api)}</Field>}
        {stop && (
          <Field name="stop reason">
            <span
              className={stop === 'error' || stop === 'aborted' || stop === 'length' ? 'chip warn-chip' : undefined}
            >
              {stop}
            </span>
          </Field>
        )}
        {error && (
          <Field name="error">
            <span className="error-text">{error}</span>
          </Field>
        )}
      </dl>
      {usage && (
        <UsageTable
          testId="usage"
          usage={{
            input: num(usage.input),
            output: num(usage.output),
            cacheRead: num(usage.cacheRead),
            cacheWrite: num(usage.cacheWrite),
            totalTokens: num(usage.totalTokens),
            costTotal: num(cost?.total),
          }}
        />
      )}
    </div>
  );
}

export function RetainedTail({ messages }: { messages: unknown[] }) {
  return (
    <Section
      title={`Retained tail · ${messages.length} message${messages.length === 1 ? '' : 's'}`}
      open={false}
      testId="retained-tail"
    >
      {messages.length === 0 && <div className="muted small">Empty: the checkpoint keeps only its summary.</div>}
      {messages.map((m, i) => {
        const msg = obj(m) ?? {};
        return (
          <div key={i} className="tail-message">
            <div className="muted small">{str(msg.role) ?? '?'}</div>
            <ContentBlocks
              content={msg.content ?? (str(msg.summary) ? [{ type: 'text', text: str(msg.summary) }] : [])}
              path={msg.content === undefined ? undefined : `/retainedTail/${i}/content`}
            />
          </div>
        );
      })}
    </Section>
  );
}
