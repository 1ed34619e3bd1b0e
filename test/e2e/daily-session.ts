/**
 * A small pi session for the daily-use e2e tests: a conversation with a tool call and its result,
 * an image, thinking, a compaction, and a branch point whose other branch the transcript offers.
 */
const line = (v: unknown) => JSON.stringify(v);
let clock = Date.parse('2026-03-02T09:00:00.000Z');
const ts = () => new Date((clock += 1000)).toISOString();
const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

export const DAILY_ID = '019c0000-0000-7000-8000-0000000da11e';
export const DAILY_CWD = '/home/you/projects/daily';

export function userLine(id: string, parentId: string | null, text: string): string {
  return line({
    type: 'message',
    id,
    parentId,
    timestamp: ts(),
    message: { role: 'user', content: text, timestamp: 1 },
  });
}

export function assistantLine(id: string, parentId: string, content: unknown[]): string {
  return line({
    type: 'message',
    id,
    parentId,
    timestamp: ts(),
    message: {
      role: 'assistant',
      content,
      provider: 'p',
      model: 'm',
      api: 'x',
      stopReason: 'stop',
      timestamp: 2,
      usage,
    },
  });
}

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** u1 … a4 on the main branch (leaf a6 after a compaction); u2's other child starts branch "x". */
export function dailySessionText(): string {
  const out = [
    line({ type: 'session', version: 3, id: DAILY_ID, timestamp: ts(), cwd: DAILY_CWD }),
    userLine('u1', null, 'Read the config loader and tell me what breaks'),
    assistantLine('a1', 'u1', [
      { type: 'thinking', thinking: 'Look at loadConfig first.' },
      { type: 'text', text: 'Let me read it.' },
      { type: 'toolCall', id: 'call1', name: 'read', arguments: { path: 'src/config.ts' } },
    ]),
    line({
      type: 'message',
      id: 't1',
      parentId: 'a1',
      timestamp: ts(),
      message: {
        role: 'toolResult',
        toolCallId: 'call1',
        toolName: 'read',
        content: [{ type: 'text', text: 'export function loadConfig() {}' }],
        isError: false,
        timestamp: 3,
      },
    }),
    assistantLine('a2', 't1', [{ type: 'text', text: 'The loader ignores **missing files**.' }]),
    line({
      type: 'message',
      id: 'u2',
      parentId: 'a2',
      timestamp: ts(),
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'Here is the screenshot' },
          { type: 'image', mimeType: 'image/png', data: PIXEL },
        ],
        timestamp: 4,
      },
    }),
    assistantLine('x1', 'u2', [{ type: 'text', text: 'Side branch: try a rewrite instead' }]),
    userLine('x2', 'x1', 'What would the rewrite look like?'),
    assistantLine('a3', 'u2', [{ type: 'text', text: 'I see the bug in the screenshot.' }]),
    line({
      type: 'compaction',
      id: 'c1',
      parentId: 'a3',
      timestamp: ts(),
      summary: 'The user asked about the config loader; the bug is a missing-file check.',
      firstKeptEntryId: 'a3',
      tokensBefore: 12000,
    }),
    userLine('u4', 'c1', 'Fix it please'),
    assistantLine('a4', 'u4', [{ type: 'text', text: 'Fixed: loadConfig now checks the file exists.' }]),
  ];
  return `${out.join('\n')}\n`;
}
