// The optimistic check of the totals (src/storage/optimistic-totals.ts) on a journal written by hand: readTotals
// from the last record or from remembered totals, totalsAreCurrent, wasAlone and which failures mayBeStale.
// Runs on fake-indexeddb and in each browser project.

import { afterEach, describe, expect, it } from 'vitest';
import { MemoryToolError } from '../../src/core/errors.js';
import { StaleTotals, mayBeStale, readTotals, totalsAreCurrent, wasAlone } from '../../src/storage/optimistic-totals.js';
import type { RememberedTotals } from '../../src/storage/optimistic-totals.js';
import { EMPTY_TOTALS, packTotals, totalsRecord } from '../../src/storage/schema.js';
import type { JournalRecord, Totals } from '../../src/storage/schema.js';
import { MemoryStore } from '../../src/storage/store.js';
import { freshDbName } from '../helpers/fresh-tool.js';
import type { RequestSpy } from '../helpers/request-spy.js';
import { spyDuring } from '../helpers/request-spy.js';

const stores: MemoryStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

/** A store on a new database whose journal holds `records`, oldest first; answers with it and their keys. */
async function journalOf(...records: JournalRecord[]): Promise<{ store: MemoryStore; keys: number[] }> {
  const store = await MemoryStore.open(freshDbName('optimistic-totals'));
  stores.push(store);
  const keys = await store.run('readwrite', async (tx) => {
    const added: number[] = [];
    for (const record of records) added.push(await tx.objectStore('journal').add(record));
    return added;
  });
  return { store, keys };
}

/** Totals of a memory of `files` files of 10 bytes each, with `more` over them. */
const totals = (files: number, more: Partial<Totals> = {}): Totals => ({
  ...EMPTY_TOTALS,
  seq: files,
  bytes: 10 * files,
  files,
  nextBody: files + 1,
  ...more,
});

/** A change as the history shows it, with the totals after it. */
const change = (after: Totals): JournalRecord => ({
  at: 0,
  actor: 'claude',
  command: 'create',
  paths: [],
  ops: [],
  retains: [],
  bytes: 0,
  undoable: true,
  totals: packTotals(after),
});

const read = (store: MemoryStore, known?: RememberedTotals, trusted?: boolean): Promise<Totals> =>
  store.run('readonly', (tx) => readTotals(tx, known, trusted));
/** What readTotals answers, and the journal requests it made. */
async function readWatched(store: MemoryStore, known: RememberedTotals, trusted?: boolean): Promise<{ answer: Totals; spy: RequestSpy }> {
  let answer: Totals | undefined;
  const spy = await spyDuring(async () => (answer = await read(store, known, trusted)));
  if (!answer) throw new Error('readTotals answered nothing');
  return { answer, spy };
}
const current = (store: MemoryStore, known: RememberedTotals): Promise<boolean> => store.run('readonly', (tx) => totalsAreCurrent(tx, known));

describe('readTotals without remembered totals', () => {
  it('reads an empty memory\'s totals from an empty journal, as a copy that may be changed', async () => {
    const { store } = await journalOf();
    const read1 = await read(store);
    expect(read1).toEqual(EMPTY_TOTALS);
    expect(read1).not.toBe(EMPTY_TOTALS);
    read1.files = 5;
    expect(EMPTY_TOTALS.files).toBe(0);
  });

  it('reads the totals of the journal\'s last record, not of an older one', async () => {
    const { store } = await journalOf(change(totals(1)), change(totals(2)), change(totals(3, { journalEntries: 3 })));
    expect(await read(store)).toEqual(totals(3, { journalEntries: 3 }));
  });

  it('reads an empty memory\'s totals when the last record carries none', async () => {
    const bare = change(totals(4));
    delete bare.totals;
    const { store } = await journalOf(change(totals(2)), bare);
    expect(await read(store)).toEqual(EMPTY_TOTALS);
  });

  it('names the hidden record it read them from as their holder, and no holder for a change', async () => {
    const hidden = await journalOf(change(totals(1)), totalsRecord(totals(2)));
    expect(await read(hidden.store)).toEqual({ ...totals(2), holder: hidden.keys[1] });
    const visible = await journalOf(totalsRecord(totals(1)), change(totals(2)));
    expect(await read(visible.store)).not.toHaveProperty('holder');
  });
});

