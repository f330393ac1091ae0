// The optimistic check of the totals, the storage side (./README.md, "The optimistic check of the totals").

import { unwrap } from 'idb';
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
 * The current totals: `known` as they are when `trusted`, after one key lookup if not, else from the last record.
 * Read, never trusted, `nextBody` is also past the last body stored: a body whose write committed without its journal
 * record (Firefox commits what a closing page had sent) would otherwise take that id from every later write.
 */
export async function readTotals(tx: ReadTx, known?: RememberedTotals, trusted = false): Promise<Totals> {
  if (known && trusted) return { ...known.totals };
  // Only a transaction that may write bodies needs it (one over the journal alone reads totals to show them).
  const lastBody = unwrap(tx).objectStoreNames.contains('bodies')
    ? request(plainStore(tx, 'bodies').openKeyCursor(null, 'prev')).then((cursor) => (cursor ? Number(cursor.primaryKey) : 0))
    : Promise.resolve(0);
  const current = async (): Promise<Totals> =>
    known && (await totalsAreCurrent(tx, known)) ? { ...known.totals } : fromJournal(tx);
  // Awaited together: a transaction aborted under them fails both, and neither may be left unhandled.
  const [usage, last] = await Promise.all([current(), lastBody]);
  usage.nextBody = Math.max(usage.nextBody, last + 1);
  return usage;
}

async function fromJournal(tx: ReadTx): Promise<Totals> {
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

/** Whether a write that took `remembered` unchecked was alone: its journal record got the very next key. */
export const wasAlone = (remembered: RememberedTotals, recordKey: number): boolean =>
  recordKey === remembered.key + 1;

/** A write that found, by its journal record's key, that another write came after the totals it started from. */
export class StaleTotals extends Error {
  constructor() {
    super('the memory changed since this tool last wrote');
    this.name = 'StaleTotals';
  }
}

/** A storage failure stale remembered totals may explain (a body id taken meanwhile fails the add): worth one rerun. */
export function mayBeStale(error: unknown): boolean {
  if (!isMemoryToolError(error) || error.code !== 'storage') return false;
  const cause = error.cause as { name?: unknown } | undefined;
  return cause?.name === 'AbortError' || cause?.name === 'ConstraintError';
}
