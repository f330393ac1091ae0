// The text work of str_replace and insert, without splitting or counting a whole file (it may be a megabyte). Pure.

import { isHighSurrogate, isLowSurrogate, utf8Length } from '../core/utf8.js';

/** UTF-8 bytes saved when `left` and `right` meet: a lone high and a lone low surrogate become one 4-byte pair. */
const joined = (left: string, right: string): number =>
  left !== '' &&
  right !== '' &&
  isHighSurrogate(left.charCodeAt(left.length - 1)) &&
  isLowSurrogate(right.charCodeAt(0))
    ? 2
    : 0;

/** UTF-8 bytes of `content` with `content.slice(at, end)` replaced by `newStr`, counting only the two strings. */
export function replacedSize(oldSize: number, content: string, at: number, end: number, newStr: string): number {
  const before = content.slice(Math.max(0, at - 1), at);
  const after = content.slice(end, end + 1);
  const oldStr = content.slice(at, end);
  // An empty old string (never str_replace's) leaves `before` and `after` met, as an empty new one makes them meet.
  const oldJoins = oldStr === '' ? joined(before, after) : joined(before, oldStr) + joined(oldStr, after);
  const newJoins = newStr === '' ? joined(before, after) : joined(before, newStr) + joined(newStr, after);
  return oldSize - utf8Length(oldStr) + oldJoins + utf8Length(newStr) - newJoins;
}

/** Where 0-based line `line` starts, and how many newlines were passed (fewer than `line` past the last line). */
export function lineStart(text: string, line: number): { at: number; passed: number } {
  let at = 0;
  let passed = 0;
  while (passed < line) {
    const nl = text.indexOf('\n', at);
    if (nl === -1) break;
    at = nl + 1;
    passed++;
  }
  return { at, passed };
}

/** Up to `count` lines of `text` from 0-based line `first` (none when it has fewer lines): R-replace-snippet. */
export function linesAt(text: string, first: number, count: number): string[] {
  const { at, passed } = lineStart(text, first);
  if (passed < first) return [];
  const out: string[] = [];
  for (let start = at; out.length < count; ) {
    const nl = text.indexOf('\n', start);
    out.push(nl === -1 ? text.slice(start) : text.slice(start, nl));
    if (nl === -1) break;
    start = nl + 1;
  }
  return out;
}

/** Lines as `split('\n')` counts them (an empty text is one empty line): R-insert-line. */
export function countLines(text: string): number {
  let lines = 1;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) lines++;
  return lines;
}
