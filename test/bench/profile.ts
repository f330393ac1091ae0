// Diagnosis, not the table (`npm run bench -- --profile`): counts the transactions, requests and sequential
// request rounds each command makes, times the library with parts switched off next to raw replicas of its
// round structure, and times the pure-JS steps (secret scan, hashing, parsing) alone.

import { SECRET_PATTERNS, findSecret } from '../../src/guards/secrets.js';
import { parseMemoryCommand } from '../../src/core/command-input.js';
import { normalizeMemoryPath } from '../../src/core/paths.js';
import { utf8Length } from '../../src/core/utf8.js';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import type { EntryRecord } from '../../src/storage/schema.js';
import { BULK_FILE_BYTES, TOKEN_A, TOKEN_B, bulkFolders, makeText, median } from './fixtures.js';
import type { Reps } from './fixtures.js';
import { bulkFiles, measureSides, openMemory } from './harness.js';
import type { Side } from './harness.js';
import * as raw from './raw.js';

// ---------------------------------------------------------------- counting requests

interface Counts {
  transactions: { mode: string; stores: number }[];
  requests: Record<string, number>;
  /** Sequential rounds: requests issued between two request completions count as one round. */
  rounds: number;
}

let counting: (Counts & { settled: number; seen: Set<number> }) | undefined;

/** Wraps the request methods to count calls; returns the function that puts the originals back. */
function instrument(): () => void {
  const restores: (() => void)[] = [];
  const wrap = (proto: object, names: string[], kind: string): void => {
    for (const name of names) {
      const original = (proto as Record<string, unknown>)[name];
      if (typeof original !== 'function') continue;
      restores.push(() => Object.defineProperty(proto, name, { configurable: true, writable: true, value: original }));
      Object.defineProperty(proto, name, {
        configurable: true,
        writable: true,
        value(this: unknown, ...args: unknown[]) {
          const result = (original as (...a: unknown[]) => unknown).apply(this, args);
          const c = counting;
          if (c) {
            const key = `${kind}.${name}`;
            c.requests[key] = (c.requests[key] ?? 0) + 1;
            c.seen.add(c.settled);
            if (result instanceof IDBRequest) {
              result.addEventListener('success', () => c.settled++);
            } else if (name === 'continue' && this instanceof IDBCursor) {
              this.request.addEventListener('success', () => c.settled++, { once: true });
            }
          }
          return result;
        },
      });
    }
  };
  wrap(IDBObjectStore.prototype, ['get', 'getAll', 'getAllKeys', 'getKey', 'put', 'add', 'delete', 'count', 'openCursor', 'openKeyCursor', 'clear'], 'store');
  wrap(IDBIndex.prototype, ['get', 'getAll', 'getAllKeys', 'getKey', 'count', 'openCursor', 'openKeyCursor'], 'index');
  wrap(IDBCursor.prototype, ['continue', 'delete', 'update'], 'cursor');
  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, stores: string | Iterable<string>, mode?: IDBTransactionMode, options?: IDBTransactionOptions) {
    const tx = transaction.call(this, stores, mode, options);
    counting?.transactions.push({ mode: tx.mode, stores: tx.objectStoreNames.length });
    return tx;
  } as typeof transaction;
  restores.push(() => {
    IDBDatabase.prototype.transaction = transaction;
  });
  return () => restores.forEach((restore) => restore());
}

async function count(run: () => Promise<unknown>): Promise<Counts> {
  counting = { transactions: [], requests: {}, rounds: 0, settled: 0, seen: new Set() };
  try {
    await run();
    return { transactions: counting.transactions, requests: counting.requests, rounds: counting.seen.size };
  } finally {
    counting = undefined;
  }
}

// ---------------------------------------------------------------- timing many sides

async function measureMany(reps: Reps, sides: Record<string, Side>): Promise<Record<string, number>> {
  const times = await measureSides(reps, sides);
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, Number(median(values).toFixed(3))]));
}

// ---------------------------------------------------------------- raw replicas of the library's rounds

const ALL = ['entries', 'bodies', 'journal'];
const parentOf = (path: string): string => path.slice(0, path.lastIndexOf('/'));

