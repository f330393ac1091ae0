// The sync engine against a remote held in memory: the three-way merge, conflicts, deletes and their guard, renames,
// refusals, mounts and the journal, in every engine's IndexedDB.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { SyncRemoteError } from '../../src/sync/remote.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { body, fake } from '../guards/fake-secrets.js';

const open = toolsClosedAfterEach('sync');

async function files(tool: IndexedDBMemoryTool, folder = '/memories'): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await tool.list(folder)) {
    if (entry.kind === 'file') out[entry.path.slice(folder.length)] = await tool.read(entry.path);
  }
  return out;
}

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

async function device(remote: MemoryRemote, options: { mount?: string } = {}): Promise<{ tool: IndexedDBMemoryTool; sync: MemorySync }> {
  const tool = await open();
  const sync = createMemorySync(tool, { remote: remote.handle(), interval: null, ...options });
  return { tool, sync };
}

describe('a first pass', () => {
  it('pulls a remote into a new memory as one change by sync, which undo reverses', async () => {
    const remote = new MemoryRemote();
    await remote.put('/notes.md', 'one\n');
    await remote.put('/projects/a.md', 'two\n');
    const { tool, sync } = await device(remote);
    const report = await sync.syncNow();
    expect(report.pulled.sort()).toEqual(['/memories/notes.md', '/memories/projects/a.md']);
    expect(await files(tool)).toEqual({ '/notes.md': 'one\n', '/projects/a.md': 'two\n' });
    const [change] = await tool.history();
    expect(change).toMatchObject({ actor: 'sync', command: 'sync', undoable: true });
    await tool.undo(change?.id);
    expect(await files(tool)).toEqual({});
  });

  it('pushes a memory into an empty remote, and a second pass with nothing changed only lists', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/a.md', 'alpha');
    await create(tool, '/memories/deep/b.md', 'beta');
    expect((await sync.syncNow()).pushed.sort()).toEqual(['/memories/a.md', '/memories/deep/b.md']);
    expect(remote.snapshot()).toEqual({ '/a.md': 'alpha', '/deep/b.md': 'beta' });
    remote.log.length = 0;
    const again = await sync.syncNow();
    expect(again).toMatchObject({ pulled: [], pushed: [], deleted: [], conflicts: [], skipped: [] });
    expect(remote.log).toEqual(['list']);
  });

  it('keeps files both sides hold with the same text without reading or writing them', async () => {
    const remote = new MemoryRemote();
    await remote.put('/same.md', 'same');
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/same.md', 'same');
    remote.log.length = 0;
    const report = await sync.syncNow();
    expect(report).toMatchObject({ pulled: [], pushed: [], conflicts: [] });
    expect(remote.log).toEqual(['list']);
  });

  it('with no baseline, deletes nothing on either side', async () => {
    const remote = new MemoryRemote();
    await remote.put('/there.md', 'there');
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/here.md', 'here');
    const report = await sync.syncNow();
    expect(report.deleted).toEqual([]);
    expect(remote.snapshot()).toEqual({ '/here.md': 'here', '/there.md': 'there' });
    expect(await files(tool)).toEqual({ '/here.md': 'here', '/there.md': 'there' });
  });
});

