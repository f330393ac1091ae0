// The replies of any length, cut to the reply bound with a last line saying how to read on (R-bound in ./README.md).

import { MemoryToolError } from '../core/errors.js';
import { MAX_VIEW_LINES, numberedLine, reply } from '../core/replies.js';
import { matchLines } from './text-search.js';
import { isHighSurrogate, wellFormed } from '../core/utf8.js';

/** A `view_range` as Claude sent it: 1-based, inclusive, end -1 for the last. */
export type ViewRange = readonly number[];

const pair = (range: ViewRange | undefined): readonly [number, number] | undefined =>
  range && range.length === 2 ? [range[0] ?? 1, range[1] ?? -1] : undefined;

/** The 0-based slice `[start, end)` a view_range names in a list of `length`, as the SDK slices a file's lines. */
function window(range: readonly [number, number] | undefined, length: number): { start: number; end: number } {
  if (!range) return { start: 0, end: length };
  const start = Math.max(1, range[0]) - 1;
  const end = range[1] === -1 ? length : Math.min(Math.max(range[1], 0), length);
  return { start: Math.min(start, length), end: Math.max(end, Math.min(start, length)) };
}

/** Room for the last line of a cut view or listing: each note with its numbers as long as any can be. */
function noteRoom(max: number, search?: string): number {
  const n = Number.MAX_SAFE_INTEGER;
  const listing = reply.listingCut(max, n, n, n, n, search);
  const notes = [reply.viewCut(max, n, n, n, n), reply.lineCut(max, n - 1, n, n, n), listing];
  return Math.max(...notes.map((note) => note.length));
}

/** The first `count` UTF-16 units of `text`, one fewer when the last would be half of a pair (an emoji). */
export function cutText(text: string, count: number): string {
  const cut = text.slice(0, Math.max(0, count));
  const last = cut.charCodeAt(cut.length - 1);
  return isHighSurrogate(last) ? cut.slice(0, -1) : cut;
}

/** A file with line numbers, cut after the last whole line that fits (R-cut-view) or inside the first (R-cut-line). */
export function fileView(path: string, content: string, asked: ViewRange | undefined, max: number): string {
  const range = pair(asked);
  const lines = content.split('\n');
  if (lines.length > MAX_VIEW_LINES) throw new MemoryToolError('too_large', reply.tooManyLines(path, lines.length));
  // R-view-range, as the SDK slices: start clamped to 1, end -1 means the last line, other values go to slice().
  const start = range ? Math.max(1, range[0]) - 1 : 0;
  const shown = range ? lines.slice(start, range[1] === -1 ? lines.length : range[1]) : lines;
  const header = reply.fileHeader(path);
  if (shown.length === 0) return header + '\n';
  const first = start + 1;
  const last = first + shown.length - 1;
  const numbered = (i: number): string => '\n' + numberedLine(first + i, shown[i] ?? '');
  if (range && shown.length === 1) return wellFormed(header + numbered(0));
  // Built only until it is over the bound: a megabyte's view stops after its first 16,000 characters.
  const whole = joinWithin(header, shown.length, numbered, max);
  // As the SDK's tool shows a text it wrote as UTF-8 and read back: a lone surrogate Claude sent is U+FFFD.
  if (whole !== undefined) return wellFormed(whole);
  const budget = max - 1 - noteRoom(max);
  let out = header;
  for (let i = 0; ; i++) {
    const next = numbered(i);
    if (out.length + next.length > budget) {
      if (i > 0) return `${wellFormed(out)}\n${reply.viewCut(max, first, first + i - 1, last, lines.length)}`;
      const line = shown[0] ?? '';
      const part = cutText(next, budget - out.length);
      // How much of the line itself is shown: the part less its newline, number and tab.
      const of = Math.max(0, part.length - (next.length - line.length));
      return `${wellFormed(out + part)}\n${reply.lineCut(max, first, of, line.length, last)}`;
    }
    out += next;
  }
}