/** Calls `then` once every request has succeeded. */
function all(requests: IDBRequest[], then: (results: unknown[]) => void): void {
  let pending = requests.length;
  if (pending === 0) then([]);
  for (const request of requests) {
    request.onsuccess = () => {
      if (--pending === 0) then(requests.map((r) => r.result as unknown));
    };
  }
}

type Totals = raw.Totals;

/** What each replica database's last write left, as a tool remembers it: the totals and their record's key. */
const remembered = new WeakMap<IDBDatabase, { key: number; totals: Totals }>();

/**
 * The newest totals as the library gets them (storage/optimistic-totals.ts `readTotals`) on a database no one else writes to: when
 * remembered, taken unchecked (`trust`: create, the edits and delete, proven afterwards by the journal record's key) or
 * after one key lookup that no record came after them (rename); otherwise one step of a cursor from the
 * journal's end (raw.ts).
 */
function libraryTotals(tx: IDBTransaction, trust: boolean, then: (totals: Totals) => void): void {
  const journal = tx.objectStore('journal');
  const read = (): void => {
    const cursor = raw.newestTotals(journal);
    cursor.onsuccess = () => then(raw.totalsOf(cursor.result));
  };
  const known = remembered.get(tx.db);
  if (!known) return read();
  if (trust) return then(known.totals);
  const check = journal.getKey(IDBKeyRange.lowerBound(known.key, true));
  check.onsuccess = () => (check.result === undefined ? then(known.totals) : read());
}

/** Adds the journal record carrying `totals` and remembers them with its key. */
function addJournal(tx: IDBTransaction, record: object, totals: Totals): void {
  const added = tx.objectStore('journal').add(record);
  added.onsuccess = () => remembered.set(tx.db, { key: added.result as number, totals });
}

/** Calls `then` with the requests' results and the totals once all have arrived. */
function withTotals(tx: IDBTransaction, trust: boolean, requests: IDBRequest[], then: (results: unknown[], totals: Totals) => void): void {
  let results: unknown[] | undefined;
  let totals: Totals | undefined;
  const go = (): void => {
    if (results && totals) then(results, totals);
  };
  all(requests, (r) => {
    results = r;
    go();
  });
  libraryTotals(tx, trust, (t) => {
    totals = t;
    go();
  });
}

function journalRecord(path: string, retains: number[], now: number, totals: Totals): object {
  return { at: now, actor: 'claude', command: 'create', paths: [path], ops: [{ type: 'file', path, before: null, after: null }], retains, bytes: 0, undoable: true, totals };
}

/**
 * create with the library's requests: round 1 gets the entry and its parent and adds the body (the remembered
 * totals are taken unchecked); round 2 puts the entry and adds the journal record that carries the new totals.
 * 5 requests.
 */
function createLibPattern(db: IDBDatabase, path: string, content: string, now: number): Promise<void> {
  const tx = db.transaction(ALL, 'readwrite');
  const entries = tx.objectStore('entries');
  const added = tx.objectStore('bodies').add(content, raw.rawBodyKey());
  withTotals(tx, true, [entries.get(path), entries.get(parentOf(path)), added], ([, , bodyId], [seq, bytes, files, next, jb, je]) => {
    entries.put({ path, parent: parentOf(path), kind: 'file', size: content.length, bodyId: bodyId as number, createdAt: now, updatedAt: now });
    const totals: Totals = [seq + 1, bytes + content.length, files + 1, next, jb, je + 1];
    addJournal(tx, journalRecord(path, [], now, totals), totals);
  });
  return raw.done(tx);
}

/** delete with the library's requests: round 1 gets the entry (the remembered totals unchecked); round 2 deletes it and adds the journal record. */
function deleteLibPattern(db: IDBDatabase, path: string, now: number): Promise<void> {
  const tx = db.transaction(ALL, 'readwrite');
  const entries = tx.objectStore('entries');
  withTotals(tx, true, [entries.get(path)], ([found], [seq, bytes, files, next, jb, je]) => {
    const entry = found as EntryRecord;
    entries.delete(path);
    const totals: Totals = [seq + 1, bytes - entry.size, files - 1, next, jb + entry.size, je + 1];
    addJournal(tx, journalRecord(path, [entry.bodyId ?? -1], now, totals), totals);
  });
  return raw.done(tx);
}