describe('changes on one side', () => {
  it('carries an edit here to the remote over the version last seen, and an edit there here', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/a.md', 'one');
    await sync.syncNow();
    await tool.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
    expect((await sync.syncNow()).pushed).toEqual(['/memories/a.md']);
    expect(remote.text('/a.md')).toBe('two');
    await remote.put('/a.md', 'three', remote.files.get('/a.md')?.id);
    expect((await sync.syncNow()).pulled).toEqual(['/memories/a.md']);
    expect(await tool.read('/memories/a.md')).toBe('three');
  });

  it('deletes there what was deleted here, and here what was deleted there (undoable)', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/a.md', 'a');
    await create(tool, '/memories/b.md', 'b');
    await sync.syncNow();
    await tool.delete({ command: 'delete', path: '/memories/a.md' });
    remote.files.delete('/b.md');
    const report = await sync.syncNow();
    expect(report.deleted.sort()).toEqual(['/memories/a.md', '/memories/b.md']);
    expect(remote.snapshot()).toEqual({});
    expect(await files(tool)).toEqual({});
    // Undoing the sync's delete brings the file back, and the next pass sends it again.
    const [byTheSync] = await tool.history({ limit: 1 });
    expect(byTheSync?.actor).toBe('sync');
    await tool.undo(byTheSync?.id);
    expect((await sync.syncNow()).pushed).toEqual(['/memories/b.md']);
    expect(remote.snapshot()).toEqual({ '/b.md': 'b' });
  });

  it('keeps an edit over a delete on the other side', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/a.md', 'a');
    await create(tool, '/memories/b.md', 'b');
    await sync.syncNow();
    await create(tool, '/memories/a.md', 'a edited');
    remote.files.delete('/a.md');
    await tool.delete({ command: 'delete', path: '/memories/b.md' });
    await remote.put('/b.md', 'b edited', remote.files.get('/b.md')?.id);
    await sync.syncNow();
    expect(remote.snapshot()).toEqual({ '/a.md': 'a edited', '/b.md': 'b edited' });
    expect(await files(tool)).toEqual({ '/a.md': 'a edited', '/b.md': 'b edited' });
  });
});

describe('conflicts', () => {
  it('puts the remote version at the path and keeps this one beside it, on both sides; resolve picks either', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/notes.md', 'base');
    await sync.syncNow();
    await create(tool, '/memories/notes.md', 'mine');
    await remote.put('/notes.md', 'theirs', remote.files.get('/notes.md')?.id);
    const report = await sync.syncNow();
    expect(report.conflicts).toEqual(['/memories/notes.md']);
    const here = await files(tool);
    expect(here['/notes.md']).toBe('theirs');
    const copy = Object.keys(here).find((path) => path !== '/notes.md') ?? '';
    expect(copy).toMatch(/^\/notes\.conflict-\d{8}-\d{6}-[0-9a-z]{4}\.md$/u);
    expect(here[copy]).toBe('mine');
    expect(remote.snapshot()).toEqual(here);
    expect(sync.status().conflicts).toEqual([
      expect.objectContaining({ path: '/memories/notes.md', copy: '/memories' + copy }),
    ]);

    await sync.resolve('/memories' + copy, 'copy');
    expect(await files(tool)).toEqual({ '/notes.md': 'mine' });
    expect(sync.status().conflicts).toEqual([]);
    await sync.syncNow();
    expect(remote.snapshot()).toEqual({ '/notes.md': 'mine' });
  });

  it('counts the same edit on both sides as no conflict', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/a.md', 'base');
    await sync.syncNow();
    await create(tool, '/memories/a.md', 'same');
    await remote.put('/a.md', 'same', remote.files.get('/a.md')?.id);
    expect((await sync.syncNow()).conflicts).toEqual([]);
    expect(remote.files.size).toBe(1);
  });

  it('keeps a file and a folder of the same name: the folder keeps it, the file moves aside', async () => {
    const remote = new MemoryRemote();
    await remote.put('/topic/inner.md', 'inside');
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/topic', 'a file named topic');
    const report = await sync.syncNow();
    expect(report.conflicts).toEqual(['/memories/topic']);
    const here = await files(tool);
    expect(here['/topic/inner.md']).toBe('inside');
    const aside = Object.keys(here).find((path) => path.startsWith('/topic.conflict-')) ?? '';
    expect(here[aside]).toBe('a file named topic');
    expect(remote.snapshot()).toEqual(here);
  });

  it('moves a remote file aside when this memory has a folder of its name', async () => {
    const remote = new MemoryRemote();
    await remote.put('/topic', 'a remote file named topic');
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/topic/inner.md', 'inside');
    await sync.syncNow();
    const here = await files(tool);
    expect(here['/topic/inner.md']).toBe('inside');
    const aside = Object.keys(here).find((path) => path.startsWith('/topic.conflict-')) ?? '';
    expect(here[aside]).toBe('a remote file named topic');
    expect(remote.snapshot()).toEqual(here);
  });
});