/** `head` and the `count` parts `part(i)` gives, joined, or undefined as soon as they are over `max` characters. */
function joinWithin(head: string, count: number, part: (i: number) => string, max: number): string | undefined {
  let out = head;
  for (let i = 0; i < count && out.length <= max; i++) out += part(i);
  return out.length <= max ? out : undefined;
}

/**
 * A folder listing, cut after the last whole entry that fits (R-cut-listing); R-view-range-folder pages it. `search`:
 * the name of the search tool Claude has, which the cut note then offers.
 */
export function folderView(
  header: string,
  own: string,
  entries: readonly string[],
  asked: ViewRange | undefined,
  max: number,
  search?: string,
): string {
  const range = pair(asked);
  const { start, end } = window(range, entries.length);
  const total = entries.length;
  const head = `${header}\n${own}`;
  if (start >= end) return total > 0 && range ? `${head}\n${reply.noEntriesInRange(range[0], range[1], total)}` : head;
  const part = start > 0 || end < total;
  const note = part ? '\n' + reply.listingPart(start + 1, end, total) : '';
  const whole = joinWithin(head, end - start, (i) => '\n' + (entries[start + i] ?? ''), max - note.length);
  if (whole !== undefined) return whole + note;
  const budget = max - 1 - noteRoom(max, search);
  let out = head;
  let i = start;
  for (; i < end; i++) {
    const next = '\n' + (entries[i] ?? '');
    if (out.length + next.length > budget) break;
    out += next;
  }
  return `${out}\n${reply.listingCut(max, start + 1, i, end, total, search)}`;
}

/** The `no_match` refusal, its echo of old_str cut so that the whole stays within `max` characters (R-cut-refusals). */
export function noMatchReply(oldStr: string, path: string, max: number): string {
  const full = reply.noMatch(wellFormed(oldStr), path);
  if (full.length <= max) return full;
  const room = max - (full.length - oldStr.length) - 1 - reply.oldStrCut(oldStr.length, oldStr.length).length;
  const echo = cutText(oldStr, room);
  return `${reply.noMatch(wellFormed(echo), path)}\n${reply.oldStrCut(echo.length, oldStr.length)}`;
}

/** The `multiple_matches` refusal, its line list and echo of old_str cut to `max` characters (R-cut-refusals). */
export function multipleMatchesReply(oldStr: string, content: string, max: number): string {
  // Each listed line takes at least 3 characters (`1, `): no more than this many can be shown.
  const found = matchLines(content, oldStr, Math.ceil(max / 3));
  const full = reply.multipleMatches(wellFormed(oldStr), found.lines);
  if (found.lines.length === found.total && full.length <= max) return full;
  // Cut: old_str keeps at most a quarter of the room, the lines the rest.
  const echo = oldStr.length > max / 4 ? cutText(oldStr, Math.floor(max / 4)) : oldStr;
  const note = (listed: number): string => reply.matchLinesCut(listed, found.total, echo.length, oldStr.length);
  const budget = max - reply.multipleMatches(wellFormed(echo), []).length - 1 - note(found.total).length;
  let listed = 0;
  let length = 0;
  for (const line of found.lines) {
    const add = String(line).length + (listed > 0 ? 2 : 0);
    if (length + add > budget) break;
    length += add;
    listed++;
  }
  return `${reply.multipleMatches(wellFormed(echo), found.lines.slice(0, listed))}\n${note(listed)}`;
}

/** str_replace's answer: the changed lines, numbered from `first` (1-based), within `max` (R-cut-snippet). */
export function editedReply(lines: readonly string[], first: number, max: number): string {
  const full = reply.edited(wellFormed(lines.map((text, i) => numberedLine(first + i, text)).join('\n')));
  if (full.length <= max) return full;
  const note = reply.snippetCut(max, first, first + lines.length - 1);
  return `${wellFormed(cutText(full, max - 1 - note.length))}\n${note}`;
}
