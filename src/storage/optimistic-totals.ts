// An optimistic check of the memory's totals (bytes, files, the next body id, the history's size): a write
// starts from the totals this tool's last write left instead of reading them, and proves them afterwards by the key
// its journal record gets; when they were stale, the write is aborted and run once more from totals read afresh.
// The mechanism is told whole in ./README.md.

import { isMemoryToolError } from '../core/errors.js';
import { EMPTY_TOTALS, unpackTotals } from './schema.js';
import type { JournalRecord, Totals } from './schema.js';
import type { MemoryTx } from './store.js';
import { plainStore, request } from './store.js';

type ReadTx = MemoryTx<'readonly'> | MemoryTx<'readwrite'>;

/** Totals as a committed write left them, and the key of the journal record that holds them. */
export interface RememberedTotals {
  key: number;
  totals: Totals;
}

/**
 * The running totals, the next body id and the journal's totals: every write's bookkeeping, from the journal's
 * last record (one cursor step from the end). With `known`, the totals this tool's last write left, that read is
 * saved: `trusted`, they are taken with no request at all, and the write proves them afterwards by its journal
 * record's key (the tool's write runner); otherwise one key lookup checks them first. No transaction changes the totals
 * without adding a journal record after every other (history/journal.ts `record`), so no key above `known.key` means they
 * are current; a key lookup costs less than the cursor, which loads the record.
 */
export async function readTotals(tx: ReadTx, known?: RememberedTotals, trusted = false): Promise<Totals> {
  if (known && (trusted || (await totalsAreCurrent(tx, known)))) return { ...known.totals };
  const newest = await request(plainStore(tx, 'journal').openCursor(null, 'prev'));
  const record = newest?.value as JournalRecord | undefined;
  if (!record?.totals) return { ...EMPTY_TOTALS };
  const usage = unpackTotals(record.totals);
  if (record.hidden) usage.holder = newest?.primaryKey as number;
  return usage;
}

/** Whether `known` are still the newest totals: no journal record has a key above theirs (see {@link readTotals}). */
export async function totalsAreCurrent(tx: ReadTx, known: RememberedTotals): Promise<boolean> {
  return (await request(plainStore(tx, 'journal').getKey(IDBKeyRange.lowerBound(known.key, true)))) === undefined;
}

/**
 * Whether a write that took `remembered` unchecked was alone: its journal record got the very next key, so no other
 * write came between (the store's key generator only counts up, and every change of the totals adds a record).
 */
export const wasAlone = (remembered: RememberedTotals, recordKey: number): boolean => recordKey === remembered.key + 1;

/** A write that found, by its journal record's key, that another write came after the totals it started from. */
export class StaleTotals extends Error {
  constructor() {
    super('the memory changed since this tool last wrote');
    this.name = 'StaleTotals';
  }
}

/**
 * A storage failure a write may owe to totals another writer has since changed, when it started from remembered
 * ones: an abort by a failed request (the body id it wrote may have been taken meanwhile: the add fails, and the
 * transaction aborts). Worth one more run from totals read afresh, as is a run that found them stale itself (it
 * threw {@link StaleTotals}, and the write runner marks it `stale`).
 */
export function mayBeStale(error: unknown): boolean {
  if (!isMemoryToolError(error) || error.code !== 'storage') return false;
  const cause = error.cause as { name?: unknown } | undefined;
  return cause?.name === 'AbortError' || cause?.name === 'ConstraintError';
}
