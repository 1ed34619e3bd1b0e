/**
 * A pi agent session run through pi's own SDK with the Canopy package loaded by pi's extension
 * loader (from pi-package/, as `pi install <path>` would) and a scripted model: no network.
 */
import { join } from 'node:path';
import { loadPiSdk, type Ai } from './pi-sdk';
import { projectDirName } from '../repo/helpers';

export const PACKAGE_DIR = join(__dirname, '..', '..', 'pi-package');

/** One model turn: call tools, or answer with text. */
export type Turn = { tools: Array<{ id: string; name: string; args: Record<string, unknown> }> } | { text: string };

export interface ToolResult {
  toolCallId: string;
  toolName: string;
  text: string;
  isError: boolean;
  details: any;
}

export interface PiRun {
  /** Sends `text` (a prompt or a /command) and waits until pi is idle. */
  prompt(text: string): Promise<void>;
  /** The tool results pi recorded, in order. */
  toolResults(): ToolResult[];
  /** What the loader reported (load errors must be none). */
  extensionErrors: string[];
  toolNames: string[];
  commandNames: string[];
  sessionFile(): string | undefined;
  dispose(): void;
}

export async function startPi(opts: {
  cwd: string;
  agentDir: string;
  turns: Turn[];
  /** Write this conversation to pi's sessions folder (default: kept in memory, so searches see only the fixtures). */
  persist?: boolean;
  /** A UI for the extension (missing methods do nothing); without one pi runs as in print mode. */
  ui?: Record<string, (...args: any[]) => unknown>;
  /** pi's command-context actions the test wants to see (switchSession, …). */
  actions?: Record<string, (...args: any[]) => unknown>;
}): Promise<PiRun> {
  const { sdk, ai } = await loadPiSdk();
  const faux = ai.fauxProvider({ provider: 'scripted', models: [{ id: 'script', contextWindow: 200_000 }] });
  faux.setResponses(
    opts.turns.map((t) =>
      'text' in t
        ? ai.fauxAssistantMessage(t.text)
        : ai.fauxAssistantMessage(
            t.tools.map((c) => ai.fauxToolCall(c.name, c.args as Parameters<Ai['fauxToolCall']>[1], { id: c.id })),
            { stopReason: 'toolUse' },
          ),
    ),
  );
  const modelRuntime = await sdk.ModelRuntime.create({
    authPath: join(opts.agentDir, 'auth.json'),
    modelsPath: null,
    refreshOnCreate: false,
  });
  modelRuntime.registerNativeProvider(faux.provider);
  await modelRuntime.setRuntimeApiKey('scripted', 'scripted-key');
  const settingsManager = sdk.SettingsManager.inMemory({ compaction: { enabled: false }, retry: { enabled: false } });
  const resourceLoader = new sdk.DefaultResourceLoader({
    cwd: opts.cwd,
    agentDir: opts.agentDir,
    settingsManager,
    additionalExtensionPaths: [PACKAGE_DIR],
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
    disabledBuiltinExtensions: ['mcp', 'codemode', 'tool_search'],
  });
  await resourceLoader.reload();
  const loaded = resourceLoader.getExtensions();
  const sessionManager = opts.persist
    ? sdk.SessionManager.create(opts.cwd, join(opts.agentDir, 'sessions', projectDirName(opts.cwd)))
    : sdk.SessionManager.inMemory(opts.cwd);
  const { session } = await sdk.createAgentSession({
    cwd: opts.cwd,
    agentDir: opts.agentDir,
    modelRuntime,
    model: faux.getModel(),
    thinkingLevel: 'off',
    resourceLoader,
    settingsManager,
    sessionManager,
    noTools: 'builtin',
  });
  const noop = () => undefined;
  const ui = opts.ui && new Proxy(opts.ui, { get: (t, k: string) => t[k] ?? noop });
  await session.bindExtensions({
    ...(ui ? { uiContext: ui as never, mode: 'rpc' as const } : {}),
    ...(opts.actions ? { commandContextActions: opts.actions as never } : {}),
  });
  return {
    prompt: async (text) => {
      await session.prompt(text);
      await session.waitForIdle?.();
    },
    toolResults: () =>
      session.messages
        .filter((m: any) => m.role === 'toolResult')
        .map((m: any) => ({
          toolCallId: m.toolCallId,
          toolName: m.toolName,
          text: (m.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join(''),
          isError: m.isError,
          details: m.details,
        })),
    extensionErrors: loaded.errors.map((e) => `${e.path}: ${e.error}`),
    toolNames: session.getActiveToolNames(),
    commandNames: loaded.extensions.flatMap((e) => [...e.commands.keys()]),
    sessionFile: () => session.sessionManager.getSessionFile(),
    dispose: () => session.dispose(),
  };
}

/** pi's command-context actions for a test: each does nothing, and switchSession records its path. */
export function recordingActions(switched: string[]): Record<string, (...args: any[]) => unknown> {
  const done = { cancelled: false };
  return {
    waitForIdle: async () => undefined,
    newSession: async () => done,
    fork: async () => done,
    navigateTree: async () => done,
    reload: async () => undefined,
    switchSession: async (path: string) => {
      switched.push(path);
      return done;
    },
  };
}
