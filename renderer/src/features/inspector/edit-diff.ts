/** The replacements of an edit tool call, read the way pi's edit tool reads its arguments. */
export interface TextEdit {
  oldText: string;
  newText: string;
}

const isEdit = (v: unknown): v is TextEdit =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as TextEdit).oldText === 'string' &&
  typeof (v as TextEdit).newText === 'string';

/** `edits` as an array, a JSON string or one object, plus the legacy top-level oldText/newText. null: none. */
export function editsOf(args: Record<string, unknown>): TextEdit[] | null {
  let edits: unknown = args.edits;
  if (typeof edits === 'string') {
    try {
      edits = JSON.parse(edits);
    } catch {
      edits = undefined;
    }
  }
  const list: TextEdit[] = Array.isArray(edits) ? edits.filter(isEdit) : isEdit(edits) ? [edits] : [];
  if (isEdit(args)) list.push({ oldText: args.oldText, newText: args.newText });
  return list.length > 0 ? list : null;
}

/** Above this many line pairs the diff is not searched for: all old lines out, all new lines in. */
const MAX_CELLS = 4_000_000;

/**
 * A line diff of old → new (longest common subsequence), as lines starting with ' ', '-' or '+'
 * (the format Diff draws, as pi's own edit diffs).
 */
export function lineDiff(oldText: string, newText: string): string {
  const a = oldText.split('\n');
  const b = newText.split('\n');
  // Common head and tail first: most edits touch a few lines in the middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const out: string[] = a.slice(0, head).map((l) => ` ${l}`);
  if (x.length * y.length > MAX_CELLS) {
    out.push(...x.map((l) => `-${l}`), ...y.map((l) => `+${l}`));
  } else {
    // lcs[i][j] = common length of x[i..] and y[j..], kept in one flat array.
    const w = y.length + 1;
    const lcs = new Uint32Array((x.length + 1) * w);
    for (let i = x.length - 1; i >= 0; i--)
      for (let j = y.length - 1; j >= 0; j--)
        lcs[i * w + j] =
          x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) {
        out.push(` ${x[i++]}`);
        j++;
      } else if (i < x.length && (j === y.length || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!))
        out.push(`-${x[i++]}`);
      else out.push(`+${y[j++]}`);
    }
  }
  out.push(...a.slice(a.length - tail).map((l) => ` ${l}`));
  return out.join('\n');
}
