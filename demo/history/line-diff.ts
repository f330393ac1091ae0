// A small line diff for the history panel: the common prefix and suffix are cut off, the middle is diffed by
// longest common subsequence. Pure: no DOM. A middle too big for LCS is shown as removed-then-added instead, and a
// diff too long to show is cut to its first lines and a count of the rest (capDiff).

export type DiffLine = { type: 'same' | 'removed' | 'added'; text: string };

/** Above this many LCS cells (middle lines before × after) the middle is shown as one replacement. */
const MAX_LCS_CELLS = 4_000_000;

/** `null` is no file (absent before a create, gone after a delete, or no longer kept by the history). */
export function diffLines(before: string | null, after: string | null): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (lines: string[]): DiffLine[] => lines.map((text) => ({ type: 'same', text }));
  return [...same(a.slice(0, start)), ...middle(a.slice(start, endA), b.slice(start, endB)), ...same(a.slice(endA))];
}

/**
 * The lines of a text. A final newline ends the last line rather than starting an empty one, so
 * `"a\n"` → `["a"]`; `""` is one empty line (an empty file), `null` none.
 */
export function splitLines(text: string | null): string[] {
  if (text === null) return [];
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The diff with runs of unchanged lines longer than `2 × context` cut to `context` lines on each side of a
 * change; each cut is `{ skipped: n }`.
 */
export function withContext(lines: DiffLine[], context = 3): Array<DiffLine | { skipped: number }> {
  const keep = lines.map(() => false);
  lines.forEach((line, i) => {
    if (line.type === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const out: Array<DiffLine | { skipped: number }> = [];
  let run: DiffLine[] = [];
  // A cut of one line would take as much room as the line: it is shown instead.
  const flush = () => {
    if (run.length === 1) out.push(...run);
    else if (run.length > 1) out.push({ skipped: run.length });
    run = [];
  };
  lines.forEach((line, i) => {
    if (keep[i]) {
      flush();
      out.push(line);
    } else run.push(line);
  });
  flush();
  return out;
}

export type ShownLine = DiffLine | { skipped: number };

/** What {@link capDiff} leaves out: how many lines of each kind. */
export interface HiddenLines {
  added: number;
  removed: number;
  same: number;
}

/**
 * The first `max` lines of a diff (a cut of unchanged lines counts as one) and what the rest holds, so that a
 * change that wrote 500,000 lines is shown as a few hundred and a count, not as 500,000 elements.
 */
export function capDiff(lines: readonly ShownLine[], max: number): { shown: ShownLine[]; hidden: HiddenLines } {
  const hidden: HiddenLines = { added: 0, removed: 0, same: 0 };
  for (const line of lines.slice(max)) {
    if ('skipped' in line) hidden.same += line.skipped;
    else hidden[line.type]++;
  }
  return { shown: lines.slice(0, max), hidden };
}

function middle(a: string[], b: string[]): DiffLine[] {
  const removed = (text: string): DiffLine => ({ type: 'removed', text });
  const added = (text: string): DiffLine => ({ type: 'added', text });
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_LCS_CELLS) return [...a.map(removed), ...b.map(added)];
  // lcs[i][j]: the LCS length of a[i..] and b[j..], in one flat array of (a.length + 1) × (b.length + 1).
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] ?? '';
    const y = b[j] ?? '';
    if (x === y) {
      out.push({ type: 'same', text: x });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      out.push(removed(x));
      i++;
    } else {
      out.push(added(y));
      j++;
    }
  }
  return [...out, ...a.slice(i).map(removed), ...b.slice(j).map(added)];
}
