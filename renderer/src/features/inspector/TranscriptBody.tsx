import type { ReactNode } from 'react';
import type { EntryDetailDto } from '../../lib/shared';
import { CompactContext } from './compact';
import { EntryBody } from './EntryBody';
import { ContentBlocks } from './parts';
import { PayloadProvider } from './payloads';
import { num, obj, str, type Obj } from './raw';

/**
 * One entry as the transcript shows it: the inspector's rendering, but tool calls, tool results,
 * bash runs and compaction summaries folded and images as placeholders (the shell hands this to
 * the transcript feature).
 */
export function TranscriptEntryBody({ detail }: { detail: EntryDetailDto }) {
  return (
    <PayloadProvider detail={detail}>
      <CompactContext.Provider value>
        <CompactBody raw={detail.raw} />
      </CompactContext.Provider>
    </PayloadProvider>
  );
}

function Folded({ summary, children }: { summary: ReactNode; children: ReactNode }) {
  return (
    <details className="tool-call compact" data-testid="folded">
      <summary className="tool-call-head">{summary}</summary>
      {children}
    </details>
  );
}

function CompactBody({ raw }: { raw: Obj }) {
  const message = obj(raw.message);
  if (raw.type === 'message' && message) {
    switch (message.role) {
      case 'user':
      case 'assistant':
        return <ContentBlocks content={message.content} path="/message/content" />;
      case 'toolResult':
        return (
          <Folded
            summary={
              <>
                <span className={`chip ${message.isError === true ? 'error-chip' : 'tool-chip'}`}>
                  ↳ {str(message.toolName) ?? 'tool'}
                </span>
                <span className="muted small">result</span>
              </>
            }
          >
            <EntryBody raw={raw} />
          </Folded>
        );
      case 'bashExecution':
        return (
          <Folded
            summary={
              <>
                <span className="chip tool-chip">$</span>
                <code className="small ellipsis">{str(message.command)?.split('\n')[0] ?? ''}</code>
                {num(message.exitCode) ? <span className="chip error-chip">exit {num(message.exitCode)}</span> : null}
              </>
            }
          >
            <EntryBody raw={raw} />
          </Folded>
        );
    }
  }
  if (raw.type === 'compaction')
    return (
      <Folded summary={<span className="muted small">Compaction summary</span>}>
        <EntryBody raw={raw} />
      </Folded>
    );
  return <EntryBody raw={raw} />;
}