/** The floor's requests, but in a transaction over all the stores. */
function createAllStores(db: IDBDatabase, path: string, content: string, now: number): Promise<void> {
  const tx = db.transaction(ALL, 'readwrite');
  const entries = tx.objectStore('entries');
  const target = entries.get(path);
  const parent = entries.get(parentOf(path));
  parent.onsuccess = () => {
    void target;
    const bodyId = raw.rawBodyKey();
    tx.objectStore('bodies').add(content, bodyId);
    entries.put({ path, parent: parentOf(path), kind: 'file', size: content.length, bodyId, createdAt: now, updatedAt: now });
  };
  return raw.done(tx);
}

/** str_replace with the library's requests: entry (the remembered totals unchecked); body; the new body, the entry and the journal record. */
function editLibPattern(db: IDBDatabase, path: string, edit: (s: string) => string, now: number, nextId: () => number): Promise<void> {
  const tx = db.transaction(ALL, 'readwrite');
  const entries = tx.objectStore('entries');
  withTotals(tx, true, [entries.get(path)], ([found], [seq, bytes, files, next, jb, je]) => {
    const entry = found as EntryRecord;
    const body = tx.objectStore('bodies').get(entry.bodyId ?? -1);
    body.onsuccess = () => {
      const content = edit(body.result as string);
      const id = nextId();
      tx.objectStore('bodies').add(content, id);
      entries.put({ ...entry, bodyId: id, size: content.length, updatedAt: now });
      const totals: Totals = [seq + 1, bytes, files, next, jb + entry.size, je + 1];
      addJournal(tx, journalRecord(path, [entry.bodyId ?? -1], now, totals), totals);
    };
  });
  return raw.done(tx);
}

/** view, but resolved at `complete` like the library's store.run, not at the body's success. */
function viewAwaitComplete(db: IDBDatabase, path: string): Promise<void> {
  const tx = db.transaction(['entries', 'bodies'], 'readonly');
  const entry = tx.objectStore('entries').get(path);
  entry.onsuccess = () => {
    tx.objectStore('bodies').get((entry.result as EntryRecord).bodyId ?? -1);
  };
  return raw.done(tx);
}

/** Listing as the library sequences it: the folder's record first, then the parent index. */
function listLibRounds(db: IDBDatabase, folder: string): Promise<void> {
  const tx = db.transaction(ALL, 'readonly');
  const entries = tx.objectStore('entries');
  const got = entries.get(folder);
  got.onsuccess = () => {
    const top = entries.index('parent').getAll(folder);
    top.onsuccess = () => {
      for (const child of top.result as EntryRecord[]) if (child.kind === 'folder') entries.index('parent').getAll(child.path);
    };
  };
  return raw.done(tx);
}

// ---------------------------------------------------------------- the profile

const swap = (i: number): [string, string] => (i % 2 === 0 ? [TOKEN_A, TOKEN_B] : [TOKEN_B, TOKEN_A]);
const replaceOnce = (oldStr: string, newStr: string) => (s: string): string => {
  const at = s.indexOf(oldStr);
  return s.slice(0, at) + newStr + s.slice(at + oldStr.length);
};

function timeSync(reps: number, run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return Number(median(times).toFixed(3));
}

async function timeAsync(reps: number, run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return Number(median(times).toFixed(3));
}

