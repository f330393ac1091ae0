// Reads a whole file or folder the way Claude would with only the replies to go on: view it, and while the reply
// ends in a cut note, view the view_range the note names. Proves that every byte is reachable within the bound.

import type { MemoryToolResult } from '../../src/index.js';

type Run = (input: unknown) => Promise<MemoryToolResult>;

export interface Followed {
  /** Each numbered line seen, by its number (a file) or each entry line in order (a folder). */
  lines: Map<number, string>;
  entries: string[];
  /** Every reply read on the way. */
  replies: string[];
}

const NUMBERED = /^ *(\d+)\t(.*)$/su;
const REST = /Use view_range \[(\d+), (\d+)\] (?:to see the rest|on this folder)/u;
const WHOLE_LINE = /Use view_range \[(\d+), \1\] to see the whole line(?:, then view_range \[(\d+), (\d+)\] for the rest)?/u;

async function view(run: Run, path: string, range?: [number, number]): Promise<string> {
  const result = await run(range ? { command: 'view', path, view_range: range } : { command: 'view', path });
  if (result.is_error) throw new Error(result.content);
  return result.content;
}

/**
 * Views `path`, then each view_range `next` names after reading a reply (`undefined`: done). Fails rather than loop
 * forever on notes that never end.
 */
async function follow(
  run: Run,
  path: string,
  next: (reply: string, seen: Followed) => Promise<[number, number] | undefined>,
): Promise<Followed> {
  const seen: Followed = { lines: new Map(), entries: [], replies: [] };
  let range: [number, number] | undefined;
  for (let step = 0; step <= 10_000; step++) {
    const reply = await view(run, path, range);
    seen.replies.push(reply);
    range = await next(reply, seen);
    if (!range) return seen;
  }
  throw new Error('the notes never end');
}

/** The reply's lines after its first `skip`, and its cut note (the last line, when it starts with `[`). */
function bodyAndNote(reply: string, skip: number): { body: string[]; note: string } {
  const body = reply.split('\n').slice(skip);
  const note = body.at(-1)?.startsWith('[') ? (body.pop() ?? '') : '';
  return { body, note };
}

const rangeOf = (match: RegExpExecArray | null, at = 1): [number, number] | undefined =>
  match?.[at] === undefined ? undefined : [Number(match[at]), Number(match[at + 1])];

/** Follows a file view's notes to the end; `lines` then holds every line of the file exactly as stored. */
export function followFile(run: Run, path: string): Promise<Followed> {
  return follow(run, path, async (reply, seen) => {
    const { body, note } = bodyAndNote(reply, 1);
    const whole = WHOLE_LINE.exec(note);
    // A line cut short is not recorded from this reply: the one-line range names it whole.
    if (whole) body.pop();
    for (const line of body) {
      const match = NUMBERED.exec(line);
      if (match) seen.lines.set(Number(match[1]), match[2] ?? '');
    }
    if (!whole) return rangeOf(REST.exec(note));
    const number = Number(whole[1]);
    const full = await view(run, path, [number, number]);
    seen.replies.push(full);
    seen.lines.set(number, NUMBERED.exec(full.slice(full.indexOf('\n') + 1))?.[2] ?? '');
    return rangeOf(whole, 2);
  });
}

/** Follows a folder listing's notes to the end; `entries` then holds every entry line once, in order. */
export function followFolder(run: Run, path: string): Promise<Followed> {
  return follow(run, path, async (reply, seen) => {
    const { body, note } = bodyAndNote(reply, 2);
    seen.entries.push(...body);
    return rangeOf(REST.exec(note));
  });
}
