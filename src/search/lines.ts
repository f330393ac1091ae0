// A hit's matching lines, numbered as `view` numbers them, with the matched words marked (./README.md, "Lines").

import type { Clause } from './query.js';
import { countClause } from './matching.js';
import type { Token } from './tokens.js';
import type { SearchLine } from './types.js';
import { SEARCH_LIMITS } from './types.js';

/** The lines of `text` holding a clause (first ones first, at most `linesPerHit`); `tokens` are the text's words. */
export function matchedLines(text: string, tokens: readonly Token[], clauses: readonly Clause[]): SearchLine[] {
  const marks = new Map<number, Array<[number, number]>>();
  const starts = lineStarts(text);
  for (const clause of clauses) {
    countClause(tokens, clause, (first, last) => {
      const from = tokens[first];
      const to = tokens[last];
      if (!from || !to) return;
      const line = lineAt(starts, from.start);
      const lineEnd = (starts[line + 1] ?? text.length + 1) - 1;
      const list = marks.get(line) ?? [];
      list.push([from.start, Math.min(to.end, lineEnd)]);
      marks.set(line, list);
    });
  }
  const shown = [...marks.keys()].sort((a, b) => a - b).slice(0, SEARCH_LIMITS.linesPerHit);
  return shown.map((line) => {
    const start = starts[line] ?? 0;
    const end = (starts[line + 1] ?? text.length + 1) - 1;
    const spans = (marks.get(line) ?? []).sort((a, b) => a[0] - b[0]);
    return windowed(line + 1, text.slice(start, end), start, spans);
  });
}

/** Where each line starts: `view` splits on `\n`, and so does this. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** A line, or the window of `lineChars` of it that starts a little before its first match, with marks moved in. */
function windowed(line: number, text: string, offset: number, spans: Array<[number, number]>): SearchLine {
  const local = spans.map(([a, b]): [number, number] => [a - offset, b - offset]);
  if (text.length <= SEARCH_LIMITS.lineChars) return { line, text, marks: local };
  let from = Math.max(0, (local[0]?.[0] ?? 0) - Math.floor(SEARCH_LIMITS.lineChars / 4));
  if (isLowSurrogate(text.charCodeAt(from))) from--;
  let to = Math.min(text.length, from + SEARCH_LIMITS.lineChars);
  if (isLowSurrogate(text.charCodeAt(to))) to--;
  const marks = local
    .filter(([a, b]) => b > from && a < to)
    .map(([a, b]): [number, number] => [Math.max(a, from) - from, Math.min(b, to) - from]);
  return { line, text: text.slice(from, to), marks };
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
