/**
 * The agent's recall tools, each one `canopy` call away: session_search (`canopy search --json
 * --redact`) and session_context (`canopy context --json --redact`). Read-only; results bounded;
 * another project's sessions only when asked.
 */
import { Type } from 'typebox';
import type { ExtensionAPI } from '@earendil-works/pi-coding-agent';
import { jsonLines, type RunCanopy } from './canopy-cli';
import { compactContext, type CanopyContext } from './compact';
import { describeScope, inScope, parseScope, rootArgs, SCOPE_HELP, type Scope } from './scope';

/** One hit as `canopy search --json` prints it. */
export interface SearchHitJson {
  sessionId: string;
  path: string;
  cwd: string;
  entryId: string | null;
  line: number;
  role: string;
  field: string;
  time: string | null;
  snippet: string;
  match: [number, number];
}

interface ListedSession {
  id: string;
  path: string;
  cwd: string;
  name?: string | null;
}

export const SEARCH_LIMIT = { default: 10, max: 50 };
export const CONTEXT_BUDGET = { default: 4000, min: 200, max: 16000 };

/** What a tool needs of pi's context: where pi is, and where it keeps this session. */
interface Where {
  cwd: string;
  sessionManager: { getSessionDir(): string };
}

function sessionDirOf(ctx: Where): string | undefined {
  try {
    return ctx.sessionManager.getSessionDir() || undefined;
  } catch {
    return undefined;
  }
}

function failed(what: string, r: { code: number; stderr: string }): Error {
  const said = r.stderr.trim().split('\n').slice(-3).join('\n');
  return new Error(`${what} failed (exit ${r.code})${said ? `: ${said}` : ''}`);
}

export function hitLine(h: SearchHitJson): string {
  const where = h.entryId ? `entry ${h.entryId} (${h.role})` : '(the session itself)';
  return `${h.time ?? '-'}  session ${h.sessionId}  ${where}  in ${h.cwd}\n    ${h.snippet}`;
}

export async function searchSessions(
  run: RunCanopy,
  ctx: Where,
  params: { query: string; scope?: string; limit?: number },
  signal?: AbortSignal,
): Promise<{ text: string; hits: SearchHitJson[]; more: boolean; scope: Scope }> {
  const scope = parseScope(params.scope, ctx.cwd);
  const limit = Math.min(SEARCH_LIMIT.max, Math.max(1, Math.floor(params.limit ?? SEARCH_LIMIT.default)));
  // One more than asked for says whether more exist.
  const args = ['search', params.query, '--json', '--redact', '--limit', String(limit + 1)];
  args.push(...rootArgs(sessionDirOf(ctx)), ...(scope.kind === 'cwd' ? ['--cwd', scope.cwd] : []));
  const r = await run(args, signal);
  // 0 hits, 1 none, 3 the index could not be used (the files were searched directly).
  if (r.code !== 0 && r.code !== 1 && r.code !== 3) throw failed('canopy search', r);
  const all = jsonLines<SearchHitJson>(r.stdout);
  const hits = all.slice(0, limit);
  const more = all.length > limit;
  const head =
    hits.length === 0
      ? `No hits for ${JSON.stringify(params.query)} in ${describeScope(scope)}.`
      : `${hits.length} hit${hits.length === 1 ? '' : 's'} for ${JSON.stringify(params.query)} in ${describeScope(scope)}${more ? ` (more exist: narrow the query or raise limit, at most ${SEARCH_LIMIT.max})` : ''}; secrets are redacted. session_context reads a hit's session up to its entry.`;
  return { text: [head, ...hits.map(hitLine)].join('\n'), hits, more, scope };
}

