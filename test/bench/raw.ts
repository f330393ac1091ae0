// The raw floors: plain IndexedDB (no idb, no library) doing the least work each command needs on the
// library's own schema, so the two run on the same database side by side. Also the untimed setup writes.
// Reads resolve at their last request's success (a reader needs no commit); writes resolve at `complete`.

import type { EntryRecord } from '../../src/storage/schema.js';
import { addHistoryRecord } from './raw-history.js';

/** One file as the raw floors write it: already the record the store keeps. */
export interface RawFile {
  path: string;
  content: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * Keys of the bodies the raw side writes: negative, so they never meet the library's (which picks its own
 * positive ids, from a counter or from the store's last key) and never move the store's key generator.
 * Giving the key costs the same as letting the store generate one.
 */
let lastRawKey = 0;
export const rawBodyKey = (): number => --lastRawKey;

/** Every key strictly below `folder` (`'0'` follows `'/'`), as the library's subtree range. */
export const below = (folder: string): IDBKeyRange => IDBKeyRange.bound(folder + '/', folder + '0', false, true);
const parentOf = (path: string): string => path.slice(0, path.lastIndexOf('/'));

/** Opens an existing database at whatever version it has (the library created the stores). */
export function openRaw(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error(`cannot open ${name}`));
  });
}

export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error(`cannot delete ${name}`));
    request.onblocked = () => reject(new Error(`deleting ${name} is blocked by an open connection`));
  });
}

/** Settles with the transaction: `complete` resolves, `abort` or `error` rejects. */
export function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
  });
}

/** `tx` failing before `value` arrives rejects too (a read never waits for `complete`). */
function readUntil<T>(tx: IDBTransaction, start: (resolve: (value: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
    start(resolve);
  });
}

function fileRecord(path: string, content: string, bodyId: number, createdAt: number, updatedAt: number): EntryRecord {
  return { path, parent: parentOf(path), kind: 'file', size: content.length, bodyId, createdAt, updatedAt };
}

function folderRecord(path: string, now: number): EntryRecord {
  return { path, parent: parentOf(path), kind: 'folder', size: 0, createdAt: now, updatedAt: now };
}

// ---------------------------------------------------------------- single-file floors

/**
 * create: the least a correct create does. It reads the target (a folder there must be refused, a file there is
 * overwritten) and its parent folder (a file there must be refused, a missing one made), then writes the body,
 * the metadata and one history record: 2 gets, then 3 writes, in one readwrite transaction. An overwritten file's
 * body stays, for undo.
 */
export function createFile(db: IDBDatabase, path: string, content: string, now: number): Promise<void> {
  const tx = db.transaction(['entries', 'bodies'], 'readwrite');
  const entries = tx.objectStore('entries');
  const target = entries.get(path);
  const parent = entries.get(parentOf(path));
  // Requests finish in order: when the parent is read, so is the target.
  parent.onsuccess = () => {
    const there = target.result as EntryRecord | undefined;
    if (there?.kind === 'folder' || (parent.result as EntryRecord | undefined)?.kind !== 'folder') {
      throw new Error(`raw create: ${path} is a folder or has no parent folder`);
    }
    const bodyId = rawBodyKey();
    tx.objectStore('bodies').add(content, bodyId);
    entries.put(fileRecord(path, content, bodyId, there?.createdAt ?? now, now));
    addHistoryRecord(tx, rawBodyKey(), 'create', path, there?.bodyId, there?.size ?? 0, bodyId, now);
  };
  return done(tx);
}

/** view of a file: one readonly transaction getting the metadata, then the body. */
export function viewFile(db: IDBDatabase, path: string): Promise<string> {
  const tx = db.transaction(['entries', 'bodies'], 'readonly');
  return readUntil<string>(tx, (resolve) => {
    const entry = tx.objectStore('entries').get(path);
    entry.onsuccess = () => {
      const record = entry.result as EntryRecord;
      const body = tx.objectStore('bodies').get(record.bodyId ?? -1);
      body.onsuccess = () => resolve(body.result as string);
    };
  });
}

/**
 * A read-modify-write of one file, copy-on-write as undo needs: get metadata, get body, then add the new body (the
 * old one stays, for undo), put the metadata and add one history record.
 */
function editFile(
  db: IDBDatabase,
  command: 'str_replace' | 'insert',
  path: string,
  edit: (content: string) => string,
  now: number,
): Promise<void> {
  const tx = db.transaction(['entries', 'bodies'], 'readwrite');
  const entries = tx.objectStore('entries');
  const bodies = tx.objectStore('bodies');
  const entry = entries.get(path);
  entry.onsuccess = () => {
    const record = entry.result as EntryRecord;
    const body = bodies.get(record.bodyId ?? -1);
    body.onsuccess = () => {
      const content = edit(body.result as string);
      const bodyId = rawBodyKey();
      bodies.add(content, bodyId);
      entries.put({ ...record, size: content.length, bodyId, updatedAt: now });
      addHistoryRecord(tx, rawBodyKey(), command, path, record.bodyId, record.size, bodyId, now);
    };
  };
  return done(tx);
}

