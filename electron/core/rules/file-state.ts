/**
 * What a branch did to the files, rebuilt from pi's `edit` and `write` tool calls and their results.
 * PURE. Canopy never reads the project, so a file's text is what the calls show of it: a `write`
 * gives the whole text; an `edit` of a file never written on the path shows only its `oldText`
 * excerpts, which become the known parts of the file (joined by an elision line). A call changes
 * the file only when its result says it succeeded: a failed edit (error result) changed nothing.
 */
import type { Entry } from '../types';

/** The line that stands for the unknown text between two excerpts of a file never written whole. */
export const ELISION = '⋮';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One file as the calls know it: its text when the comparison started and now. */
export interface FileText {
  /** The text at the start (the common ancestor), as far as it is known. */
  before: string;
  after: string;
  /** True when `before` is the whole text (the file was written on the path before the start). */
  beforeWhole: boolean;
  /** True when `after` is the whole text (written on the path); else it is excerpts. */
  whole: boolean;
  /** True when a `write` replaced a text the calls never showed (its old text is unknown). */
  overwrote: boolean;
  /** Edits whose result succeeded but whose oldText was not found in the known text (pi may have matched loosely). */
  unreplayed: number;
}

const EMPTY: FileText = { before: '', after: '', beforeWhole: false, whole: false, overwrote: false, unreplayed: 0 };

/** A tool call seen on the path whose result has not come yet. */
interface PendingCall {
  name: string;
  args: unknown;
}

/** A shell command that may have changed files the calls do not show. */
export interface ShellRun {
  entryId: string;
  command: string;
}

const normalizeLf = (text: string): string => text.replace(/\r\n?/g, '\n');

/**
 * pi's edit argument shapes (pi-coding-agent prepareEditArguments): `edits` as an array, a JSON
 * string of one, or a single object, and the legacy top-level `oldText`/`newText`.
 */
export function editsOf(args: unknown): { oldText: string; newText: string }[] {
  if (!isRec(args)) return [];
  let edits: unknown = args.edits;
  if (typeof edits === 'string') {
    try {
      edits = JSON.parse(edits) as unknown;
    } catch {
      edits = undefined;
    }
  }
  const list: unknown[] = Array.isArray(edits) ? [...(edits as unknown[])] : isRec(edits) ? [edits] : [];
  if (typeof args.oldText === 'string' && typeof args.newText === 'string')
    list.push({ oldText: args.oldText, newText: args.newText });
  return list.flatMap((e) =>
    isRec(e) && typeof e.oldText === 'string' && typeof e.newText === 'string'
      ? [{ oldText: normalizeLf(e.oldText), newText: normalizeLf(e.newText) }]
      : [],
  );
}

/** A tool path as one key per file: relative to the session's cwd when under it (pi strips a leading `@`). */
export function fileKey(path: string, cwd: string): string {
  let p = path.startsWith('@') ? path.slice(1) : path;
  while (p.startsWith('./')) p = p.slice(2);
  const base = cwd.endsWith('/') ? cwd : `${cwd}/`;
  if (cwd && p.startsWith(base)) p = p.slice(base.length);
  return p;
}

/**
 * The files of one path, replayed call by call. `fork()` copies the state at the common ancestor
 * for each side; `start()` makes the current text the side's "before".
 */
export class FileStates {
  private readonly files = new Map<string, FileText>();
  private readonly pending = new Map<string, PendingCall>();
  readonly shell: ShellRun[] = [];

  constructor(private readonly cwd: string) {}

  fork(): FileStates {
    const copy = new FileStates(this.cwd);
    for (const [k, f] of this.files) copy.files.set(k, { ...f });
    for (const [k, c] of this.pending) copy.pending.set(k, c);
    return copy;
  }

  /** From here on, every file's "before" is its text now (the ancestor's state). */
  start(): void {
    for (const f of this.files.values()) {
      f.before = f.after;
      f.beforeWhole = f.whole;
      f.overwrote = false;
      f.unreplayed = 0;
    }
    this.shell.length = 0;
  }

  /** A file as the calls know it now (undefined: no call on the path touched it). */
  get(key: string): FileText | undefined {
    return this.files.get(key);
  }

  /** Files whose text differs from the start, by key. */
  changed(): Map<string, FileText> {
    const out = new Map<string, FileText>();
    for (const [k, f] of this.files) if (f.before !== f.after || f.overwrote) out.set(k, f);
    return out;
  }

  /** Reads one entry: tool calls wait for their results; a successful edit/write result applies its call. */
  read(e: Entry): void {
    if (e.type !== 'message') return;
    const m = e.raw.message;
    if (!isRec(m)) return;
    if (m.role === 'assistant' && Array.isArray(m.content)) {
      for (const block of m.content as unknown[]) {
        if (!isRec(block) || block.type !== 'toolCall' || typeof block.id !== 'string') continue;
        const name = typeof block.name === 'string' ? block.name : '';
        this.pending.set(block.id, { name, args: block.arguments });
        const command = isRec(block.arguments) ? block.arguments.command : undefined;
        if (name === 'bash' && typeof command === 'string') this.shell.push({ entryId: e.id, command });
      }
    } else if (m.role === 'toolResult' && typeof m.toolCallId === 'string') {
      const call = this.pending.get(m.toolCallId);
      this.pending.delete(m.toolCallId);
      if (call && m.isError !== true) this.apply(call);
    } else if (m.role === 'bashExecution' && typeof m.command === 'string' && m.excludeFromContext !== true) {
      this.shell.push({ entryId: e.id, command: m.command });
    }
  }

  private apply(call: PendingCall): void {
    const args = call.args;
    if (!isRec(args) || typeof args.path !== 'string') return;
    const key = fileKey(args.path, this.cwd);
    if (call.name === 'write' && typeof args.content === 'string') {
      const f = this.files.get(key);
      const content = normalizeLf(args.content);
      if (!f) this.files.set(key, { ...EMPTY, after: content, whole: true, overwrote: true });
      else {
        if (!f.whole) f.overwrote = true;
        f.after = content;
        f.whole = true;
      }
    } else if (call.name === 'edit') {
      const edits = editsOf(args);
      if (edits.length === 0) return;
      let f = this.files.get(key);
      if (!f) {
        f = { ...EMPTY };
        this.files.set(key, f);
      }
      applyEdits(f, edits);
    }
  }
}

/**
 * pi matches every edit against the text before the call and replaces them together. An oldText
 * the known text lacks: in a file known only by excerpts it is a new excerpt (added to before and
 * after alike); in a text known whole, pi matched it loosely and the call is counted unreplayed.
 */
function applyEdits(f: FileText, edits: { oldText: string; newText: string }[]): void {
  const spots: { at: number; oldText: string; newText: string }[] = [];
  for (const edit of edits) {
    if (edit.oldText === '') continue;
    let at = f.after.indexOf(edit.oldText);
    if (at < 0 && !f.whole) {
      const sep = f.before === '' ? '' : `\n${ELISION}\n`;
      f.before += sep + edit.oldText;
      at = f.after.length + sep.length;
      f.after += sep + edit.oldText;
    }
    if (at < 0) {
      f.unreplayed++;
      continue;
    }
    spots.push({ at, oldText: edit.oldText, newText: edit.newText });
  }
  spots.sort((a, b) => b.at - a.at);
  let text = f.after;
  for (const s of spots) text = text.slice(0, s.at) + s.newText + text.slice(s.at + s.oldText.length);
  f.after = text;
}
