// What a pass brings here reaches every tab: one journaled change by the actor `sync`, announced as any change is,
// so a second tool on the same database (another tab) hears the files a first tool's sync pulled, moved and deleted;
// and a pulled text is checked by its size before anything reads it.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool, MemoryChange } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { body, fake } from '../guards/fake-secrets.js';

const open = toolsClosedAfterEach('local-apply');

/** Every change `tool` hears from elsewhere (another tab, another tool on its database). */
function heardFromElsewhere(tool: IndexedDBMemoryTool): MemoryChange[] {
  const heard: MemoryChange[] = [];
  tool.subscribe((event) => {
    if (event.source === 'remote') heard.push(...event.changes);
  });
  return heard;
}

describe("a pass's changes here", () => {
  it('reach another tab: the files pulled, renamed and deleted, journaled by sync', async () => {
    const remote = new MemoryRemote();
    await remote.put('/notes.md', 'notes');
    await remote.put('/plans/a.md', 'plan a');
    await remote.put('/old.md', 'old');
    const syncing = await open();
    const other = await open({ dbName: syncing.dbName });
    const heard = heardFromElsewhere(other);
    const sync = createMemorySync(syncing, { remote: remote.handle(), interval: null });

    const pulled = await sync.syncNow();
    expect(pulled.pulled.sort()).toEqual(['/memories/notes.md', '/memories/old.md', '/memories/plans/a.md']);
    // The folder the pull made is announced too, as an import's are.
    await expect.poll(() => heard.length).toBe(4);
    expect([...heard].sort((x, y) => (x.path < y.path ? -1 : 1))).toEqual([
      { type: 'write', path: '/memories/notes.md' },
      { type: 'write', path: '/memories/old.md' },
      { type: 'write', path: '/memories/plans' },
      { type: 'write', path: '/memories/plans/a.md' },
    ]);
    // The other tab reads what it heard of, and its history names the sync.
    expect(await other.read('/memories/plans/a.md')).toBe('plan a');
    expect((await other.history({ limit: 1 }))[0]).toMatchObject({ actor: 'sync', command: 'sync' });

    // There: one file renamed (same id), one deleted, one edited.
    const moved = remote.files.get('/notes.md');
    if (!moved) throw new Error('the remote lost /notes.md');
    remote.files.delete('/notes.md');
    remote.files.set('/renamed.md', { ...moved, version: 'moved' });
    remote.files.delete('/old.md');
    await remote.put('/plans/a.md', 'plan a, edited', remote.files.get('/plans/a.md')?.id);
    heard.length = 0;
    await sync.syncNow();
    await expect.poll(() => heard.length).toBe(3);
    expect(heard).toEqual(
      expect.arrayContaining([
        { type: 'rename', path: '/memories/renamed.md', from: '/memories/notes.md' },
        { type: 'delete', path: '/memories/old.md' },
        { type: 'write', path: '/memories/plans/a.md' },
      ]),
    );
    expect(await other.read('/memories/plans/a.md')).toBe('plan a, edited');
    expect((await other.history({ limit: 1 }))[0]).toMatchObject({ actor: 'sync' });
    sync.close();
  });
});

describe('a pulled text', () => {
  it('over this memory’s file limit is refused by its size, before any scan reads it', async () => {
    const remote = new MemoryRemote();
    // A key-like run the secret scan would refuse, in a text too big to take: the size speaks first.
    await remote.put('/big.md', `${fake('sk-ant-api03-', body(40))}\n${'x'.repeat(2_000)}`);
    // Listed small, so the pass reads it: the text itself is measured.
    remote.listedSize.set('/big.md', 100);
    const tool = await open({ limits: { maxFileBytes: 1_000 } });
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    const report = await sync.syncNow();
    expect(report.skipped).toEqual([
      { path: '/memories/big.md', reason: expect.stringContaining("over this memory's limit of 1000"), refusedBy: 'local' },
    ]);
    sync.close();
  });
});