/** str_replace: the edit is one search (plus the uniqueness check the command needs) and one splice. */
export function strReplace(db: IDBDatabase, path: string, oldStr: string, newStr: string, now: number): Promise<void> {
  return editFile(
    db,
    'str_replace',
    path,
    (content) => {
      const at = content.indexOf(oldStr);
      if (at === -1 || content.indexOf(oldStr, at + 1) !== -1) throw new Error(`raw str_replace: ${oldStr} not unique`);
      return content.slice(0, at) + newStr + content.slice(at + oldStr.length);
    },
    now,
  );
}

/** insert after line 1: find the first newline and splice. */
export function insertLine(db: IDBDatabase, path: string, text: string, now: number): Promise<void> {
  return editFile(
    db,
    'insert',
    path,
    (content) => {
      const nl = content.indexOf('\n');
      return nl === -1 ? `${content}\n${text}` : `${content.slice(0, nl + 1)}${text}\n${content.slice(nl + 1)}`;
    },
    now,
  );
}

/**
 * delete of a file, as undo needs it: get its metadata (a folder would take its subtree), delete it and add one history
 * record naming the body, which stays (the same least record as an edit's).
 */
export function deleteFile(db: IDBDatabase, path: string, now: number): Promise<void> {
  const tx = db.transaction(['entries', 'bodies'], 'readwrite');
  const entry = tx.objectStore('entries').get(path);
  entry.onsuccess = () => {
    const record = entry.result as EntryRecord;
    tx.objectStore('entries').delete(path);
    addHistoryRecord(tx, rawBodyKey(), 'delete', path, record.bodyId, record.size, null, now);
  };
  return done(tx);
}

// ---------------------------------------------------------------- folder floors

/** Listing: getAll on the parent index for the folder, then for each child folder (two levels). */
export function listFolder(db: IDBDatabase, folder: string): Promise<number> {
  const tx = db.transaction('entries', 'readonly');
  const byParent = tx.objectStore('entries').index('parent');
  return readUntil<number>(tx, (resolve) => {
    const top = byParent.getAll(folder);
    top.onsuccess = () => {
      const children = top.result as EntryRecord[];
      const folders = children.filter((child) => child.kind === 'folder');
      let pending = folders.length;
      let count = children.length;
      if (pending === 0) resolve(count);
      for (const child of folders) {
        const inner = byParent.getAll(child.path);
        inner.onsuccess = () => {
          count += inner.result.length;
          if (--pending === 0) resolve(count);
        };
      }
    };
  });
}

/** Rename of a folder: one transaction reading the subtree, deleting its range and putting the moved records. */
export function renameFolder(db: IDBDatabase, from: string, to: string): Promise<void> {
  const tx = db.transaction('entries', 'readwrite');
  const entries = tx.objectStore('entries');
  const top = entries.get(from);
  const subtree = entries.getAll(below(from));
  subtree.onsuccess = () => {
    const moved = [top.result as EntryRecord, ...(subtree.result as EntryRecord[])];
    entries.delete(from);
    entries.delete(below(from));
    for (const entry of moved) {
      const path = to + entry.path.slice(from.length);
      entries.put({ ...entry, path, parent: parentOf(path) });
    }
  };
  return done(tx);
}

/** Delete of a folder: read the subtree (for the body ids), delete its range and every body. */
export function deleteFolder(db: IDBDatabase, folder: string): Promise<void> {
  const tx = db.transaction(['entries', 'bodies'], 'readwrite');
  const entries = tx.objectStore('entries');
  const subtree = entries.getAll(below(folder));
  subtree.onsuccess = () => {
    const bodies = tx.objectStore('bodies');
    entries.delete(folder);
    entries.delete(below(folder));
    for (const entry of subtree.result as EntryRecord[]) if (entry.bodyId !== undefined) bodies.delete(entry.bodyId);
  };
  return done(tx);
}

/** Export: one readonly transaction reading the subtree's metadata and each body, then the JSON as a Blob. */
export function exportFolder(db: IDBDatabase, folder: string): Promise<Blob> {
  const tx = db.transaction(['entries', 'bodies'], 'readonly');
  return readUntil<Blob>(tx, (resolve) => {
    const subtree = tx.objectStore('entries').getAll(below(folder));
    subtree.onsuccess = () => {
      const files = (subtree.result as EntryRecord[]).filter((entry) => entry.kind === 'file');
      const contents: string[] = new Array<string>(files.length);
      let pending = files.length;
      const finish = (): void => {
        const parts = ['{"files":['];
        files.forEach((file, i) => {
          const record = { path: file.path, content: contents[i], createdAt: file.createdAt, updatedAt: file.updatedAt };
          parts.push(`${i === 0 ? '' : ','}\n${JSON.stringify(record)}`);
        });
        parts.push(']}\n');
        resolve(new Blob(parts, { type: 'application/json' }));
      };
      if (pending === 0) finish();
      const bodies = tx.objectStore('bodies');
      files.forEach((file, i) => {
        const body = bodies.get(file.bodyId ?? -1);
        body.onsuccess = () => {
          contents[i] = body.result as string;
          if (--pending === 0) finish();
        };
      });
    };
  });
}