describe('deletes in bulk', () => {
  it('holds a mass deletion until it is confirmed', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    for (let i = 0; i < 20; i++) await create(tool, `/memories/f${i}.md`, `${i}`);
    await sync.syncNow();
    remote.files.clear();
    const held = await sync.syncNow();
    expect(held.held).toHaveLength(20);
    expect(held.held[0]).toEqual({ path: expect.stringMatching(/^\/memories\/f\d+\.md$/u), side: 'local' });
    expect(held.deleted).toEqual([]);
    expect(Object.keys(await files(tool))).toHaveLength(20);
    expect(sync.status().held).toHaveLength(20);
    const confirmed = await sync.syncNow({ confirmDeletes: true });
    expect(confirmed.deleted).toHaveLength(20);
    expect(await files(tool)).toEqual({});
  });
});

describe('renames', () => {
  it('moves a renamed folder there file by file, keeping each remote identity', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/old/a.md', 'a');
    await create(tool, '/memories/old/b.md', 'b');
    await sync.syncNow();
    const ids = [remote.files.get('/old/a.md')?.id, remote.files.get('/old/b.md')?.id];
    await tool.rename({ command: 'rename', old_path: '/memories/old', new_path: '/memories/new' });
    remote.log.length = 0;
    await sync.syncNow();
    expect(remote.log.filter((call) => call !== 'list')).toEqual(['move', 'move']);
    expect([remote.files.get('/new/a.md')?.id, remote.files.get('/new/b.md')?.id]).toEqual(ids);
    expect(remote.snapshot()).toEqual({ '/new/a.md': 'a', '/new/b.md': 'b' });
  });

  it('renames here what was renamed there (same id), as one journaled rename', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/a.md', 'a');
    await sync.syncNow();
    const moved = remote.files.get('/a.md');
    if (!moved) throw new Error('not pushed');
    remote.files.delete('/a.md');
    remote.files.set('/b.md', { ...moved, version: 'moved' });
    const events: string[] = [];
    tool.subscribe((event) => events.push(...event.changes.map((change) => change.type)));
    await sync.syncNow();
    expect(await files(tool)).toEqual({ '/b.md': 'a' });
    expect(events).toEqual(['rename']);
  });
});

