// The schema's upgrade steps, version by version, run in the versionchange transaction (./README.md, "The model").

import type { IDBPTransaction } from 'idb';
import { DB_VERSION, totalsRecord, unpackTotals } from './schema.js';
import type { JournalRecord, MemoryDb, MemorySchema, StoreName } from './schema.js';

/** What version 2 kept in its `meta` store: `usage` (`{bytes, files, nextBody?}`) and `journal` (`{bytes, files}`). */
interface LegacyTotals {
  bytes: number;
  files: number;
  nextBody?: number;
}

/** Creates or migrates the stores in the versionchange transaction; a step runs when `oldVersion < step <= target`. */
export function upgradeMemoryDb(
  db: MemoryDb,
  oldVersion: number,
  newVersion: number | null,
  transaction: IDBPTransaction<MemorySchema, StoreName[], 'versionchange'>,
): void {
  const target = newVersion ?? DB_VERSION;
  const steps: Array<Promise<void>> = [];
  if (oldVersion < 1 && target >= 1) {
    const entries = db.createObjectStore('entries', { keyPath: 'path' });
    entries.createIndex('parent', 'parent');
    db.createObjectStore('bodies', { autoIncrement: true });
    if (target < 3) legacy(db).createObjectStore('meta');
  }
  if (oldVersion < 2 && target >= 2) {
    transaction.objectStore('entries').createIndex('bodyId', 'bodyId');
    db.createObjectStore('journal', { keyPath: 'id', autoIncrement: true }).createIndex('retains', 'retains', {
      multiEntry: true,
    });
  }
  if (oldVersion < 3 && target >= 3) {
    if (target < 4) legacyJournal(transaction).createIndex('totals', 'totals');
    if (oldVersion >= 1) steps.push(foldTotals(db, transaction, target));
  }
  if (oldVersion === 3 && target >= 4) {
    steps.push(lastCarriesTotals(transaction));
  }
  // Version 5 changes no store, only a rule the remembered totals rely on, and keeps older code off (./README.md).
  if (oldVersion < 6 && target >= 6) {
    db.createObjectStore('sync', { keyPath: ['mount', 'path'] });
  }
  // Version 7: the search index, empty; it is a function of the bodies and fills in on use (../search/README.md).
  if (oldVersion < 7 && target >= 7) {
    db.createObjectStore('searchDocs');
    db.createObjectStore('searchDelta');
    db.createObjectStore('searchTerms');
    db.createObjectStore('searchState');
  }
  // The requests keep the versionchange transaction open; a failed step aborts it, which fails the open.
  void Promise.all(steps).catch(() => {
    try {
      transaction.abort();
    } catch {
      // Already over: its own failure fails the open.
    }
  });
}

/** `db` and `transaction` as versions 1 to 3 had them: the `meta` store and the `totals` index. */
const legacy = (db: unknown) =>
  db as { createObjectStore(name: 'meta'): unknown; deleteObjectStore(name: 'meta'): void };
const legacyMeta = (transaction: unknown) =>
  (
    transaction as {
      objectStore(name: 'meta'): { get(key: string): Promise<LegacyTotals | undefined> };
    }
  ).objectStore('meta');
interface LegacyJournal {
  createIndex(name: 'totals', keyPath: 'totals'): unknown;
  deleteIndex(name: 'totals'): void;
  index(name: 'totals'): { openCursor(query: null, direction: 'prev'): Promise<{ value: JournalRecord } | null> };
}
const legacyJournal = (transaction: unknown) =>
  (transaction as { objectStore(name: 'journal'): LegacyJournal }).objectStore('journal');

/** Version 3: the totals of version 2's `meta` store become a hidden journal record, the newest. */
async function foldTotals(
  db: MemoryDb,
  transaction: IDBPTransaction<MemorySchema, StoreName[], 'versionchange'>,
  target: number,
): Promise<void> {
  const meta = legacyMeta(transaction);
  const [usage, journal, lastBody] = await Promise.all([
    meta.get('usage'),
    meta.get('journal'),
    transaction.objectStore('bodies').openKeyCursor(null, 'prev'),
  ]);
  legacy(db).deleteObjectStore('meta');
  if (!usage && !journal && !lastBody) return;
  const last = typeof lastBody?.key === 'number' ? lastBody.key : 0;
  const totals = {
    seq: 1,
    bytes: usage?.bytes ?? 0,
    files: usage?.files ?? 0,
    nextBody: Math.max(usage?.nextBody ?? 1, last + 1),
    journalBytes: journal?.bytes ?? 0,
    journalEntries: journal?.files ?? 0,
  };
  // Version 3 kept it at key 0 (its index found it); from version 4 it is the last record.
  await transaction.objectStore('journal').put(totalsRecord(totals, target < 4 ? 0 : undefined));
}

/** Version 4: the newest totals move to the journal's end; a stale key-0 record goes, then the `totals` index. */
async function lastCarriesTotals(
  transaction: IDBPTransaction<MemorySchema, StoreName[], 'versionchange'>,
): Promise<void> {
  const journal = transaction.objectStore('journal');
  const [newest, last, atZero] = await Promise.all([
    legacyJournal(transaction).index('totals').openCursor(null, 'prev'),
    journal.openKeyCursor(null, 'prev'),
    journal.get(0),
  ]);
  const record = newest?.value;
  const writes: Array<Promise<unknown>> = [];
  if (record?.totals && record.id !== last?.key) writes.push(journal.add(totalsRecord(unpackTotals(record.totals))));
  if (atZero?.hidden && last?.key !== 0) writes.push(journal.delete(0));
  await Promise.all(writes);
  legacyJournal(transaction).deleteIndex('totals');
}