/** Import (and the setup writes): one readwrite transaction putting the folders, adding N bodies and N records. */
export function writeFiles(db: IDBDatabase, files: readonly RawFile[], folders: readonly string[], now: number): Promise<void> {
  const tx = db.transaction(['entries', 'bodies'], 'readwrite');
  const entries = tx.objectStore('entries');
  const bodies = tx.objectStore('bodies');
  for (const folder of folders) entries.put(folderRecord(folder, now));
  for (const file of files) {
    const added = bodies.add(file.content, rawBodyKey());
    added.onsuccess = () => {
      entries.put(fileRecord(file.path, file.content, added.result as number, file.createdAt, file.updatedAt));
    };
  }
  return done(tx);
}

// ---------------------------------------------------------------- untimed upkeep

/** Setup: {@link writeFiles} plus the library's usage totals, so its limit checks see the files. */
export async function seedFiles(db: IDBDatabase, files: readonly RawFile[], folders: readonly string[], now: number): Promise<void> {
  await writeFiles(db, files, folders, now);
  const bytes = files.reduce((sum, file) => sum + file.content.length, 0);
  await updateTotals(db, ([seq, oldBytes, oldFiles, next, jb, je]) => [seq + 1, oldBytes + bytes, oldFiles + files.length, next, jb, je]);
}

/** The library's totals as it stores them (schema.ts `StoredTotals`). */
export type Totals = [seq: number, bytes: number, files: number, nextBody: number, journalBytes: number, journalEntries: number];

/**
 * The library's hidden totals record holding `totals` (schema.ts `totalsRecord`), as a library with no history
 * writes it: added after every other record.
 */
const totalsRecord = (totals: Totals): object => ({
  hidden: true, at: 0, actor: '', command: '', paths: [], ops: [], retains: [], bytes: 0, undoable: false, totals,
});

/** The request that reads the library's newest totals: one step of a cursor from its journal's end. */
export const newestTotals = (journal: IDBObjectStore): IDBRequest<IDBCursorWithValue | null> => journal.openCursor(null, 'prev');

/** The totals a {@link newestTotals} cursor found (an empty memory's when the journal is empty). */
export const totalsOf = (cursor: IDBCursorWithValue | null): Totals =>
  (cursor?.value as { totals?: Totals } | undefined)?.totals ?? [0, 0, 0, 1, 0, 0];

/** The library's newest totals and the key to write the next ones at, when hidden. */
function readTotals(journal: IDBObjectStore, then: (totals: Totals, holder: number | undefined) => void): void {
  const newest = newestTotals(journal);
  newest.onsuccess = () => {
    const cursor = newest.result;
    then(totalsOf(cursor), (cursor?.value as { hidden?: boolean } | undefined)?.hidden ? (cursor?.primaryKey as number) : undefined);
  };
}

/**
 * Reads the library's newest totals and writes `change(totals)` as the newest, as the library does: at a new key
 * above every other (a tool's remembered totals rely on it), replacing a hidden record they were read from.
 */
function updateTotals(db: IDBDatabase, change: (totals: Totals) => Totals, tx = db.transaction('journal', 'readwrite')): Promise<void> {
  const journal = tx.objectStore('journal');
  readTotals(journal, (totals, holder) => {
    journal.add(totalsRecord(change(totals)));
    if (holder !== undefined) journal.delete(holder);
  });
  return done(tx);
}

/** True when `path` has a record. */
export function exists(db: IDBDatabase, path: string): Promise<boolean> {
  const tx = db.transaction('entries', 'readonly');
  return readUntil<boolean>(tx, (resolve) => {
    const request = tx.objectStore('entries').count(path);
    request.onsuccess = () => resolve(request.result > 0);
  });
}

/** Empties the library's history (and frees the bodies only it held), so each measured delete starts alike. */
export function resetHistory(db: IDBDatabase): Promise<void> {
  const tx = db.transaction(['entries', 'bodies', 'journal'], 'readwrite');
  const journal = tx.objectStore('journal');
  readTotals(journal, (totals) => {
    const all = journal.getAll();
    all.onsuccess = () => {
      const byBody = tx.objectStore('entries').index('bodyId');
      const bodies = tx.objectStore('bodies');
      for (const record of all.result as { retains: number[] }[]) {
        for (const id of record.retains) {
          const live = byBody.count(id);
          live.onsuccess = () => {
            if (live.result === 0) bodies.delete(id);
          };
        }
      }
      journal.clear();
      // The memory's totals stay; the journal's go to zero.
      const [seq, bytes, files, next] = totals;
      journal.put(totalsRecord([seq + 1, bytes, files, next, 0, 0]));
    };
  });
  return done(tx);
}
