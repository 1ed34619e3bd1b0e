import { Fragment, type ReactNode } from 'react';

/**
 * A text with its matched ranges ([start, end), sorted, not overlapping) in <mark>. A long text
 * is cut to a window around the first match so the match is never clipped off the row.
 */
export function Marked({
  text,
  ranges,
  window: span = 0,
}: {
  text: string;
  ranges: ReadonlyArray<readonly [number, number]>;
  /** When set: show about this many characters around the first match. */
  window?: number;
}) {
  let from = 0;
  let to = text.length;
  if (span > 0 && ranges.length > 0 && text.length > span) {
    from = Math.max(0, Math.min(ranges[0]![0] - Math.floor(span / 3), text.length - span));
    to = Math.min(text.length, from + span);
  }
  const parts: ReactNode[] = [];
  let at = from;
  ranges.forEach(([s, e], i) => {
    const start = Math.max(s, at);
    const end = Math.min(e, to);
    if (end <= start) return;
    parts.push(<Fragment key={`t${i}`}>{text.slice(at, start)}</Fragment>);
    parts.push(<mark key={`m${i}`}>{text.slice(start, end)}</mark>);
    at = end;
  });
  parts.push(<Fragment key="rest">{text.slice(at, to)}</Fragment>);
  return (
    <>
      {from > 0 && '…'}
      {parts}
      {to < text.length && '…'}
    </>
  );
}