describe('readTotals with remembered totals', () => {
  it('takes them after one key lookup, with no cursor, while no record came after theirs', async () => {
    const { store, keys } = await journalOf(change(totals(1)), change(totals(2)));
    // Remembered totals that differ from the stored ones, so that the answer says which were taken.
    const known = { key: keys[1] ?? 0, totals: totals(7) };
    const { answer, spy } = await readWatched(store, known);
    expect(answer).toEqual(totals(7));
    expect(spy.journal()).toEqual({ cursors: 0, lookups: 1, aborts: 0 });
    // A copy: the caller may change it without changing what is remembered.
    answer.files = 99;
    expect(known.totals.files).toBe(7);
  });

  it('reads the last record instead when another record came after theirs', async () => {
    const { store, keys } = await journalOf(change(totals(1)), change(totals(2)));
    const { answer, spy } = await readWatched(store, { key: keys[0] ?? 0, totals: totals(7) });
    expect(answer).toEqual(totals(2));
    expect(spy.journal()).toEqual({ cursors: 1, lookups: 1, aborts: 0 });
  });

  it('takes trusted ones with no request at all, even when a record came after them', async () => {
    const { store, keys } = await journalOf(change(totals(1)), change(totals(2)));
    const { answer, spy } = await readWatched(store, { key: keys[0] ?? 0, totals: totals(7) }, true);
    expect(answer).toEqual(totals(7));
    expect(spy.asked.filter((one) => one.store === 'journal')).toEqual([]);
  });
});

describe('totalsAreCurrent', () => {
  it('is true while no record has a key above theirs, whatever came before', async () => {
    const { store, keys } = await journalOf(change(totals(1)), change(totals(2)), change(totals(3)));
    expect(await current(store, { key: keys[2] ?? 0, totals: totals(3) })).toBe(true);
    // Their own record gone (pruned) changes nothing: only a later key counts.
    expect(await current(store, { key: (keys[2] ?? 0) + 5, totals: totals(3) })).toBe(true);
  });

  it('is false once another record came after theirs, a hidden one too', async () => {
    const { store, keys } = await journalOf(change(totals(1)), change(totals(2)));
    expect(await current(store, { key: keys[0] ?? 0, totals: totals(1) })).toBe(false);
    const hidden = await journalOf(change(totals(1)), totalsRecord(totals(2)));
    expect(await current(hidden.store, { key: hidden.keys[0] ?? 0, totals: totals(1) })).toBe(false);
  });
});

describe('wasAlone', () => {
  const remembered = { key: 41, totals: totals(1) };

  it('is true only when the write\'s record took the very next key', () => {
    expect(wasAlone(remembered, 42)).toBe(true);
    expect(wasAlone(remembered, 43)).toBe(false);
    expect(wasAlone(remembered, 41)).toBe(false);
  });
});

describe('mayBeStale', () => {
  const storage = (cause?: unknown) => new MemoryToolError('storage', 'The memory storage failed.', cause === undefined ? undefined : { cause });
  const dom = (name: string) => new DOMException('failed', name);

  it('is true for a storage error caused by an aborted transaction or a failed add (a taken key)', () => {
    expect(mayBeStale(storage(dom('AbortError')))).toBe(true);
    expect(mayBeStale(storage(dom('ConstraintError')))).toBe(true);
  });

  it('is false for any other cause, no cause, another code or an error that is not the tool\'s', () => {
    expect(mayBeStale(storage(dom('QuotaExceededError')))).toBe(false);
    expect(mayBeStale(storage(dom('InvalidStateError')))).toBe(false);
    expect(mayBeStale(storage())).toBe(false);
    expect(mayBeStale(new MemoryToolError('too_large', 'over the limit', { cause: dom('AbortError') }))).toBe(false);
    expect(mayBeStale(dom('AbortError'))).toBe(false);
    expect(mayBeStale(new StaleTotals())).toBe(false);
    expect(mayBeStale(undefined)).toBe(false);
  });
});

describe('StaleTotals', () => {
  it('is an Error named StaleTotals that says the memory changed', () => {
    const stale = new StaleTotals();
    expect(stale).toBeInstanceOf(Error);
    expect(stale.name).toBe('StaleTotals');
    expect(stale.message).toBe('the memory changed since this tool last wrote');
  });
});
