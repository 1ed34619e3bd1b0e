import { EntryLink } from '../../ui/EntryLink';
import { Field, FileList } from '../../ui/Field';
import { Markdown, PlainText } from '../../ui/Markdown';
import { AssistantMeta, BashBody, ContentBlocks, Json, RetainedTail, Section, ToolResultBody } from './parts';
import { arr, num, obj, str, type Obj } from './raw';

/** The body of one entry, by type (and role for messages). */
export function EntryBody({ raw }: { raw: Obj }) {
  switch (raw.type) {
    case 'message':
      return <MessageBody message={obj(raw.message) ?? {}} />;
    case 'compaction':
      return <CompactionBody raw={raw} />;
    case 'branch_summary':
      return (
        <>
          <dl className="fields">
            <Field name="from">
              {str(raw.fromId) === 'root' ? (
                'root (before the first entry)'
              ) : str(raw.fromId) ? (
                <EntryLink id={str(raw.fromId)!} />
              ) : (
                '?'
              )}
            </Field>
            {raw.fromHook === true && <Field name="by">extension</Field>}
          </dl>
          {str(raw.summary) ? (
            <Markdown text={str(raw.summary)!} />
          ) : (
            <div className="muted small">(empty summary: not sent to the model)</div>
          )}
        </>
      );
    case 'label':
      return (
        <dl className="fields">
          <Field name="target">{str(raw.targetId) ? <EntryLink id={str(raw.targetId)!} /> : '?'}</Field>
          <Field name="label">
            {str(raw.label) ? (
              <span className="chip label-badge"># {str(raw.label)}</span>
            ) : (
              <span className="muted">(clears the label)</span>
            )}
          </Field>
        </dl>
      );
    case 'session_info':
      return (
        <dl className="fields">
          <Field name="name">{str(raw.name) || <span className="muted">(clears the name)</span>}</Field>
        </dl>
      );
    case 'model_change':
      return (
        <dl className="fields">
          <Field name="provider">{str(raw.provider) ?? '?'}</Field>
          <Field name="model">{str(raw.modelId) ?? '?'}</Field>
        </dl>
      );
    case 'thinking_level_change':
      return (
        <dl className="fields">
          <Field name="thinking">{str(raw.thinkingLevel) ?? '?'}</Field>
        </dl>
      );
    case 'active_tools_change':
      return (
        <dl className="fields">
          <Field name="tools">{arr(raw.activeToolNames).map(String).join(', ') || '(none)'}</Field>
        </dl>
      );
    case 'leaf':
      return (
        <dl className="fields">
          <Field name="moves leaf to">
            {raw.targetId === null ? (
              'before the first entry'
            ) : str(raw.targetId) ? (
              <EntryLink id={str(raw.targetId)!} />
            ) : (
              '?'
            )}
          </Field>
        </dl>
      );
    case 'custom':
      return (
        <>
          <dl className="fields">
            <Field name="custom type">{str(raw.customType) ?? '?'}</Field>
          </dl>
          <Section title="Data">
            <Json value={raw.data} />
          </Section>
        </>
      );
    case 'custom_message':
      return <CustomMessage source={raw} />;
    default:
      return <div className="muted small">Unknown entry type: pi keeps it but never sends it to the model.</div>;
  }
}

function MessageBody({ message }: { message: Obj }) {
  switch (message.role) {
    case 'user':
      return <ContentBlocks content={message.content} path="/message/content" />;
    case 'assistant':
      return (
        <>
          <AssistantMeta message={message} />
          <ContentBlocks content={message.content} path="/message/content" />
        </>
      );
    case 'toolResult':
      return <ToolResultBody message={message} />;
    case 'bashExecution':
      return <BashBody message={message} />;
    case 'custom':
    case 'hookMessage':
      return <CustomMessage source={message} path="/message/content" />;
    case 'branchSummary':
    case 'compactionSummary':
      return <Markdown text={str(message.summary) ?? ''} />;
    default:
      return <ContentBlocks content={message.content} path="/message/content" />;
  }
}

function CustomMessage({ source, path = '/content' }: { source: Obj; path?: string }) {
  return (
    <>
      <dl className="fields">
        <Field name="custom type">{str(source.customType) ?? '?'}</Field>
        <Field name="display">
          {source.display === false ? 'hidden in the UI (still sent to the model)' : 'shown'}
        </Field>
      </dl>
      <ContentBlocks content={source.content} path={path} />
      {source.details !== undefined && (
        <Section title="Details" open={false}>
          <Json value={source.details} />
        </Section>
      )}
    </>
  );
}

function CompactionBody({ raw }: { raw: Obj }) {
  const details = obj(raw.details);
  const hasTail = 'retainedTail' in raw && raw.retainedTail !== undefined && raw.retainedTail !== null;
  return (
    <>
      <dl className="fields">
        {num(raw.tokensBefore) !== undefined && (
          <Field name="tokens before">{num(raw.tokensBefore)!.toLocaleString('en-US')}</Field>
        )}
        <Field name="checkpoint">
          {hasTail ? (
            <span className="chip checkpoint-chip retained">self-contained (retainedTail)</span>
          ) : str(raw.firstKeptEntryId) ? (
            <>
              <span className="chip checkpoint-chip first-kept">keeps from</span>{' '}
              <EntryLink id={str(raw.firstKeptEntryId)!} />
            </>
          ) : (
            <span className="muted">summary only</span>
          )}
        </Field>
        {hasTail && str(raw.firstKeptEntryId) && (
          <Field name="first kept (ignored by H3)">
            <EntryLink id={str(raw.firstKeptEntryId)!} />
          </Field>
        )}
        {raw.fromHook === true && <Field name="by">extension</Field>}
        <FileList title="read files" files={details?.readFiles} />
        <FileList title="modified files" files={details?.modifiedFiles} />
      </dl>
      <Section title="Summary" testId="compaction-summary">
        {str(raw.summary) ? <Markdown text={str(raw.summary)!} /> : <PlainText text="(empty)" />}
      </Section>
      {hasTail && <RetainedTail messages={arr(raw.retainedTail)} />}
    </>
  );
}