export async function sessionContext(
  run: RunCanopy,
  ctx: Where,
  params: { session: string; leaf?: string; budget?: number; scope?: string },
  signal?: AbortSignal,
): Promise<{ text: string; path: string; sessionId: string; context: CanopyContext; budget: number; tokens: number }> {
  const scope = parseScope(params.scope, ctx.cwd);
  const budget = Math.min(
    CONTEXT_BUDGET.max,
    Math.max(CONTEXT_BUDGET.min, Math.floor(params.budget ?? CONTEXT_BUDGET.default)),
  );
  const listed = await run(['list', '--json', '--headers-only', ...rootArgs(sessionDirOf(ctx))], signal);
  if (listed.code !== 0) throw failed('canopy list', listed);
  const sessions = (jsonLines<{ sessions: ListedSession[] }>(listed.stdout)[0]?.sessions ?? []).filter((s) =>
    inScope(scope, s.cwd),
  );
  const session = sessions.find((s) => s.id === params.session || s.path === params.session);
  if (!session)
    throw new Error(
      `no session ${JSON.stringify(params.session)} among ${describeScope(scope)} (session_search gives session ids; scope "all" reaches other projects)`,
    );
  const args = [
    'context',
    session.path,
    '--json',
    '--redact',
    ...(params.leaf !== undefined ? ['--leaf', params.leaf] : []),
  ];
  const r = await run(args, signal);
  if (r.code !== 0) throw failed('canopy context', r);
  const context = jsonLines<CanopyContext>(r.stdout)[0];
  if (!context) throw failed('canopy context', r);
  if (params.leaf !== undefined && context.leafId !== params.leaf)
    throw new Error(`session ${session.id} has no entry ${JSON.stringify(params.leaf)}`);
  const c = compactContext(context, { id: session.id, cwd: session.cwd }, budget);
  return { text: c.text, path: session.path, sessionId: session.id, context, budget, tokens: c.tokens };
}

export function registerTools(pi: ExtensionAPI, run: RunCanopy): void {
  pi.registerTool({
    name: 'session_search',
    label: 'Search sessions',
    description:
      'Full-text search of past pi sessions (Canopy\'s index). Query syntax as pi\'s /resume: words (all must match), "exact phrase", re:<regex>; filters role:user|assistant|tool… tool:<name> file:<path> after:YYYY-MM-DD before:YYYY-MM-DD branch:active. ' +
      `Returns up to ${SEARCH_LIMIT.max} hits (default ${SEARCH_LIMIT.default}): session id, entry id, time, project folder and a short snippet with secrets redacted. Read-only.`,
    promptSnippet: 'Search past pi sessions of this project for earlier work, decisions and errors',
    parameters: Type.Object({
      query: Type.String({ description: "pi's /resume query syntax plus Canopy's filters" }),
      scope: Type.Optional(Type.String({ description: SCOPE_HELP })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_LIMIT.max, description: 'Most hits to return' })),
    }),
    async execute(_id, params, signal, _onUpdate, ctx) {
      const r = await searchSessions(run, ctx, params, signal);
      return { content: [{ type: 'text', text: r.text }], details: { hits: r.hits, more: r.more, scope: r.scope } };
    },
  });
  pi.registerTool({
    name: 'session_context',
    label: 'Read a past session',
    description:
      "What reached the model in a past pi session at one of its entries (default: the session's leaf), as compact text: one line per message, newest kept. " +
      `At most \`budget\` tokens (4 characters each; default ${CONTEXT_BUDGET.default}, ${CONTEXT_BUDGET.min} to ${CONTEXT_BUDGET.max}); secrets redacted. Read-only.`,
    promptSnippet: 'Read a past session (from session_search) up to an entry, within a token budget',
    parameters: Type.Object({
      session: Type.String({ description: 'A session id (from session_search) or its file path' }),
      leaf: Type.Optional(
        Type.String({ description: "An entry id: the path from the root to it; default the session's leaf" }),
      ),
      budget: Type.Optional(
        Type.Integer({
          minimum: CONTEXT_BUDGET.min,
          maximum: CONTEXT_BUDGET.max,
          description: 'Most tokens to return',
        }),
      ),
      scope: Type.Optional(Type.String({ description: SCOPE_HELP })),
    }),
    async execute(_id, params, signal, _onUpdate, ctx) {
      const r = await sessionContext(run, ctx, params, signal);
      return {
        content: [{ type: 'text', text: r.text }],
        details: {
          sessionId: r.sessionId,
          path: r.path,
          leafId: r.context.leafId,
          pathIds: r.context.pathIds,
          budget: r.budget,
          tokens: r.tokens,
        },
      };
    },
  });
}
