// The live tree over a real tool, counting its reads: 100 writes one by one make one listing and at most 100 small
// reads, and a seeded series of writes, renames and deletes here and from another tool on the database (as another
// tab's) leaves it equal to a fresh list(). Replay a failure: TREE_SEEDS=<seed> in Node, as the failure says.

import { describe, expect, it, onTestFinished } from 'vitest';
import type { IndexedDBMemoryTool, MemoryEntry, MemoryTreeSource, MemoryTreeStore } from '../../src/index.js';
import { createMemoryTreeStore } from '../../src/index.js';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { seededRandom } from '../helpers/seeded-random.js';

const fresh = freshToolEach('react-tree-reads');
const SEEDS = (globalThis.process?.env['TREE_SEEDS'] ?? '1,2,3').split(',').map(Number);

/** The tool's reads as the store makes them, counted: listings of the folder shown, other listings, single entries. */
function counted(tool: IndexedDBMemoryTool, root: string): MemoryTreeSource & { rootLists: number; small: number } {
  const source = {
    rootLists: 0,
    small: 0,
    subscribe: (listener: Parameters<MemoryTreeSource['subscribe']>[0]) => tool.subscribe(listener),
    list: (path?: string) => {
      if (path === undefined || path === root) source.rootLists++;
      else source.small++;
      return tool.list(path);
    },
    stat: (path: string) => {
      source.small++;
      return tool.stat(path);
    },
  };
  return source;
}

function following(store: MemoryTreeStore): MemoryTreeStore {
  const stop = store.subscribe(() => undefined);
  onTestFinished(stop);
  return store;
}

/** Waits until the store shows what a fresh list() of its folder gives (or the folder's absence). */
async function settled(store: MemoryTreeStore, tool: IndexedDBMemoryTool, path: string, context: string): Promise<void> {
  const listed = async (): Promise<MemoryEntry[] | 'missing'> => tool.list(path).catch(() => 'missing' as const);
  const shown = (): MemoryEntry[] | 'missing' =>
    store.getSnapshot().status === 'missing' ? 'missing' : [...store.getSnapshot().entries];
  await expect
    .poll(async () => JSON.stringify(shown()) === JSON.stringify(await listed()), { message: context, timeout: 20_000 })
    .toBe(true);
  expect(shown(), context).toEqual(await listed());
  expect(store.getSnapshot().status, context).not.toBe('error');
}

describe('createMemoryTreeStore reads only what changed', () => {
  it('lists the memory once and makes at most 100 small reads for 100 writes one by one', async () => {
    await fresh.create('/memories/notes/old.md', 'old');
    const source = counted(fresh.tool, '/memories');
    const store = following(createMemoryTreeStore(source));
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    for (let i = 0; i < 100; i++) {
      const folder = i % 2 === 0 ? '/memories' : '/memories/notes';
      await fresh.create(`${folder}/f${String(i).padStart(3, '0')}.md`, `${i}`);
    }
    await settled(store, fresh.tool, '/memories', 'after 100 writes');
    expect(store.getSnapshot().entries).toHaveLength(102);
    expect(source.rootLists).toBe(1);
    expect(source.small).toBeGreaterThan(0);
    expect(source.small).toBeLessThanOrEqual(100);
  });

  it('reads one entry for an edit of one file in a large tree, not the tree', async () => {
    for (let i = 0; i < 20; i++) await fresh.create(`/memories/f${i}.md`, `${i}`);
    const source = counted(fresh.tool, '/memories');
    const store = following(createMemoryTreeStore(source));
    await expect.poll(() => store.getSnapshot().status).toBe('ready');
    await fresh.ok({ command: 'str_replace', path: '/memories/f7.md', old_str: '7', new_str: 'seven' });
    await settled(store, fresh.tool, '/memories', 'after the edit');
    expect(store.getSnapshot().entries.find((entry) => entry.path === '/memories/f7.md')?.size).toBe(5);
    expect(source.rootLists).toBe(1);
    expect(source.small).toBe(1);
  });

  for (const seed of SEEDS) {
    it(`stays equal to list() through a seeded series of writes, renames and deletes here and in another tab (seed ${seed})`, async () => {
      const other = await fresh.another();
      const random = seededRandom(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
      const folders = ['/memories', '/memories/a', '/memories/a/b', '/memories/c', '/memories/.hid'];
      const names = ['x.md', 'y.md', 'z.md'];
      for (const root of ['/memories', '/memories/a']) {
        const source = counted(fresh.tool, root);
        const store = following(createMemoryTreeStore(source, { path: root }));
        await expect.poll(() => store.getSnapshot().status).not.toBe('loading');
        for (let step = 0; step < 60; step++) {
          const tool = random() < 0.5 ? fresh.tool : other;
          const existing = (await fresh.tool.list()).map((entry) => entry.path);
          const roll = random();
          if (roll < 0.55 || existing.length === 0) {
            await tool.run({ command: 'create', path: `${pick(folders)}/${pick(names)}`, file_text: `${seed}:${step}` });
          } else if (roll < 0.8) {
            await tool.run({ command: 'rename', old_path: pick(existing), new_path: `${pick(folders)}/${pick(names)}` });
          } else {
            await tool.run({ command: 'delete', path: pick(existing) });
          }
          if (step % 15 === 14) await settled(store, fresh.tool, root, `seed ${seed}, folder ${root}, step ${step}`);
        }
        await settled(store, fresh.tool, root, `seed ${seed}, folder ${root}, the end`);
        // Partial reads did the work: the folder was listed whole only at the start and when it itself came or went.
        expect(source.small, `seed ${seed}, folder ${root}`).toBeGreaterThan(0);
      }
    });
  }
});

describe('tool.stat, the one-entry read the live tree uses', () => {
  it('answers the entry as list() of the whole memory does, and not_found where nothing is', async () => {
    await fresh.create('/memories/.cache/notes/a.md', 'héllo');
    const listed = await fresh.tool.list();
    for (const entry of listed) expect(await fresh.tool.stat(entry.path)).toEqual(entry);
    expect(await fresh.tool.stat('/memories//.cache/notes/a.md/')).toMatchObject({ size: 6, hidden: true, kind: 'file' });
    await expect(fresh.tool.stat('/memories/none.md')).rejects.toMatchObject({ code: 'not_found' });
    await expect(fresh.tool.stat('/memories/../etc')).rejects.toMatchObject({ code: 'invalid_path' });
  });
});
