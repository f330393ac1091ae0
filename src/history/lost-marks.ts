// Why the journal no longer holds a change: marks left on hidden records by forgetting, a clear and pruning, by body
// id only, and how blame reads them back (./README.md, "Blame").

import { hiddenRecord } from '../storage/schema.js';
import type { JournalRecord, LostMark } from '../storage/schema.js';

/** Why a line's writer is not in the history (`BlameLine.why`). */
export type BlameGap = 'forgotten' | 'cleared' | 'pruned' | 'too-big' | 'unrecorded';

/** Forgotten body ids a mark keeps at most: the newest (highest) ones, so a mark stays a few kilobytes. */
export const MAX_FORGOTTEN_MARKS = 1000;

/** A hidden record holding `mark` and no totals (so never read as the current totals: a newer record always follows). */
export const lostRecord = (mark: LostMark, id?: number): JournalRecord => hiddenRecord({ lost: mark }, id);

/** The marks together: every forgotten body (the newest {@link MAX_FORGOTTEN_MARKS}), the highest bounds. */
export function mergeMarks(marks: readonly LostMark[]): LostMark | undefined {
  const forgotten = [...new Set(marks.flatMap((mark) => mark.forgotten ?? []))]
    .sort((a, b) => b - a)
    .slice(0, MAX_FORGOTTEN_MARKS);
  const highest = (key: 'clearedBelow' | 'prunedBelow'): number =>
    Math.max(0, ...marks.map((mark) => mark[key] ?? 0));
  const clearedBelow = highest('clearedBelow');
  const prunedBelow = highest('prunedBelow');
  const merged: LostMark = {
    ...(forgotten.length > 0 ? { forgotten } : {}),
    ...(clearedBelow > 0 ? { clearedBelow } : {}),
    ...(prunedBelow > 0 ? { prunedBelow } : {}),
  };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/**
 * Why the change that wrote body `body` is gone: forgotten if a forget named it; else cleared if it is older than the
 * last clear (a clear empties every mark of pruning before it); else pruned if older than what the bounds pruned;
 * else never recorded (written with the history off).
 */
export function whyLost(body: number, marks: readonly LostMark[]): BlameGap {
  const merged = mergeMarks(marks);
  if (merged?.forgotten?.includes(body)) return 'forgotten';
  if (body < (merged?.clearedBelow ?? 0)) return 'cleared';
  if (body < (merged?.prunedBelow ?? 0)) return 'pruned';
  return 'unrecorded';
}
