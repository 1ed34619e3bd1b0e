/**
 * Incremental text/event-stream parser (the subset `canopy serve` sends: `event:`, `data:`,
 * comments). Feed it decoded text chunks in any split; it calls `onEvent` per complete frame.
 */
export interface SseParser {
  push(chunk: string): void;
}

export function createSseParser(onEvent: (event: string, data: string) => void): SseParser {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) onEvent(event || 'message', data.join('\n'));
    event = '';
    data = [];
  };
  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  return {
    push(chunk: string) {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.search(/\r\n|\r|\n/)) !== -1) {
        // A lone '\r' at the end may be the first half of '\r\n': wait for more.
        if (buffer[nl] === '\r' && nl === buffer.length - 1) break;
        const width = buffer.startsWith('\r\n', nl) ? 2 : 1;
        line(buffer.slice(0, nl));
        buffer = buffer.slice(nl + width);
      }
    },
  };
}