describe('refusals', () => {
  it('lists a file the remote cannot take with the reason, syncs the rest, and does not send it again', async () => {
    const remote = new MemoryRemote({ limits: { maxFileBytes: 10 } });
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/big.md', 'x'.repeat(11));
    await create(tool, '/memories/small.md', 'ok');
    const report = await sync.syncNow();
    expect(report.skipped).toEqual([
      { path: '/memories/big.md', reason: expect.stringContaining('limit of 10'), refusedBy: 'remote' },
    ]);
    expect(remote.snapshot()).toEqual({ '/small.md': 'ok' });
    remote.log.length = 0;
    expect((await sync.syncNow()).skipped).toHaveLength(1);
    expect(remote.log).toEqual(['list']);
    // A new version is tried again.
    await create(tool, '/memories/big.md', 'fits');
    expect((await sync.syncNow()).pushed).toEqual(['/memories/big.md']);
  });

  it('tries a file the remote refused again once the remote holds another version there', async () => {
    const remote = new MemoryRemote({ limits: { maxFileBytes: 10 } });
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/big.md', 'x'.repeat(11));
    expect((await sync.syncNow()).skipped).toHaveLength(1);
    await remote.put('/big.md', 'small');
    const report = await sync.syncNow();
    // Both sides now hold a file there: compared, a conflict, and neither version lost.
    expect(report.conflicts).toEqual(['/memories/big.md']);
    expect(await tool.read('/memories/big.md')).toBe('small');
    expect(Object.values(await files(tool))).toContain('x'.repeat(11));
  });

  it('lists a remote file this memory refuses (a secret), and brings the rest', async () => {
    const remote = new MemoryRemote();
    await remote.put('/key.md', `key: ${fake('sk-ant-api03-', body(40))}`);
    await remote.put('/fine.md', 'fine');
    const { tool, sync } = await device(remote);
    const report = await sync.syncNow();
    expect(report.skipped).toEqual([{ path: '/memories/key.md', reason: expect.any(String), refusedBy: 'local' }]);
    expect(await files(tool)).toEqual({ '/fine.md': 'fine' });
  });

  it('leaves a file that changed there after the listing to the next pass', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/a.md', 'one');
    await sync.syncNow();
    await create(tool, '/memories/a.md', 'two');
    const handle = remote.handle();
    remote.failNext = { call: 'write', error: new SyncRemoteError('precondition', 'changed') };
    expect(handle.id).toBe('memory-remote:test');
    const report = await sync.syncNow();
    expect(report.pushed).toEqual([]);
    expect((await sync.syncNow()).pushed).toEqual(['/memories/a.md']);
  });
});

describe('a memory changing under a pass', () => {
  it('keeps a local edit made while the pass fetched the remote version, and carries it next time', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/a.md', 'base');
    await sync.syncNow();
    await remote.put('/a.md', 'theirs', remote.files.get('/a.md')?.id);
    const handle = remote.handle();
    let raced = false;
    const racing = createMemorySync(await open({ dbName: tool.dbName }), {
      remote: { ...handle, read: async (file, options) => {
        // Claude writes the file between the listing and the pull, once.
        if (!raced) await create(tool, '/memories/a.md', 'claude meanwhile');
        raced = true;
        return handle.read(file, options);
      } },
      interval: null,
    });
    sync.close();
    const report = await racing.syncNow();
    expect(report.pulled).toEqual([]);
    expect(await tool.read('/memories/a.md')).toBe('claude meanwhile');
    // Next pass: both changed since the baseline, so both versions are kept.
    const next = await racing.syncNow();
    expect(next.conflicts).toEqual(['/memories/a.md']);
    const here = await files(tool);
    expect(Object.values(here).sort()).toEqual(['claude meanwhile', 'theirs']);
  });

  it('makes no conflict copy when the file changes here again before the remote version lands', async () => {
    const remote = new MemoryRemote();
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/a.md', 'base');
    await sync.syncNow();
    await create(tool, '/memories/a.md', 'mine');
    await remote.put('/a.md', 'theirs', remote.files.get('/a.md')?.id);
    const handle = remote.handle();
    let raced = false;
    const racing = createMemorySync(await open({ dbName: tool.dbName }), {
      remote: { ...handle, read: async (file, options) => {
        if (!raced) await create(tool, '/memories/a.md', 'mine, edited again');
        raced = true;
        return handle.read(file, options);
      } },
      interval: null,
    });
    sync.close();
    await racing.syncNow();
    expect(await files(tool)).toEqual({ '/a.md': 'mine, edited again' });
    await racing.syncNow();
    expect(Object.values(await files(tool)).sort()).toEqual(['mine, edited again', 'theirs']);
  });

  it('only pulls into a memory whose database was evicted: nothing is deleted there', async () => {
    const remote = new MemoryRemote();
    const first = await open();
    const sync = createMemorySync(first, { remote: remote.handle(), interval: null });
    await create(first, '/memories/a.md', 'a');
    await create(first, '/memories/b.md', 'b');
    await sync.syncNow();
    sync.close();
    first.close();
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(first.dbName);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    });
    const again = await open({ dbName: first.dbName });
    const report = await createMemorySync(again, { remote: remote.handle(), interval: null }).syncNow();
    expect(report.deleted).toEqual([]);
    expect(report.pulled.sort()).toEqual(['/memories/a.md', '/memories/b.md']);
    expect(remote.snapshot()).toEqual({ '/a.md': 'a', '/b.md': 'b' });
  });
});