export async function profile(files = 1000): Promise<unknown> {
  const uninstrument = instrument();
  const name = `profile-${Date.now()}`;
  const memory = await openMemory(name);
  const { tool, db } = memory;
  const now = Date.now();
  const bulk = '/memories/bulk';
  await raw.seedFiles(db, bulkFiles(bulk, files, BULK_FILE_BYTES, now), bulkFolders(bulk, files), now);
  const sizes = { '1kb': 1024, '1mb': 1024 * 1024 - 4096 } as const;
  // Each side that writes the journal has a memory of its own: one's writes would make the totals another
  // remembers stale (as another tab's would), and it would then read them on every write. The raw floors write
  // no journal, so they share the default tool's.
  const own = {
    noHistory: await openMemory(`${name}-noHistory`, { history: false }),
    noSecrets: await openMemory(`${name}-noSecrets`, { blockSecrets: false }),
    neither: await openMemory(`${name}-neither`, { history: false, blockSecrets: false }),
    rawLib: await openMemory(`${name}-rawLib`),
  };
  const variants = { default: tool, noHistory: own.noHistory.tool, noSecrets: own.noSecrets.tool, neither: own.neither.tool };
  const libDb = own.rawLib.db;
  const dbOf: Record<string, IDBDatabase> = { default: db, raw: db, noHistory: own.noHistory.db, noSecrets: own.noSecrets.db, neither: own.neither.db, rawLib: libDb };
  for (const [who, whose] of Object.entries(dbOf)) {
    const targets: RawFileLike[] = Object.entries(sizes).map(([label, bytes]) => ({
      path: `/memories/work/${who}-${label}.md`,
      content: makeText(bytes, bytes, true),
      createdAt: now,
      updatedAt: now,
    }));
    await raw.seedFiles(whose, targets, ['/memories/small', '/memories/work', '/memories/work/new'], now);
  }
  await raw.seedFiles(db, bulkFiles('/memories/small', 10, BULK_FILE_BYTES, now).map((f, i) => ({ ...f, path: `/memories/small/f${i}.md` })), [], now);

  // Request counts, library vs raw floor, one run each, after one uncounted write: from then on the tool
  // remembers the totals its last write left (its first write after opening reads them).
  const counts: Record<string, { lib: Counts; raw: Counts }> = {};
  const c1 = makeText(1024, 5);
  await tool.create({ command: 'create', path: '/memories/work/new/count-first.md', file_text: c1 });
  counts.create = { lib: await count(() => tool.create({ command: 'create', path: '/memories/work/new/count-lib.md', file_text: c1 })), raw: await count(() => raw.createFile(db, '/memories/work/new/count-raw.md', c1, now)) };
  counts.view = { lib: await count(() => tool.view({ command: 'view', path: '/memories/work/default-1kb.md' })), raw: await count(() => raw.viewFile(db, '/memories/work/raw-1kb.md')) };
  counts.str_replace = {
    lib: await count(() => tool.str_replace({ command: 'str_replace', path: '/memories/work/default-1kb.md', old_str: TOKEN_A, new_str: TOKEN_B })),
    raw: await count(() => raw.strReplace(db, '/memories/work/raw-1kb.md', TOKEN_A, TOKEN_B, now)),
  };
  // Back to TOKEN_A, uncounted, for the timed loops below.
  await tool.str_replace({ command: 'str_replace', path: '/memories/work/default-1kb.md', old_str: TOKEN_B, new_str: TOKEN_A });
  await raw.strReplace(db, '/memories/work/raw-1kb.md', TOKEN_B, TOKEN_A, now);
  counts.insert = { lib: await count(() => tool.insert({ command: 'insert', path: '/memories/work/default-1kb.md', insert_line: 1, insert_text: 'x' })), raw: await count(() => raw.insertLine(db, '/memories/work/raw-1kb.md', 'x', now)) };
  counts.delete = { lib: await count(() => tool.delete({ command: 'delete', path: '/memories/work/new/count-lib.md' })), raw: await count(() => raw.deleteFile(db, '/memories/work/new/count-raw.md', Date.now())) };
  counts['list small'] = { lib: await count(() => tool.view({ command: 'view', path: '/memories/small' })), raw: await count(() => raw.listFolder(db, '/memories/small')) };
  counts['list bulk'] = { lib: await count(() => tool.view({ command: 'view', path: bulk })), raw: await count(() => raw.listFolder(db, bulk)) };
  counts['rename bulk'] = {
    lib: await count(() => tool.rename({ command: 'rename', old_path: bulk, new_path: `${bulk}-x` })),
    raw: await count(() => raw.renameFolder(db, `${bulk}-x`, bulk)),
  };
  // Put the usage back where the raw rename left it; count a delete of a copy.
  await raw.seedFiles(db, bulkFiles('/memories/doomed', files, BULK_FILE_BYTES, now), bulkFolders('/memories/doomed', files), now);
  await raw.seedFiles(db, bulkFiles('/memories/doomed2', files, BULK_FILE_BYTES, now), bulkFolders('/memories/doomed2', files), now);
  counts['delete folder'] = { lib: await count(() => tool.delete({ command: 'delete', path: '/memories/doomed' })), raw: await count(() => raw.deleteFolder(db, '/memories/doomed2')) };
  const summarizeCounts = (c: Counts): string =>
    `${c.transactions.map((t) => `${t.mode}×${t.stores} stores`).join(', ')}; ${c.rounds} rounds; ` +
    Object.entries(c.requests).map(([k, v]) => `${k} ${v}`).join(', ');
  const countLines = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, { lib: summarizeCounts(v.lib), raw: summarizeCounts(v.raw) }]));
  console.log(JSON.stringify(countLines, null, 1));
  // The timings below run on the browser's own methods.
  uninstrument();

  // Timings: library variants next to the raw floor and raw replicas of the library's rounds.
  const timings: Record<string, Record<string, number>> = {};
  const kept = new BroadcastChannel(`idb-memory-tool:${name}`);
  for (const [label, bytes] of Object.entries(sizes)) {
    const reps: Reps = bytes > 100_000 ? { reps: 30, warmup: 3 } : { reps: 100, warmup: 5 };
    const content = makeText(bytes, 3);
    const target = (who: string): string => `/memories/work/${who}-${label}.md`;
    const newFile = (who: string, i: number): string => `/memories/work/new/${who}-${label}-${i}.md`;
    const libSides = (run: (t: IndexedDBMemoryTool, who: string, i: number) => Promise<unknown>): Record<string, Side> =>
      Object.fromEntries(Object.entries(variants).map(([who, t]) => [`lib ${who}`, { run: (i: number) => run(t, who, i) }]));
    timings[`create ${label}`] = await measureMany(reps, {
      ...libSides((t, who, i) => t.create({ command: 'create', path: newFile(who, i), file_text: content })),
      'raw floor': { run: (i) => raw.createFile(db, newFile('raw', i), content, Date.now()) },
      'raw floor, 3-store tx': { run: (i) => createAllStores(db, newFile('raw4', i), content, Date.now()) },
      "raw, the library's requests (5, 2 rounds)": { run: (i) => createLibPattern(libDb, newFile('rawLib', i), content, Date.now()) },
      'raw floor + a publish on a new channel (new, post, close)': {
        run: async (i) => {
          await raw.createFile(db, newFile('rawBc', i), content, Date.now());
          const channel = new BroadcastChannel(`idb-memory-tool:${name}`);
          channel.postMessage({ dbName: name, changes: [{ type: 'write', path: newFile('rawBc', i) }] });
          channel.close();
        },
      },
      'raw floor + a post on a kept channel': {
        run: async (i) => {
          await raw.createFile(db, newFile('rawKept', i), content, Date.now());
          kept.postMessage({ dbName: name, changes: [{ type: 'write', path: newFile('rawKept', i) }] });
        },
      },
    });
    timings[`delete ${label}`] = await measureMany(reps, {
      'lib default': { run: (i) => tool.delete({ command: 'delete', path: newFile('default', i) }) },
      'raw floor': { run: (i) => raw.deleteFile(db, newFile('raw', i), Date.now()) },
      "raw, the library's requests (3, 2 rounds)": { run: (i) => deleteLibPattern(libDb, newFile('rawLib', i), Date.now()) },
    });
    console.log(`delete ${label}`, JSON.stringify(timings[`delete ${label}`]));
    console.log(`create ${label}`, JSON.stringify(timings[`create ${label}`]));
    timings[`view ${label}`] = await measureMany(reps, {
      ...libSides((t, who) => t.view({ command: 'view', path: target(who) })),
      'raw floor (resolve at success)': { run: () => raw.viewFile(db, target('raw')) },
      'raw, resolve at complete': { run: () => viewAwaitComplete(db, target('raw')) },
    });
    console.log(`view ${label}`, JSON.stringify(timings[`view ${label}`]));
    timings[`str_replace ${label}`] = await measureMany(reps, {
      ...libSides((t, who, i) => {
        const [o, n] = swap(i);
        return t.str_replace({ command: 'str_replace', path: target(who), old_str: o, new_str: n });
      }),
      'raw floor (copy-on-write, 3 rounds)': { run: (i) => raw.strReplace(db, target('raw'), ...swap(i), Date.now()) },
      "raw, the library's requests (copy-on-write, 5, 3 rounds)": { run: (i) => editLibPattern(libDb, target('rawLib'), replaceOnce(...swap(i)), Date.now(), raw.rawBodyKey) },
    });
    console.log(`str_replace ${label}`, JSON.stringify(timings[`str_replace ${label}`]));
  }
  timings['list 10-file folder'] = await measureMany({ reps: 100, warmup: 10 }, {
    'lib default': { run: () => tool.view({ command: 'view', path: '/memories/small' }) },
    'raw floor (resolve at success)': { run: () => raw.listFolder(db, '/memories/small') },
    "raw, library's rounds (get folder, getAll; at complete)": { run: () => listLibRounds(db, '/memories/small') },
  });
  console.log('list 10-file folder', JSON.stringify(timings['list 10-file folder']));

  // Pure-JS steps, alone.
  const mb = makeText(1024 * 1024, 9);
  const kb = makeText(1024, 9);
  const bundle = await tool.exportBundle({ path: bulk });
  const bundleText = await bundle.text();
  const paths = bulkFiles(bulk, 10_000, 8, now).map((f) => f.path);
  const encoder = new TextEncoder();
  // Flat strings, as JSON.parse gives an import (makeText's are slices of a join).
  const hundredMb = JSON.parse(JSON.stringify(Array.from({ length: 100 }, (_, i) => makeText(1024 * 1024, i)))) as string[];
  const tenThousandKb = JSON.parse(JSON.stringify(Array.from({ length: 10_000 }, (_, i) => makeText(1024, i)))) as string[];
  const flatMb = JSON.parse(JSON.stringify(mb)) as string;
  const hashBatched = async (texts: string[], batch: number): Promise<void> => {
    for (let s = 0; s < texts.length; s += batch) {
      await Promise.all(texts.slice(s, s + batch).map((t) => crypto.subtle.digest('SHA-256', encoder.encode(t))));
    }
  };
  const insensitive = SECRET_PATTERNS.filter((p) => p.pattern.flags.includes('i'));
  const combined = new RegExp(SECRET_PATTERNS.filter((p) => !p.pattern.flags.includes('i')).map((p) => `(?:${p.pattern.source})`).join('|'), 'u');
  const scratch = new Uint8Array(3 * 1024 * 1024);
  // digest() copies its input when called, so one buffer serves every call of a batch.
  const hashScratch = async (texts: string[]): Promise<void> => {
    for (let s = 0; s < texts.length; s += 50) {
      await Promise.all(texts.slice(s, s + 50).map((t) => crypto.subtle.digest('SHA-256', scratch.subarray(0, encoder.encodeInto(t, scratch).written))));
    }
  };
  const channelName = `profile-${Date.now()}`;
  const open = new BroadcastChannel(channelName);
  const steps: Record<string, number> = {
    'findSecret, 1 MB (all 14 patterns)': timeSync(20, () => findSecret(flatMb)),
    'findSecret, 1 KB': timeSync(200, () => findSecret(kb)),
    ...Object.fromEntries(SECRET_PATTERNS.map((p) => [`  pattern "${p.name}", 1 MB`, timeSync(10, () => p.pattern.test(flatMb))])),
    'the 13 case-sensitive patterns as one alternation + the /i one, 1 MB': timeSync(20, () => {
      combined.test(flatMb);
      return insensitive.some((p) => p.pattern.test(flatMb));
    }),
    'the 14 literal needles as includes() (a prefilter), 1 MB': timeSync(20, () =>
      ['sk-ant-', 'sk-', 'PRIVATE KEY', 'AKIA', 'ASIA', 'ABIA', 'ACCA', 'AIza', 'private_key_id', 'ya29.', 'gh', 'glpat-', 'xox', '_live_', 'AccountKey=', 'hf_'].some((n) => flatMb.includes(n)),
    ),
    'utf8Length, 1 MB (the JS loop)': timeSync(20, () => utf8Length(flatMb)),
    'ASCII fast path: search(/[^\\0-\\x7f]/), 1 MB': timeSync(20, () => flatMb.search(/[^\0-\x7f]/)),
    'ASCII check /^[\\0-\\x7f]*$/, 1 MB': timeSync(20, () => /^[\0-\x7f]*$/u.test(flatMb)),
    'TextEncoder.encodeInto a scratch buffer, 1 MB': timeSync(20, () => encoder.encodeInto(flatMb, scratch).written),
    'split into lines, 1 MB': timeSync(20, () => flatMb.split('\n')),
    'normalizeMemoryPath ×10,000': timeSync(5, () => paths.forEach((p) => normalizeMemoryPath(p))),
    'parseMemoryCommand (create, 1 KB)': timeSync(200, () => parseMemoryCommand({ command: 'create', path: '/memories/work/a.md', file_text: kb })),
    'BroadcastChannel new + postMessage + close': timeSync(200, () => {
      const channel = new BroadcastChannel(channelName + 'x');
      channel.postMessage({ dbName: 'x', changes: [{ type: 'write', path: '/memories/a.md' }] });
      channel.close();
    }),
    'BroadcastChannel postMessage on a kept channel': timeSync(200, () => open.postMessage({ dbName: 'x', changes: [{ type: 'write', path: '/memories/a.md' }] })),
    [`JSON.parse of a ${files}-file bundle (${(bundleText.length / 1e6).toFixed(1)} MB)`]: timeSync(10, () => JSON.parse(bundleText)),
    [`Blob → text, ${files}-file bundle`]: await timeAsync(10, async () => new TextDecoder('utf-8', { fatal: true }).decode(await bundle.arrayBuffer())),
    'SHA-256 of 10,000 × 1 KB, batches of 50 (today)': await timeAsync(3, () => hashBatched(tenThousandKb, 50)),
    'SHA-256 of 10,000 × 1 KB, batches of 1,000': await timeAsync(3, () => hashBatched(tenThousandKb, 1000)),
    'TextEncoder.encode of 10,000 × 1 KB': timeSync(3, () => tenThousandKb.forEach((t) => encoder.encode(t))),
    'SHA-256 of 100 × 1 MB, batches of 50 (today)': await timeAsync(3, () => hashBatched(hundredMb, 50)),
    'SHA-256 of 100 × 1 MB, encodeInto one scratch buffer': await timeAsync(3, () => hashScratch(hundredMb)),
    'SHA-256 of 10,000 × 1 KB, encodeInto one scratch buffer': await timeAsync(3, () => hashScratch(tenThousandKb)),
    'TextEncoder.encode of 100 × 1 MB': timeSync(3, () => hundredMb.forEach((t) => encoder.encode(t))),
    'utf8Length of 100 × 1 MB': timeSync(3, () => hundredMb.forEach((t) => utf8Length(t))),
  };
  open.close();
  console.log(JSON.stringify(steps, null, 1));

  kept.close();
  for (const memoryOfItsOwn of Object.values(own)) await memoryOfItsOwn.close();
  await memory.close();
  return { files, counts: countLines, timings, steps };
}

