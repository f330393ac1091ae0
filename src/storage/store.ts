// The connection to one memory database, and `run`: one transaction per call (./README.md, "Transactions").

import { openDB, unwrap } from 'idb';
import type { IDBPTransaction } from 'idb';
import { MemoryToolError, isMemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';
import { settleCompaction } from './compact.js';
import { DB_VERSION } from './schema.js';
import { upgradeMemoryDb } from './upgrade.js';
import { Failed, abortQuietly, abortedByBrowser, connectionLost, isClosedConnection, toMemoryError } from './store-errors.js';
import { withStorageLock } from './storage-lock.js';
import type { MemoryDb, MemorySchema, StoreName } from './schema.js';

export type MemoryTx<Mode extends IDBTransactionMode> = IDBPTransaction<MemorySchema, StoreName[], Mode>;

/** Every store a command may touch. Taking them all keeps each command one transaction whatever it needs. */
export const ALL_STORES: StoreName[] = ['entries', 'bodies', 'journal', 'sync'];

/** How long an open may wait for another tab that holds an older version open and does not let go. */
export const BLOCKED_WAIT_MS = 5000;

/** How many blocked waits an open that hears no `blocked` waits before it gives up (30 s by default). */
export const STALL_WAIT_FACTOR = 6;

export class MemoryStore {
  readonly dbName: string;
  readonly #blockedWaitMs: number;
  #db: Promise<MemoryDb> | undefined;
  #closed = false;

  private constructor(dbName: string, blockedWaitMs: number) {
    this.dbName = dbName;
    this.#blockedWaitMs = blockedWaitMs;
  }

  /** Opens (creating or upgrading) the database `dbName`. */
  static async open(dbName: string, options: { blockedWaitMs?: number } = {}): Promise<MemoryStore> {
    const store = new MemoryStore(dbName, options.blockedWaitMs ?? BLOCKED_WAIT_MS);
    await store.#connection();
    return store;
  }

  /**
   * Runs `body` in one transaction and resolves once it has committed; a throw aborts it. `body` must await nothing
   * but requests of `tx`, or the transaction commits under it.
   */
  async run<T, Mode extends IDBTransactionMode>(
    mode: Mode,
    body: (tx: MemoryTx<Mode>) => Promise<T>,
    stores: StoreName[] = ALL_STORES,
  ): Promise<T> {
    // The browser may close the connection under a transaction (Safari's lost connection, a site-data clear): the
    // transaction aborts, so nothing of it was written, and it runs once more on a fresh connection.
    for (let attempt = 0; ; attempt++) {
      const { tx, from } = await this.#begin(mode, stores);
      const done = tx.done;
      // A write nothing waits for may fail and abort the transaction while `body` runs: not an unhandled rejection.
      done.catch(() => undefined);
      // One async function from the transaction's `complete` to the caller: each nested one costs ticks.
      let failure: Failed;
      try {
        const result = await body(tx);
        // A read has its answer once its requests succeed; waiting for `complete` as well would only add a round trip.
        if (mode === 'readonly') return result;
        try {
          await done;
        } catch (error) {
          throw new Failed(toMemoryError(error), false);
        }
        return result;
      } catch (error) {
        if (error instanceof Failed) failure = error;
        else {
          abortQuietly(tx);
          await done.catch(() => undefined);
          // A refusal stands; anything else may echo a write that failed and aborted the transaction, which says more.
          failure = isMemoryToolError(error)
            ? new Failed(error, true)
            : new Failed(toMemoryError(unwrap(tx).error ?? error), false);
        }
      }
      if (attempt > 0 || failure.refusal || !connectionLost(unwrap(tx), failure.cause.cause)) throw failure.cause;
      this.#drop(from);
    }
  }

  /** Closes the connection; later calls fail with a `storage` error. */
  close(): void {
    this.#closed = true;
    const db = this.#db;
    this.#db = undefined;
    void db?.then((d) => d.close()).catch(() => undefined);
  }

  async #begin<Mode extends IDBTransactionMode>(
    mode: Mode,
    stores: StoreName[],
  ): Promise<{ tx: MemoryTx<Mode>; from: Promise<MemoryDb> }> {
    // The browser may close a connection under us (Safari when idle, another tab's upgrade): one fresh one is tried.
    for (let attempt = 0; ; attempt++) {
      const connection = this.#connection();
      // The one this call tries: another call that found it closed too may have opened a fresh one meanwhile.
      const tried = this.#db;
      let db: MemoryDb;
      try {
        db = await connection;
      } catch (error) {
        // An open the browser aborted as it force-closed the origin's connections (Chromium): the next one waits
        // for what closed them.
        if (attempt > 0 || !abortedByBrowser((error as MemoryToolError).cause)) throw error;
        continue;
      }
      try {
        const tx = db.transaction(stores, mode) as MemoryTx<Mode>;
        return { tx, from: tried ?? connection };
      } catch (error) {
        if (attempt > 0 || !isClosedConnection(error)) throw toMemoryError(error);
        if (tried) this.#drop(tried);
      }
    }
  }

  #connection(): Promise<MemoryDb> {
    if (this.#closed) {
      return Promise.reject(new MemoryToolError('storage', reply.storage('the memory was closed')));
    }
    if (typeof indexedDB === 'undefined') {
      return Promise.reject(new MemoryToolError('storage', reply.storage(reply.noIndexedDb())));
    }
    if (!this.#db) {
      // Under the storage lock: no compaction is under way in another tab, and one a closed page left is finished.
      // Kept as callers get it, so awaiting an open connection costs one tick.
      const opening: Promise<MemoryDb> = withStorageLock(this.dbName, async () => {
        await settleCompaction(this.dbName, this.#blockedWaitMs);
        return this.#open(() => opening);
      }).catch((error: unknown) => {
        this.#drop(opening);
        throw toMemoryError(error);
      });
      this.#db = opening;
    }
    return this.#db;
  }

  /** One open of the database, given up after the blocked wait (`self`: the promise it becomes, to drop). */
  #open(self: () => Promise<MemoryDb>): Promise<MemoryDb> {
    return new Promise((resolve, reject) => {
      let gaveUp = false;
      let heardBlocked = false;
      const began = Date.now();
      const giveUp = (error: MemoryToolError): void => {
        gaveUp = true;
        reject(error);
      };
      // Timed from the start, not from `blocked`: an open queued behind another tab's delete or upgrade hears no
      // `blocked` of its own. One that hears none may also wait for the browser itself: WebKit answers no open of
      // the origin while it rolls back a transaction of a tab that closed part-way (4-12 s seen). So only an open
      // another connection keeps `blocked` fails after the blocked wait; one that hears nothing waits
      // STALL_WAIT_FACTOR times as long and then says what it may be. Over once the upgrade runs or the open ends.
      let timer = setTimeout(() => {
        if (heardBlocked) giveUp(new MemoryToolError('storage', reply.blocked()));
        else {
          const total = this.#blockedWaitMs * STALL_WAIT_FACTOR;
          timer = setTimeout(() => giveUp(new MemoryToolError('storage', reply.stalled(total))), total - this.#blockedWaitMs);
        }
      }, this.#blockedWaitMs);
      openDB<MemorySchema>(this.dbName, DB_VERSION, {
        blocked: () => {
          heardBlocked = true;
          if (!gaveUp && Date.now() - began >= this.#blockedWaitMs) {
            clearTimeout(timer);
            giveUp(new MemoryToolError('storage', reply.blocked()));
          }
        },
        upgrade: (db, oldVersion, newVersion, transaction) => {
          clearTimeout(timer);
          upgradeMemoryDb(db, oldVersion, newVersion, transaction);
        },
        blocking: () => this.#drop(self()),
        terminated: () => this.#drop(self()),
      }).then(
        (db) => {
          clearTimeout(timer);
          if (gaveUp) db.close();
          else resolve(db);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  #drop(which: Promise<MemoryDb>): void {
    if (this.#db === which) this.#db = undefined;
    void which.then((db) => db.close()).catch(() => undefined);
  }
}

type Value<Name extends StoreName> = MemorySchema[Name]['value'];
type Key<Name extends StoreName> = MemorySchema[Name]['key'];
type AnyTx = MemoryTx<'readonly'> | MemoryTx<'readwrite'>;

/** A request's result as a promise, settled in its own event; lighter than idb's wrappers (./README.md). */
export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('request failed'));
  });
}

/** The plain IDBObjectStore `name` of `tx`. */
export const plainStore = (tx: AnyTx, name: StoreName): IDBObjectStore => unwrap(tx).objectStore(name);

/** One record of `name` by key, through {@link request}. */
export function getRecord<Name extends StoreName>(
  tx: AnyTx,
  name: Name,
  key: Key<Name>,
): Promise<Value<Name> | undefined> {
  return request(plainStore(tx, name).get(key)) as Promise<Value<Name> | undefined>;
}

/** Writes to one store that nothing waits for (see {@link writer}). */
export interface StoreWriter<Name extends StoreName> {
  put(value: MemorySchema[Name]['value'], key?: MemorySchema[Name]['key']): void;
  add(value: MemorySchema[Name]['value'], key?: MemorySchema[Name]['key']): void;
  delete(key: MemorySchema[Name]['key'] | IDBKeyRange): void;
}

/** The plain store of `tx`, for writes nothing waits for: a failed one aborts the transaction, which `run` reports. */
export function writer<Name extends StoreName>(tx: MemoryTx<'readwrite'>, name: Name): StoreWriter<Name> {
  return plainStore(tx, name) as unknown as StoreWriter<Name>;
}

/** The stores a read of files needs. */
export const READ_STORES: StoreName[] = ['entries', 'bodies'];