describe('mounts', () => {
  it('maps a mount folder to the remote root and leaves the rest of the memory alone', async () => {
    const team = new MemoryRemote();
    await team.put('/plan.md', 'shared plan');
    const { tool, sync } = await device(team, { mount: '/memories/team' });
    await create(tool, '/memories/private.md', 'mine');
    await sync.syncNow();
    expect(await files(tool)).toEqual({ '/private.md': 'mine', '/team/plan.md': 'shared plan' });
    expect(team.snapshot()).toEqual({ '/plan.md': 'shared plan' });
  });

  it('gives a nested mount its folder: the outer mount does not carry it', async () => {
    const all = new MemoryRemote();
    const team = new MemoryRemote();
    const tool = await open();
    const outer = createMemorySync(tool, { remote: all.handle('all'), interval: null });
    const inner = createMemorySync(tool, { remote: team.handle('team'), mount: '/memories/team', interval: null });
    await create(tool, '/memories/a.md', 'a');
    await create(tool, '/memories/team/t.md', 't');
    await outer.syncNow();
    await inner.syncNow();
    expect(all.snapshot()).toEqual({ '/a.md': 'a' });
    expect(team.snapshot()).toEqual({ '/t.md': 't' });
    expect(() => createMemorySync(tool, { remote: team.handle('again'), mount: '/memories/team', interval: null })).toThrow(
      TypeError,
    );
  });
});

describe('failures', () => {
  it('rejects syncNow with the remote error, reports its kind, and saves what was agreed before it', async () => {
    const remote = new MemoryRemote({ concurrency: 1 });
    const { tool, sync } = await device(remote);
    await create(tool, '/memories/a.md', 'a');
    await create(tool, '/memories/b.md', 'b');
    remote.log.length = 0;
    let writes = 0;
    const handle = remote.handle();
    const failing = { ...handle, write: async (...args: Parameters<typeof handle.write>) => {
      if (++writes === 2) throw new SyncRemoteError('server', 'down');
      return handle.write(...args);
    } };
    const second = await open({ dbName: tool.dbName });
    const flaky = createMemorySync(second, { remote: failing, interval: null, mount: '/memories' });
    await expect(flaky.syncNow()).rejects.toMatchObject({ kind: 'server' });
    expect(flaky.status()).toMatchObject({ state: 'error', error: { kind: 'server', retryAt: null } });
    expect(remote.files.size).toBe(1);
    // The file sent before the failure is agreed: the next pass sends only the other one.
    remote.log.length = 0;
    await flaky.syncNow();
    expect(remote.count('write')).toBe(1);
    expect(sync.status().state).toBe('idle');
  });

  it('stop() aborts a pass under way', async () => {
    const remote = new MemoryRemote();
    const { sync } = await device(remote);
    const handle = remote.handle();
    let release: () => void = () => undefined;
    const slow = { ...handle, list: (options?: { signal?: AbortSignal }) => new Promise<never>((_, reject) => {
      release = () => reject(options?.signal?.reason);
      if (options?.signal?.aborted) release();
      options?.signal?.addEventListener('abort', release);
    }) };
    sync.close();
    const tool = await open();
    const stopping = createMemorySync(tool, { remote: slow, interval: null });
    const pass = stopping.syncNow();
    await new Promise((resolve) => setTimeout(resolve, 0));
    stopping.stop();
    await expect(pass).rejects.toMatchObject({ name: 'AbortError' });
    expect(stopping.status().state).toBe('stopped');
  });
});
