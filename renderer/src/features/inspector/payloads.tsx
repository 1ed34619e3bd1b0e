/**
 * Heavy payloads entry.get cut from a line (EntryDetailDto.payloads): drawn as sized placeholders
 * where the string would be; an image loads from its byte range on demand, a text pages in.
 */
import { createContext, useContext, useState, type ReactNode } from 'react';
import { useActions } from '../../app-context';
import { formatBytes } from '../../lib/format';
import type { EntryDetailDto, PayloadDto } from '../../lib/shared';
import { imageDataUrl, isObj, str, type Obj } from './raw';

interface Payloads {
  sessionId: string;
  entryId: string;
  byId: Map<string, PayloadDto>;
  label: (p: PayloadDto) => string;
}

const PayloadContext = createContext<Payloads | null>(null);

/** Where a body draws a payload in place (ContentBlocks, bash output); the rest get their own list. */
const IN_PLACE = /^(\/message|\/retainedTail\/\d+)?\/content(\/\d+\/(text|data))?$|^\/message\/output$/;

/** What a text payload is, for its placeholder. */
function textLabel(raw: Obj): string {
  const role = isObj(raw.message) ? str(raw.message.role) : undefined;
  if (role === 'toolResult') return 'tool output';
  if (role === 'bashExecution') return 'bash output';
  if (raw.type === 'custom') return 'custom data';
  return 'text';
}

export function PayloadProvider({ detail, children }: { detail: EntryDetailDto; children: ReactNode }) {
  const payloads = detail.payloads ?? [];
  const value: Payloads = {
    sessionId: detail.sessionId,
    entryId: detail.entryId,
    byId: new Map(payloads.map((p) => [p.id, p])),
    label: (p) => (p.kind === 'image' ? (p.mimeType ?? 'image') : textLabel(detail.raw)),
  };
  return <PayloadContext.Provider value={value}>{children}</PayloadContext.Provider>;
}

/** The cut payload at a JSON pointer of the shown entry, if any. */
export function usePayload(pointer: string | undefined): PayloadDto | undefined {
  const ctx = useContext(PayloadContext);
  return pointer === undefined ? undefined : ctx?.byId.get(pointer);
}

/** Decoded bytes of the cut payloads under a pointer prefix (0: none). */
export function usePayloadBytes(prefix: string): number {
  const ctx = useContext(PayloadContext);
  let n = 0;
  for (const p of ctx?.byId.values() ?? []) if (p.id.startsWith(prefix)) n += p.sizeBytes;
  return n;
}

type Loading = { state: 'idle' } | { state: 'loading'; done: number } | { state: 'error'; message: string };

/** Pages of one payload from entry.payload (offset undefined: where the cut ends). */
function usePages() {
  const actions = useActions();
  const ctx = useContext(PayloadContext);
  return async (p: PayloadDto, offset: number | undefined) => {
    if (!ctx) throw new Error('no entry');
    return actions.payloadPage({
      sessionId: ctx.sessionId,
      entryId: ctx.entryId,
      payloadId: p.id,
      ...(offset === undefined ? {} : { offset }),
    });
  };
}

function Head({ p, extra }: { p: PayloadDto; extra?: string }) {
  const ctx = useContext(PayloadContext);
  return (
    <span className="payload-size" data-testid="payload-size">
      {ctx?.label(p) ?? p.kind} · {formatBytes(p.sizeBytes)}
      {extra ? ` · ${extra}` : ''}
    </span>
  );
}

export function ImagePayload({ p }: { p: PayloadDto }) {
  const page = usePages();
  const [url, setUrl] = useState<string | null>(null);
  const [loading, setLoading] = useState<Loading>({ state: 'idle' });
  const load = async () => {
    setLoading({ state: 'loading', done: 0 });
    try {
      let data = '';
      for (let offset = 0; offset < p.totalBytes;) {
        const r = await page(p, offset);
        if (r.next <= offset) throw new Error('the payload ended early');
        data += r.text;
        offset = r.next;
        setLoading({ state: 'loading', done: offset });
      }
      const src = imageDataUrl({ mimeType: p.mimeType, data });
      if (!src) throw new Error(`cannot show ${p.mimeType ?? 'an image without a type'}`);
      setUrl(src);
    } catch (err) {
      setLoading({ state: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  };
  if (url)
    return <img className="content-image" src={url} alt={`image (${p.mimeType ?? '?'})`} data-testid="content-image" />;
  return (
    <div className="payload" data-testid="payload" data-kind="image">
      <Head p={p} />
      <button type="button" className="payload-load" onClick={() => void load()} disabled={loading.state === 'loading'}>
        {loading.state === 'loading'
          ? `Loading… ${Math.floor((100 * loading.done) / Math.max(1, p.totalBytes))}%`
          : 'Load image'}
      </button>
      {loading.state === 'error' && <span className="error-text small">{loading.message}</span>}
    </div>
  );
}

/** A cut text: its kept start, then pages on "Load more". `cut` is the string as entry.get sent it. */
export function TextPayload({ p, cut }: { p: PayloadDto; cut: string }) {
  const page = usePages();
  const [text, setText] = useState(() => cut.slice(0, p.keptChars));
  const [next, setNext] = useState(p.keptBytes);
  const [loading, setLoading] = useState<Loading>({ state: 'idle' });
  const more = async () => {
    setLoading({ state: 'loading', done: next });
    try {
      const r = await page(p, next);
      setText((t) => t + r.text);
      setNext(r.next);
      setLoading({ state: 'idle' });
    } catch (err) {
      setLoading({ state: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  };
  const done = next >= p.totalBytes;
  return (
    <div className="payload" data-testid="payload" data-kind="text">
      <div className="payload-row">
        <Head p={p} extra={done ? 'all shown' : `first ${formatBytes(next)}`} />
        {!done && (
          <button
            type="button"
            className="payload-load"
            onClick={() => void more()}
            disabled={loading.state === 'loading'}
          >
            {loading.state === 'loading' ? 'Loading…' : 'Load more'}
          </button>
        )}
        {loading.state === 'error' && <span className="error-text small">{loading.message}</span>}
      </div>
      {/* Not PlainText's soft limit: every page here was asked for. */}
      <pre className="pre-text">{text}</pre>
    </div>
  );
}

/** The string at a JSON pointer of `raw` (RFC 6901), if it is one. */
function stringAt(raw: unknown, pointer: string): string | undefined {
  let at: unknown = raw;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    at = Array.isArray(at) ? at[Number(key)] : isObj(at) ? at[key] : undefined;
  }
  return str(at);
}

/** Payloads the body does not draw in place (custom data, details): a list of their own. */
export function OtherPayloads({ detail }: { detail: EntryDetailDto }) {
  const rest = (detail.payloads ?? []).filter((p) => !IN_PLACE.test(p.id));
  if (rest.length === 0) return null;
  return (
    <div className="payload-list" data-testid="other-payloads">
      {rest.map((p) => (
        <div key={p.id}>
          <code className="small muted">{p.id}</code>
          {p.kind === 'image' ? <ImagePayload p={p} /> : <TextPayload p={p} cut={stringAt(detail.raw, p.id) ?? ''} />}
        </div>
      ))}
    </div>
  );
}

/** The Raw JSON view's note: what it shows is the cut line. */
export function CutNote({ detail }: { detail: EntryDetailDto }) {
  const n = detail.payloads?.length ?? 0;
  if (n === 0) return null;
  return (
    <div className="muted small payload-note" data-testid="payload-note">
      Payloads are cut here: {n} string{n === 1 ? '' : 's'} (image data emptied, long texts shortened to their start);
      the file holds them whole.
    </div>
  );
}
