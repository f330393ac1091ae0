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

/** Follows a file view's notes to the end; `lines` then holds every line of the file exactly as stored. */
export async function followFile(run: Run, path: string): Promise<Followed> {
  const seen: Followed = { lines: new Map(), entries: [], replies: [] };
  let range: [number, number] | undefined;
  for (let step = 0; ; step++) {
    if (step > 10_000) throw new Error('the notes never end');
    const reply = await view(run, path, range);
    seen.replies.push(reply);
    const body = reply.split('\n').slice(1);
    const note = body.at(-1)?.startsWith('[') ? (body.pop() ?? '') : '';
    const whole = WHOLE_LINE.exec(note);
    // A line cut short is not recorded from this reply: the one-line range names it whole.
    if (whole) body.pop();
    for (const line of body) {
      const match = NUMBERED.exec(line);
      if (match) seen.lines.set(Number(match[1]), match[2] ?? '');
    }
    if (whole) {
      const number = Number(whole[1]);
      const full = await view(run, path, [number, number]);
      seen.replies.push(full);
      const match = NUMBERED.exec(full.slice(full.indexOf('\n') + 1));
      seen.lines.set(number, match?.[2] ?? '');
      if (whole[2] === undefined) return seen;
      range = [Number(whole[2]), Number(whole[3])];
      continue;
    }
    const rest = REST.exec(note);
    if (!rest) return seen;
    range = [Number(rest[1]), Number(rest[2])];
  }
}

/** Follows a folder listing's notes to the end; `entries` then holds every entry line once, in order. */
export async function followFolder(run: Run, path: string): Promise<Followed> {
  const seen: Followed = { lines: new Map(), entries: [], replies: [] };
  let range: [number, number] | undefined;
  for (let step = 0; ; step++) {
    if (step > 10_000) throw new Error('the notes never end');
    const reply = await view(run, path, range);
    seen.replies.push(reply);
    const body = reply.split('\n').slice(2);
    const note = body.at(-1)?.startsWith('[') ? (body.pop() ?? '') : '';
    seen.entries.push(...body);
    const rest = REST.exec(note);
    if (!rest) return seen;
    range = [Number(rest[1]), Number(rest[2])];
  }
}
