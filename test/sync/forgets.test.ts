// Forgetting under sync, against a remote held in memory: a forget travels as a forget (every device erases the path
// and its history), removes the file there whatever its version, takes its conflict copies along, leaves no hash or
// byte of the text in any store, and no pass under way sends the text after `forget()` resolved.

import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { sha256All } from '../../src/bundle/sha256.js';
import { originalOf } from '../../src/sync/conflict-names.js';
import { CONTROL_PATH } from '../../src/sync/forget-control.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { SyncRemoteError } from '../../src/sync/remote.js';
import type { SyncRemote } from '../../src/sync/remote.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';

const open = toolsClosedAfterEach('forgets');
const SECRET = 'the vault code is QX7-zebra-lantern-4417\n';
const OTHER_SECRET = 'and the spare is QX7-otter-harbour-9020\n';

interface Device {
  tool: IndexedDBMemoryTool;
  sync: MemorySync;
}

async function device(remote: SyncRemote): Promise<Device> {
  const tool = await open();
  return { tool, sync: createMemorySync(tool, { remote, interval: null }) };
}

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

async function files(tool: IndexedDBMemoryTool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await tool.list('/memories')) {
    if (entry.kind === 'file') out[entry.path] = await tool.read(entry.path);
  }
  return out;
}

/** Every key and record of every store of the device's database, read directly. */
async function dump(tool: IndexedDBMemoryTool): Promise<string> {
  const db = await openDB(tool.dbName);
  try {
    const names = [...db.objectStoreNames];
    const tx = db.transaction(names, 'readonly');
    const stores = await Promise.all(
      names.map(async (name) => [name, await tx.objectStore(name).getAllKeys(), await tx.objectStore(name).getAll()]),
    );
    return JSON.stringify(stores);
  } finally {
    db.close();
  }
}

/** What of `texts` (the text itself, a line of it, its SHA-256) the dump holds. */
async function traces(dumped: string, texts: readonly string[]): Promise<string[]> {
  const hashes = await sha256All(texts, () => undefined);
  const marks = [...texts, ...texts.map((text) => text.trim()), ...hashes.flatMap((hash) => (hash ? [hash] : []))];
  return marks.filter((mark) => dumped.includes(mark));
}

/** What a person does to get a deleted file back: undo the latest change (today, the sync's delete of it). */
async function undoLatest(tool: IndexedDBMemoryTool): Promise<void> {
  await tool.undo().catch(() => undefined);
}

async function syncAll(devices: readonly Device[], rounds = 2): Promise<void> {
  for (let round = 0; round < rounds; round++) for (const one of devices) await one.sync.syncNow();
}

