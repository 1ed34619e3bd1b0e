/** `canopy context`: the messages pi sends at a leaf. */
import { detectProfile, readSession } from '../core';
import {
  CliCommand,
  jsonOption,
  profileOption,
  line,
  jsonLine,
  stringOpt,
  profileOpt,
  needFiles,
  forEachSession,
  short,
  printIssues,
  shown,
} from './cli-io';
import { resolveRoots } from '../repo/roots';
import { redactObject, userRedactions } from './redaction';

export function messageSummary(m: unknown): string {
  if (typeof m !== 'object' || m === null) return String(m);
  const msg = m as Record<string, unknown>;
  const role = typeof msg.role === 'string' ? msg.role : '?';
  let text = '';
  if (typeof msg.content === 'string') text = msg.content;
  else if (Array.isArray(msg.content)) {
    text = msg.content
      .map((b: unknown) => {
        const block = (b ?? {}) as Record<string, unknown>;
        if (block.type === 'text') return String(block.text ?? '');
        if (block.type === 'toolCall') return `[tool ${String(block.name ?? '')}]`;
        if (block.type === 'thinking') return '[thinking]';
        if (block.type === 'image') return '[image]';
        return '';
      })
      .filter(Boolean)
      .join(' ');
  } else if (typeof msg.summary === 'string') text = msg.summary;
  else if (typeof msg.command === 'string') text = `$ ${msg.command}`;
  return `[${role}] ${short(text)}`;
}

export const contextCommand: CliCommand = {
  summary: 'what reaches the model at the current (or given) leaf',
  usage:
    'canopy context FILE... [--leaf ID] [--profile ca|h3] [--redact] [--json]   (--leaf "" = before the first entry; --redact: the messages without secrets)',
  options: { ...jsonOption, ...profileOption, leaf: { type: 'string' }, redact: { type: 'boolean' } },
  async run(args, io) {
    const files = needFiles(args);
    const profile = profileOpt(args);
    const leaf = stringOpt(args, 'leaf');
    const user = args.values.redact ? await userRedactions(resolveRoots()) : null;
    return forEachSession(
      files,
      args,
      io,
      (io, file, session) => {
        const read = readSession(session, {
          profile: profile ?? detectProfile(session),
          ...(leaf !== undefined ? { leafId: leaf === '' ? null : leaf } : {}),
        });
        const r = user ? { ...read, context: redactObject(read.context, user) } : read;
        if (args.values.json) {
          jsonLine(io, {
            file,
            profile: r.profile,
            leafId: r.leafId,
            pathIds: r.pathIds,
            contextEntryIds: r.contextEntryIds,
            context: r.context,
            labels: r.labels,
            sessionName: r.sessionName,
            issues: r.issues,
          });
          return;
        }
        const messages = (r.context as { messages?: unknown[] } | null)?.messages ?? [];
        line(io.stdout, file);
        line(
          io.stdout,
          `  profile ${r.profile}  leaf ${r.leafId === null ? '(none)' : shown(r.leafId)}  path ${r.pathIds.length} entries  context ${r.contextEntryIds.length} entries → ${messages.length} messages`,
        );
        if (r.sessionName) line(io.stdout, `  name: ${r.sessionName}`);
        for (const m of messages) line(io.stdout, `  ${shown(messageSummary(m))}`);
        printIssues(io, r.issues);
      },
      { verify: 'parse' },
    );
  },
};
