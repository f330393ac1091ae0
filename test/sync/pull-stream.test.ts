// A big pull streams: texts are written here in batches as they arrive, never all held at once; one cut short leaves
// whole files with their baseline and the next pass brings the rest, once each; a pass with nothing changed lists once.

import { openDB } from 'idb';
import type { IDBPDatabase } from 'idb';
import { describe, expect, it } from 'vitest';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import { STREAM_BATCH } from '../../src/sync/pull-stream.js';
import { SyncRemoteError } from '../../src/sync/remote.js';
import type { SyncRemote } from '../../src/sync/remote.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { memoryFiles } from '../helpers/sync-storm.js';

const open = toolsClosedAfterEach('pull-stream');
const FILES = 1000;
const CONCURRENCY = 2;
const pathOf = (i: number): string => `/d${String(Math.floor(i / 100)).padStart(2, '0')}/f${String(i).padStart(4, '0')}.md`;

async function seeded(options: { readMany?: boolean } = {}): Promise<MemoryRemote> {
  const remote = new MemoryRemote({ concurrency: CONCURRENCY, readMany: options.readMany ?? false });
  for (let i = 0; i < FILES; i++) await remote.put(pathOf(i), `file ${i}\n`);
  return remote;
}

/** How many files of the mount IndexedDB holds now, read on a connection of the test's own. */
async function filesStored(db: IDBPDatabase): Promise<number> {
  const keys = await db.getAllKeys('entries', IDBKeyRange.bound('/memories/', '/memories0', false, true));
  // Files are named `f….md`; the folders above them are not counted.
  return keys.filter((key) => String(key).endsWith('.md')).length;
}

/** The remote, noting at each text it hands out how many it has handed out and how many files are stored here. */
function counting(inner: SyncRemote, db: IDBPDatabase, gaps: number[]): SyncRemote {
  let handedOut = 0;
  const note = async (n: number): Promise<void> => {
    handedOut += n;
    gaps.push(handedOut - (await filesStored(db)));
  };
  const read: SyncRemote['read'] = async (file, options) => {
    const got = await inner.read(file, options);
    await note(1);
    return got;
  };
  const readMany = inner.readMany;
  return {
    ...inner,
    read,
    ...(readMany
      ? {
          readMany: async (files, options) => {
            const got = await readMany.call(inner, files, options);
            await note(got.size);
            return got;
          },
        }
      : {}),
  };
}

describe.each([
  ['one read a file', false],
  ['readMany', true],
])(`a first pull of ${FILES} files (%s)`, (_, readMany) => {
  it('never holds more than the remote’s concurrency × a batch of texts not yet written', async () => {
    const remote = await seeded({ readMany });
    const tool = await open();
    const gaps: number[] = [];
    const db = await openDB(tool.dbName);
    const sync = createMemorySync(tool, { remote: counting(remote.handle(), db, gaps), interval: null });
    const report = await sync.syncNow().finally(() => db.close());
    expect(report.pulled).toHaveLength(FILES);
    expect(gaps.length).toBeGreaterThan(0);
    // Without streaming every text is read before the first is written: the gap reaches all 1,000.
    expect(Math.max(...gaps)).toBeLessThanOrEqual(CONCURRENCY * STREAM_BATCH.files);
    expect(await memoryFiles(tool)).toEqual(remote.snapshot());
  });
});

describe('a first pull cut short', () => {
  it.each([
    ['by a remote failure', 'server'],
    ['by the page closing', 'aborted'],
  ] as const)('%s leaves whole files with their baseline, and the next pass brings the rest once each', async (_, kind) => {
    const remote = await seeded();
    const tool = await open();
    const inner = remote.handle();
    let reads = 0;
    const failing: SyncRemote = {
      ...inner,
      read: async (file, options) => {
        if (++reads > FILES / 2) throw new SyncRemoteError(kind, 'cut short');
        return inner.read(file, options);
      },
    };
    const first = createMemorySync(tool, { remote: failing, interval: null });
    await expect(first.syncNow()).rejects.toMatchObject({ kind });
    first.close();
    const kept = await memoryFiles(tool);
    const count = Object.keys(kept).length;
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(FILES);
    // Every file here is whole: the remote's text exactly.
    for (const [path, text] of Object.entries(kept)) expect(text).toBe(remote.text(path));

    // A new page on the same memory resumes: it reads only what is missing, and lands nothing twice.
    const again = await open({ dbName: tool.dbName });
    remote.log.length = 0;
    const sync = createMemorySync(again, { remote: remote.handle(), interval: null });
    const report = await sync.syncNow();
    expect(report).toMatchObject({ pushed: [], deleted: [], conflicts: [], skipped: [] });
    expect(report.pulled).toHaveLength(FILES - count);
    expect(remote.count('read')).toBe(FILES - count);
    expect(await memoryFiles(again)).toEqual(remote.snapshot());
    // Nothing written here went back there.
    expect(remote.count('write')).toBe(0);
    remote.log.length = 0;
    expect(await sync.syncNow()).toMatchObject({ pulled: [], pushed: [], deleted: [], conflicts: [] });
    expect(remote.log).toEqual(['list']);
  });
});

describe('a pass with nothing changed at scale', () => {
  it('costs one listing and no other request', async () => {
    const remote = await seeded({ readMany: true });
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await sync.syncNow();
    for (let pass = 0; pass < 2; pass++) {
      remote.log.length = 0;
      expect(await sync.syncNow()).toMatchObject({ pulled: [], pushed: [], deleted: [], conflicts: [], skipped: [] });
      expect(remote.log).toEqual(['list']);
    }
  });
});