describe('forget under sync', () => {
  it('travels as a forget: gone on the remote and on every device, and no undo there brings it back', async () => {
    const remote = new MemoryRemote();
    const [a, b, c] = await Promise.all([device(remote.handle()), device(remote.handle()), device(remote.handle())]);
    if (!a || !b || !c) throw new Error('three devices');
    await create(a.tool, '/memories/private/vault.md', SECRET);
    await create(a.tool, '/memories/notes.md', 'plain notes\n');
    await syncAll([a, b, c], 1);
    expect(await files(c.tool)).toHaveProperty(['/memories/private/vault.md'], SECRET);

    const report = await a.tool.forget('/memories/private/vault.md');
    expect(report.deleted).toEqual(['/memories/private/vault.md']);
    await syncAll([a, b, c]);
    for (const one of [b, c]) await undoLatest(one.tool);
    await syncAll([a, b, c]);

    for (const one of [a, b, c]) {
      expect(await files(one.tool)).toEqual({ '/memories/notes.md': 'plain notes\n' });
      expect(await traces(await dump(one.tool), [SECRET])).toEqual([]);
    }
    expect(Object.keys(remote.snapshot())).toEqual([CONTROL_PATH, '/notes.md']);
    // The record of forgets names neither the path nor the text.
    const record = remote.text(CONTROL_PATH) ?? '';
    expect(await traces(record, [SECRET, '/private/vault.md'])).toEqual([]);
    expect(record).not.toContain('vault');
  });

  it('keeps no hash or byte of the text in the sync state once forget() resolves, before any pass', async () => {
    const remote = new MemoryRemote();
    const a = await device(remote.handle());
    await create(a.tool, '/memories/vault.md', SECRET);
    await a.sync.syncNow();
    await a.tool.forget('/memories/vault.md');
    expect(await traces(await dump(a.tool), [SECRET])).toEqual([]);
  });

  it('removes the file there although another device changed it since this one last synced', async () => {
    const remote = new MemoryRemote();
    const [a, b] = await Promise.all([device(remote.handle()), device(remote.handle())]);
    if (!a || !b) throw new Error('two devices');
    await create(a.tool, '/memories/vault.md', SECRET);
    await syncAll([a, b], 1);
    await b.tool.str_replace({ command: 'str_replace', path: '/memories/vault.md', old_str: SECRET, new_str: OTHER_SECRET });
    await b.sync.syncNow();

    await a.tool.forget('/memories/vault.md');
    await syncAll([a, b]);
    expect(remote.snapshot()).not.toHaveProperty(['/vault.md']);
    for (const one of [a, b]) {
      expect(await files(one.tool)).toEqual({});
      expect(await traces(await dump(one.tool), [SECRET, OTHER_SECRET])).toEqual([]);
    }
  });

  it('forgets the conflict copies of the path with it, here, there and on the other devices', async () => {
    const remote = new MemoryRemote();
    const [a, b] = await Promise.all([device(remote.handle()), device(remote.handle())]);
    if (!a || !b) throw new Error('two devices');
    await create(a.tool, '/memories/vault.md', 'first\n');
    await syncAll([a, b], 1);
    await a.tool.str_replace({ command: 'str_replace', path: '/memories/vault.md', old_str: 'first\n', new_str: SECRET });
    await b.tool.str_replace({ command: 'str_replace', path: '/memories/vault.md', old_str: 'first\n', new_str: OTHER_SECRET });
    await b.sync.syncNow();
    expect((await a.sync.syncNow()).conflicts).toEqual(['/memories/vault.md']);
    await syncAll([a, b], 1);
    const copies = Object.keys(await files(b.tool)).filter((path) => originalOf(path) === '/memories/vault.md');
    expect(copies).toHaveLength(1);

    const report = await a.tool.forget('/memories/vault.md');
    expect(report.deleted.sort()).toEqual(['/memories/vault.md', ...copies].sort());
    await syncAll([a, b]);
    for (const one of [a, b]) await undoLatest(one.tool);
    await syncAll([a, b]);
    expect(Object.keys(remote.snapshot())).toEqual([CONTROL_PATH]);
    for (const one of [a, b]) {
      expect(await files(one.tool)).toEqual({});
      expect(await traces(await dump(one.tool), [SECRET, OTHER_SECRET, 'first\n'])).toEqual([]);
    }
  });

  it('lets a pass under way send none of it once forget() has resolved', async () => {
    const remote = new MemoryRemote({ concurrency: 1 });
    const held = gatedWrites(remote.handle());
    const a = await device(held.remote);
    await create(a.tool, '/memories/a.md', 'first file\n');
    await create(a.tool, '/memories/b.md', SECRET);
    const pass = a.sync.syncNow();
    await held.entered; // the push of a.md is sent and held; b.md waits its turn with its text read
    await a.tool.forget('/memories/b.md');
    const sentAfter = held.sent.length;
    held.release();
    await pass;
    await a.sync.syncNow();
    expect(held.sent.slice(sentAfter)).not.toContain('/b.md');
    expect(Object.keys(remote.snapshot())).toEqual([CONTROL_PATH, '/a.md']);
    expect(await traces(await dump(a.tool), [SECRET])).toEqual([]);
  });

  it('resolves forget() only once a push of the path already sent has landed, and the next pass removes it', async () => {
    const remote = new MemoryRemote();
    const held = gatedWrites(remote.handle());
    const a = await device(held.remote);
    await create(a.tool, '/memories/a.md', SECRET);
    const pass = a.sync.syncNow();
    await held.entered;
    const order: string[] = [];
    const committed = new Promise<void>((resolve) => {
      const stop = a.tool.subscribe((event) => {
        if (event.changes.some((change) => change.type === 'forget')) {
          stop();
          resolve();
        }
      });
    });
    const forgetting = a.tool.forget('/memories/a.md').then(() => order.push('forget resolved'));
    await committed;
    held.release(() => order.push('push landed'));
    await Promise.all([forgetting, pass]);
    expect(order).toEqual(['push landed', 'forget resolved']);
    await a.sync.syncNow();
    expect(Object.keys(remote.snapshot())).toEqual([CONTROL_PATH]);
    expect(await traces(await dump(a.tool), [SECRET])).toEqual([]);
  });

  it('brings nothing of it here from a pass that read it there before forget() resolved', async () => {
    const remote = new MemoryRemote();
    const [a, b] = await Promise.all([device(remote.handle()), device(remote.handle())]);
    if (!a || !b) throw new Error('two devices');
    await create(a.tool, '/memories/vault.md', 'first\n');
    await syncAll([a, b], 1);
    // Deleted on A, edited on B: A's next pass pulls B's edit back (the edit wins), and it is read before the forget.
    await a.tool.delete({ command: 'delete', path: '/memories/vault.md' });
    await b.tool.str_replace({ command: 'str_replace', path: '/memories/vault.md', old_str: 'first\n', new_str: SECRET });
    await b.sync.syncNow();
    const held = gatedReads(remote.handle());
    a.sync.close(); // the same remote from here on, its reads held
    const late = createMemorySync(a.tool, { remote: held.remote, interval: null });
    const pass = late.syncNow();
    await held.entered;
    await a.tool.forget('/memories/vault.md');
    held.release();
    await pass;
    await late.syncNow();
    expect(await files(a.tool)).toEqual({});
    expect(Object.keys(remote.snapshot())).toEqual([CONTROL_PATH]);
    expect(await traces(await dump(a.tool), [SECRET])).toEqual([]);
  });
});