interface RawFileLike {
  path: string;
  content: string;
  createdAt: number;
  updatedAt: number;
}

export type HotCommand = 'create' | 'create-raw' | 'str_replace' | 'view' | 'create-1mb' | 'str_replace-1mb';

/**
 * `count` library runs of one command on a fresh memory of 1 KB files, for run.ts to sample with the CPU
 * profiler: how much of a command's time is JavaScript at all, and whose.
 */
export async function hotLoop(command: HotCommand, count: number): Promise<number> {
  const memory = await openMemory(`hot-${command}-${Date.now()}`);
  const { tool, db } = memory;
  const now = Date.now();
  const text = makeText(command.endsWith('1mb') ? 1024 * 1024 - 4096 : 1024, 11, true);
  await raw.seedFiles(db, [{ path: '/memories/work/t.md', content: text, createdAt: now, updatedAt: now }], ['/memories/work', '/memories/work/new'], now);
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    if (command === 'create-raw') await raw.createFile(db, `/memories/work/new/f${i}.md`, text, Date.now());
    else if (command.startsWith('create')) await tool.create({ command: 'create', path: `/memories/work/new/f${i}.md`, file_text: text });
    else if (command === 'view') await tool.view({ command: 'view', path: '/memories/work/t.md' });
    else await tool.str_replace({ command: 'str_replace', path: '/memories/work/t.md', old_str: swap(i)[0], new_str: swap(i)[1] });
  }
  const took = (performance.now() - start) / count;
  await memory.close();
  return took;
}
