import { CHANNELS, type Api, type Events, type EventName } from '../../electron/shared/contract';
import type { SessionListDto, SessionRowDto, SessionSummaryDto } from '../../electron/shared/dto';
import type { Result } from '../../electron/shared/errors';

type Handlers = {
  [K in Exclude<keyof Api, 'on'>]?: (args: Parameters<Api[K]>[0]) => Promise<Awaited<ReturnType<Api[K]>>>;
};

export interface FakeApi {
  api: Api;
  calls: Array<{ channel: string; args: unknown }>;
  emit<E extends EventName>(event: E, payload: Events[E]): void;
  listenerCount(): number;
}

const notStubbed = async (): Promise<Result<never>> => ({
  ok: false,
  error: { code: 'internal', message: 'not stubbed' },
});

export function fakeApi(handlers: Handlers): FakeApi {
  const calls: FakeApi['calls'] = [];
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const api: Record<string, unknown> = {};
  for (const channel of CHANNELS) {
    api[channel] = (args: unknown) => {
      calls.push({ channel, args });
      const h = handlers[channel] as ((a: unknown) => Promise<unknown>) | undefined;
      return h ? h(args) : notStubbed();
    };
  }
  api.on = (event: string, l: (p: unknown) => void) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(l);
    return () => set.delete(l);
  };
  return {
    api: api as unknown as Api,
    calls,
    emit: (event, payload) => listeners.get(event)?.forEach((l) => l(payload)),
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
}

export function row(sessionId: string, cwd: string, extra: Partial<SessionRowDto> = {}): SessionRowDto {
  return {
    sessionId,
    cwd,
    createdAt: '2026-01-01T10:00:00.000Z',
    modifiedAt: '2026-01-02T10:00:00.000Z',
    sizeBytes: 2048,
    fileName: `2026-01-01T10-00-00-000Z_${sessionId}.jsonl`,
    path: `/sessions/${sessionId}.jsonl`,
    parentSessionId: null,
    parentSessionPath: null,
    summary: null,
    ...extra,
  };
}

export function summary(name: string | null, firstMessage: string | null, entryCount = 4): SessionSummaryDto {
  return {
    name,
    firstMessage,
    entryCount,
    messageCount: entryCount,
    lastActivity: '2026-01-02T10:00:00.000Z',
    issueCount: 0,
  };
}

export function listOf(rows: SessionRowDto[]): SessionListDto {
  const projects = new Map<string, { cwd: string; sessionCount: number; lastActivity: string }>();
  for (const r of rows) {
    const p = projects.get(r.cwd) ?? { cwd: r.cwd, sessionCount: 0, lastActivity: r.modifiedAt };
    p.sessionCount++;
    if (r.modifiedAt > p.lastActivity) p.lastActivity = r.modifiedAt;
    projects.set(r.cwd, p);
  }
  return { projects: [...projects.values()], sessions: rows, skipped: [] };
}