describe('after a forget', () => {
  it('takes a file made again at the path for a new file: synced, and not forgotten by a later forget elsewhere', async () => {
    const remote = new MemoryRemote();
    const [a, b] = await Promise.all([device(remote.handle()), device(remote.handle())]);
    if (!a || !b) throw new Error('two devices');
    await create(a.tool, '/memories/vault.md', SECRET);
    await create(a.tool, '/memories/other.md', 'other\n');
    await syncAll([a, b], 1);
    await a.tool.forget('/memories/vault.md');
    await syncAll([a, b], 1);
    await create(a.tool, '/memories/vault.md', 'a new file\n');
    await syncAll([a, b], 1);
    expect(await files(b.tool)).toEqual({ '/memories/other.md': 'other\n', '/memories/vault.md': 'a new file\n' });
    await a.tool.forget('/memories/other.md');
    await syncAll([a, b]);
    for (const one of [a, b]) {
      expect(await files(one.tool)).toEqual({ '/memories/vault.md': 'a new file\n' });
      expect(await traces(await dump(one.tool), [SECRET, 'other\n'])).toEqual([]);
    }
  });

  it('removes the folders a forgotten folder leaves empty there, where the remote keeps folders', async () => {
    const remote = new MemoryRemote({ ids: false });
    const removed: string[] = [];
    const handle: SyncRemote = { ...remote.handle(), removeEmptyFolder: async (path) => void removed.push(path) };
    const a = await device(handle);
    await create(a.tool, '/memories/private/a.md', SECRET);
    await create(a.tool, '/memories/private/deep/b.md', OTHER_SECRET);
    await create(a.tool, '/memories/kept.md', 'kept\n');
    await a.sync.syncNow();
    await a.tool.forget('/memories/private');
    await a.sync.syncNow();
    expect(Object.keys(remote.snapshot())).toEqual([CONTROL_PATH, '/kept.md']);
    expect(removed).toEqual(['/private/deep', '/private']);
  });

  it('redacts the deleted file\'s versions where the remote can, and owes a redaction that failed to the next pass', async () => {
    const remote = new MemoryRemote();
    const redacted: string[] = [];
    let fail = true;
    const handle: SyncRemote = {
      ...remote.handle(),
      redact: async (file) => {
        if (fail) {
          fail = false;
          throw new SyncRemoteError('server', 'redaction failed');
        }
        redacted.push(file.id ?? '');
      },
    };
    const a = await device(handle);
    await create(a.tool, '/memories/vault.md', SECRET);
    await a.sync.syncNow();
    const id = remote.files.get('/vault.md')?.id;
    await a.tool.forget('/memories/vault.md');
    await a.sync.syncNow();
    expect(remote.text('/vault.md')).toBeUndefined();
    expect(redacted).toEqual([]);
    // Owed, the mark covers nothing: a new file at the path is pushed as any other.
    await create(a.tool, '/memories/vault.md', 'a new file\n');
    await a.sync.syncNow();
    expect(redacted).toEqual([id]);
    expect(remote.text('/vault.md')).toBe('a new file\n');
    await a.sync.syncNow();
    expect(redacted).toEqual([id]);
    expect(await traces(await dump(a.tool), [SECRET])).toEqual([]);
  });
});

/** The remote with its first read held until `release()`: `entered` once it is. */
function gatedReads(inner: SyncRemote): { remote: SyncRemote; entered: Promise<void>; release: () => void } {
  let enter = (): void => undefined;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  let open = (): void => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let first = true;
  const remote: SyncRemote = {
    ...inner,
    read: async (file, options) => {
      if (first) {
        first = false;
        enter();
        await gate;
      }
      return inner.read(file, options);
    },
  };
  return { remote, entered, release: () => open() };
}

/** The remote with its first write held until `release()`: `entered` once it is; `sent` lists every write's path. */
function gatedWrites(inner: SyncRemote): {
  remote: SyncRemote;
  entered: Promise<void>;
  sent: string[];
  release: (landed?: () => void) => void;
} {
  let enter = (): void => undefined;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  let open = (_landed?: () => void): void => undefined;
  const gate = new Promise<(() => void) | undefined>((resolve) => (open = resolve));
  const sent: string[] = [];
  let first = true;
  const remote: SyncRemote = {
    ...inner,
    id: inner.id,
    kind: inner.kind,
    limits: inner.limits,
    concurrency: inner.concurrency,
    list: (options) => inner.list(options),
    read: (file, options) => inner.read(file, options),
    delete: (expected, options) => inner.delete(expected, options),
    write: async (path, text, expected, options) => {
      sent.push(path);
      if (!first) return inner.write(path, text, expected, options);
      first = false;
      enter();
      const landed = await gate;
      const written = await inner.write(path, text, expected, options);
      landed?.();
      return written;
    },
  };
  return { remote, entered, sent, release: (landed) => open(landed) };
}
