// What a remote refuses, as a whole pass meets it: over its count, a path it refuses (known before sending, or
// answered when sent), a path something unseen stands in. Each is listed in `skipped` with its reason while the
// rest of the pass goes on; a refusal of the file itself is not sent again, a path in the way is tried each pass.

import { describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import { SyncRemoteError } from '../../src/sync/remote.js';
import type { SyncRemote } from '../../src/sync/remote.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';

const open = toolsClosedAfterEach('remote-calls');

const create = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

/**
 * `handle` refusing writes and moves to the paths `refuse` names an error for, as a server would answer; `tried`
 * lists every path written or moved to, refused or not.
 */
function refusing(handle: SyncRemote, refuse: (path: string) => SyncRemoteError | undefined, tried: string[] = []): SyncRemote {
  return {
    ...handle,
    write: async (path, text, expected, options) => {
      tried.push(path);
      const error = refuse(path);
      if (error) throw error;
      return handle.write(path, text, expected, options);
    },
    move: async (expected, to, options) => {
      tried.push(to);
      const error = refuse(to);
      if (error) throw error;
      if (!handle.move) throw new Error('the test remote has move');
      return handle.move(expected, to, options);
    },
  };
}

describe('refusals by the remote, through a pass', () => {
  it('lists the files past the remote count with the reason, sends the rest, and does not send them again', async () => {
    const remote = new MemoryRemote({ limits: { maxFiles: 3 } });
    await remote.put('/there.md', 'there');
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    for (const name of ['a', 'b', 'c', 'd']) await create(tool, `/memories/${name}.md`, name);
    const report = await sync.syncNow();
    expect(report.pulled).toEqual(['/memories/there.md']);
    expect(report.pushed).toHaveLength(2);
    expect(report.skipped).toHaveLength(2);
    for (const skipped of report.skipped) {
      expect(skipped).toEqual({ path: expect.stringMatching(/^\/memories\/[a-d]\.md$/u), reason: expect.stringContaining('limit of 3 files'), refusedBy: 'remote' });
    }
    expect(remote.files.size).toBe(3);
    const sent = [...report.pushed, ...report.skipped.map((s) => s.path)].sort();
    expect(sent).toEqual(['/memories/a.md', '/memories/b.md', '/memories/c.md', '/memories/d.md']);
    expect(sync.status().skipped).toEqual(report.skipped);
    remote.log.length = 0;
    expect((await sync.syncNow()).skipped).toEqual(report.skipped);
    expect(remote.log).toEqual(['list']);
  });

  it('lists a path the remote refuses before it is sent (too deep, too long), and sends the rest', async () => {
    const remote = new MemoryRemote({ limits: { maxSegments: 2, maxPathBytes: 40 } });
    const tool = await open();
    const sync = createMemorySync(tool, { remote: remote.handle(), interval: null });
    await create(tool, '/memories/one/two/three.md', 'deep');
    await create(tool, `/memories/${'n'.repeat(40)}.md`, 'long');
    await create(tool, '/memories/one/fine.md', 'fine');
    const report = await sync.syncNow();
    expect(report.pushed).toEqual(['/memories/one/fine.md']);
    expect([...report.skipped].sort((x, y) => (x.path < y.path ? -1 : 1))).toEqual([
      { path: `/memories/${'n'.repeat(40)}.md`, reason: expect.stringContaining('limit of 40 bytes'), refusedBy: 'remote' },
      { path: '/memories/one/two/three.md', reason: expect.stringContaining('limit of 2 names'), refusedBy: 'remote' },
    ]);
    expect(remote.snapshot()).toEqual({ '/one/fine.md': 'fine' });
  });

  it('lists what the remote refuses when it is sent (a path, no room), sends the rest, and does not send it again', async () => {
    const remote = new MemoryRemote();
    const tool = await open();
    const handle = refusing(remote.handle(), (path) =>
      path === '/refused.md'
        ? new SyncRemoteError('refused-path', 'the service refuses this path')
        : path === '/huge.md'
          ? new SyncRemoteError('full', 'the store holds its limit', { status: 507 })
          : undefined,
    );
    const sync = createMemorySync(tool, { remote: handle, interval: null });
    await create(tool, '/memories/refused.md', 'odd');
    await create(tool, '/memories/huge.md', 'huge');
    await create(tool, '/memories/fine.md', 'fine');
    const report = await sync.syncNow();
    expect(report.pushed).toEqual(['/memories/fine.md']);
    expect([...report.skipped].sort((x, y) => (x.path < y.path ? -1 : 1))).toEqual([
      { path: '/memories/huge.md', reason: 'the store holds its limit', refusedBy: 'remote', kind: 'full' },
      { path: '/memories/refused.md', reason: 'the service refuses this path', refusedBy: 'remote', kind: 'refused-path' },
    ]);
    remote.log.length = 0;
    // Remembered, with the kind: listed again, not sent again.
    expect((await sync.syncNow()).skipped.map((skip) => skip.kind).sort()).toEqual(['full', 'refused-path']);
    expect(remote.log).toEqual(['list']);
  });

  it('lists a rename to a path the remote refuses on every pass, and brings nothing back under the old name', async () => {
    const remote = new MemoryRemote();
    let refused = true;
    const tried: string[] = [];
    const refuse = (path: string) => (refused && path === '/odd.md' ? new SyncRemoteError('refused-path', 'not here') : undefined);
    const tool = await open();
    const sync = createMemorySync(tool, { remote: refusing(remote.handle(), refuse, tried), interval: null });
    await create(tool, '/memories/a.md', 'a');
    await sync.syncNow();
    tried.length = 0;
    await tool.rename({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/odd.md' });
    for (let pass = 0; pass < 2; pass++) {
      const report = await sync.syncNow();
      expect(report).toMatchObject({ pulled: [], pushed: [], skipped: [{ path: '/memories/a.md', reason: 'not here', refusedBy: 'remote' }] });
      expect(remote.snapshot()).toEqual({ '/a.md': 'a' });
    }
    expect(tried).toEqual(['/odd.md', '/odd.md']);
    expect((await tool.list('/memories')).filter((entry) => entry.kind === 'file').map((entry) => entry.path)).toEqual(['/memories/odd.md']);
    refused = false;
    expect((await sync.syncNow()).pushed).toEqual(['/memories/odd.md']);
    expect(remote.snapshot()).toEqual({ '/odd.md': 'a' });
  });
});

describe('a path something unseen stands in', () => {
  // WebDAV keeps emptied folders, and a listing shows no folders: the PUT of a file by that name answers 409.
  const folderThere = (path: string) => new SyncRemoteError('path-conflict', `WebDAV: ${path} cannot be written: a folder is there`);

  it('is listed with the reason on every pass, tried again each time, and sent once the way is free', async () => {
    const remote = new MemoryRemote();
    let blocked = true;
    const tried: string[] = [];
    const handle = refusing(remote.handle(), (path) => (blocked && path === '/topic' ? folderThere(path) : undefined), tried);
    const tool = await open();
    const sync = createMemorySync(tool, { remote: handle, interval: null });
    await create(tool, '/memories/topic', 'a file named topic');
    await create(tool, '/memories/other.md', 'other');
    const first = await sync.syncNow();
    expect(first.pushed).toEqual(['/memories/other.md']);
    const listed = {
      path: '/memories/topic',
      reason: 'WebDAV: /topic cannot be written: a folder is there',
      refusedBy: 'remote',
      kind: 'path-conflict',
    };
    expect(first.skipped).toEqual([listed]);
    expect(sync.status().skipped).toEqual([listed]);
    tried.length = 0;
    expect((await sync.syncNow()).skipped).toEqual([listed]);
    expect(tried).toEqual(['/topic']);
    blocked = false;
    const freed = await sync.syncNow();
    expect(freed).toMatchObject({ pushed: ['/memories/topic'], skipped: [] });
    expect(remote.snapshot()).toEqual({ '/other.md': 'other', '/topic': 'a file named topic' });
  });

  it('lists a file another client holds locked on every pass, with kind `locked`, and sends it once the lock goes', async () => {
    const remote = new MemoryRemote();
    let locked = false;
    const tried: string[] = [];
    const lockedError = (path: string) => new SyncRemoteError('locked', `WebDAV: ${path} is locked: another client is changing it`, { status: 423 });
    const handle = refusing(remote.handle(), (path) => (locked ? lockedError(path) : undefined), tried);
    const tool = await open();
    const sync = createMemorySync(tool, { remote: handle, interval: null });
    await create(tool, '/memories/a.md', 'one');
    await sync.syncNow();
    locked = true;
    await tool.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
    const listed = { path: '/memories/a.md', reason: 'WebDAV: /a.md is locked: another client is changing it', refusedBy: 'remote', kind: 'locked' };
    for (let pass = 0; pass < 2; pass++) {
      tried.length = 0;
      expect(await sync.syncNow()).toMatchObject({ pushed: [], skipped: [listed] });
      // Not remembered as refused: the same version is sent again on the next pass.
      expect(tried).toEqual(['/a.md']);
    }
    locked = false;
    expect(await sync.syncNow()).toMatchObject({ pushed: ['/memories/a.md'], skipped: [] });
    expect(remote.snapshot()).toEqual({ '/a.md': 'two' });
  });

  it('holds back a rename into it, listed, with the file kept there under its old name until the way is free', async () => {
    const remote = new MemoryRemote();
    let blocked = true;
    const handle = refusing(remote.handle(), (path) => (blocked && path === '/topic' ? folderThere(path) : undefined));
    const tool = await open();
    const sync = createMemorySync(tool, { remote: handle, interval: null });
    await create(tool, '/memories/a.md', 'a');
    await sync.syncNow();
    await tool.rename({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/topic' });
    const held = await sync.syncNow();
    expect(held.pushed).toEqual([]);
    expect(held.skipped).toEqual([expect.objectContaining({ reason: expect.stringContaining('a folder is there'), refusedBy: 'remote' })]);
    expect(remote.snapshot()).toEqual({ '/a.md': 'a' });
    expect((await sync.syncNow()).skipped).toHaveLength(1);
    blocked = false;
    await sync.syncNow();
    expect(remote.snapshot()).toEqual({ '/topic': 'a' });
    expect(await tool.read('/memories/topic')).toBe('a');
    expect((await tool.list('/memories')).filter((entry) => entry.kind === 'file')).toHaveLength(1);
  });
});
