// Which op of a storm participant published each of its local change events (storm.test.ts). The page numbers the
// events and gives each op the numbers that fell while it was in flight; ops in flight together may settle in one step,
// so the page cannot tell which of them published what, but a matching can: each event to one op that was in flight,
// answered ok and should have published exactly it.

import type { MemoryChange } from '../../src/core/change-events.js';
import type { StormMessage } from './pages/storm-driver.js';

export type StormOp = Extract<StormMessage, { type: 'op' }>;
export type LocalEvent = Extract<StormMessage, { type: 'event' }> & { n: number };

const WRITES = new Set(['create', 'str_replace', 'insert', 'delete', 'rename']);

export const key = (changes: MemoryChange[]): string => JSON.stringify(changes);

/** Whether `command` is one of the five write commands. */
export const isWrite = (command: string | undefined): boolean => command !== undefined && WRITES.has(command);

/** What a successful write command publishes. */
function commandChanges(op: StormOp): MemoryChange[][] {
  const [first, second] = op.paths ?? [];
  if (op.command === 'rename') return [[{ type: 'rename', path: second!, from: first! }]];
  if (op.command === 'delete') return [[{ type: 'delete', path: first! }]];
  return [[{ type: 'write', path: first! }]];
}

/** The events `op` must have published, or undefined when they are not known ahead (an undo's). */
function expectedOf(op: StormOp): MemoryChange[][] | undefined {
  if (!op.ok) return [];
  return op.expected ?? (isWrite(op.command) ? commandChanges(op) : undefined);
}

/**
 * A maximum matching by augmenting paths: for each slot, the item it holds. Each slot holds at most one item, each
 * item goes to at most one slot. Starting from `holder` (another matching): a slot held there stays held.
 */
export function match(
  items: number,
  slots: number,
  accepts: (slot: number, item: number) => boolean,
  holder: Array<number | undefined> = new Array<number | undefined>(slots).fill(undefined),
): Array<number | undefined> {
  const place = (item: number, tried: Set<number>): boolean => {
    for (let s = 0; s < slots; s++) {
      if (tried.has(s) || !accepts(s, item)) continue;
      tried.add(s);
      const other = holder[s];
      if (other === undefined || place(other, tried)) {
        holder[s] = item;
        return true;
      }
    }
    return false;
  };
  const held = new Set(holder);
  for (let item = 0; item < items; item++) if (!held.has(item)) place(item, new Set());
  return holder;
}

export interface Attribution {
  /** The events given to an op, in the order they were published. */
  held: LocalEvent[];
  problems: string[];
}

/**
 * Gives each local event of `tab` to an op in flight when it was published: to an ok op that should have published
 * exactly it, or to an ok undo (whose changes are not known ahead: it takes any, or none, as an undo that found
 * nothing left to change). The ops that must publish are served first, then the undos take what is left, moving
 * events between ops where that frees one (a matching grown by augmenting paths never lets a held slot go). Problems:
 * an ok op short of the events it should have published, and (unless `partial`: the tab was closed and some ops'
 * outcomes never came) an event no op can have published, such as one of a refused op.
 */
export function attribute(tab: string, ops: StormOp[], events: LocalEvent[], partial: boolean): Attribution {
  const inFlight = (op: StormOp, n: number): boolean => op.from <= n && (op.to === undefined || n < op.to);
  // An undo's slot has no `changes`.
  const slots = ops.filter((op) => op.ok).flatMap((op): Array<{ op: StormOp; changes: string | undefined }> => {
    const expected = expectedOf(op);
    return expected ? expected.map((changes) => ({ op, changes: key(changes) })) : [{ op, changes: undefined }];
  });
  const keys = events.map((event) => key(event.changes));
  const fits = (s: number, e: number, undos: boolean): boolean => {
    const slot = slots[s]!;
    if (!inFlight(slot.op, events[e]!.n)) return false;
    return slot.changes === undefined ? undos : slot.changes === keys[e];
  };
  const known = match(events.length, slots.length, (s, e) => fits(s, e, false));
  const holder = match(events.length, slots.length, (s, e) => fits(s, e, true), known);
  const owner = new Map<number, StormOp>();
  holder.forEach((e, s) => e !== undefined && owner.set(e, slots[s]!.op));

  const problems: string[] = [];
  for (const op of ops.filter((op) => op.ok)) {
    const got = events.filter((_, e) => owner.get(e) === op).map((event) => event.changes);
    const expected = expectedOf(op);
    if (expected && key(expected.flat()) !== key(got.flat())) {
      problems.push(`${tab} op ${op.i} ${op.detail}: published ${key(got.flat())}, expected ${key(expected.flat())}`);
    }
  }
  if (!partial) {
    events.forEach((event, e) => {
      if (owner.has(e)) return;
      const then = ops.filter((op) => inFlight(op, event.n)).map((op) => `${op.i} ${op.detail} ${op.ok ? 'ok' : op.code}`);
      problems.push(`${tab}: local event #${event.n} ${keys[e]} published by none of the ops in flight then (${then.join('; ')})`);
    });
  }
  return { held: events.filter((_, e) => owner.has(e)), problems };
}
