// The WebDAV adapter against a real Apache httpd with mod_dav on loopback (test/servers/apache-webdav.ts): Basic
// and bearer auth, the tree walk, optimistic concurrency with Apache's weak-then-strong ETags, MKCOL, MOVE, limits,
// names, and the failures a sync engine must tell apart. Each test works in a root folder of its own.

import { Buffer } from 'node:buffer';
import { readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncRemoteError, type RemoteFile, type SyncRemote } from '../../../src/sync/remote.js';
import { webdavRemote } from '../../../src/sync/remotes/webdav.js';
import { failure } from '../../helpers/fake-dav.js';
import { startApacheWebdav, type ApacheWebdav } from '../../servers/apache-webdav.js';

const TOKEN = 'test-token-7c1f';
const LIMIT = 4096;

let server: ApacheWebdav;
beforeAll(async () => {
  server = await startApacheWebdav({ limitRequestBody: LIMIT, token: TOKEN });
});
afterAll(async () => {
  await server?.stop();
});

interface Sent {
  method: string;
  url: string;
}

let rootCount = 0;
/** A remote on a folder of its own below /dav/ (not there until the first write), and the requests it sends. */
function remoteAt(options: { password?: string; root?: string; fetch?: typeof fetch } = {}): {
  remote: SyncRemote;
  sent: Sent[];
  root: string;
} {
  const sent: Sent[] = [];
  const root = options.root ?? `t${++rootCount}`;
  const remote = webdavRemote({
    url: `${server.url}${root}/`,
    username: server.username,
    password: options.password ?? server.password,
    fetch: (input, init) => {
      sent.push({ method: init?.method ?? 'GET', url: String(input) });
      return (options.fetch ?? fetch)(input, init);
    },
  });
  return { remote, sent, root };
}

const byPath = (files: RemoteFile[]) => [...files].sort((a, b) => (a.path < b.path ? -1 : 1));

describe('the WebDAV adapter on Apache mod_dav', () => {
  it('lists a root that does not exist yet as empty (a new remote)', async () => {
    const { remote } = remoteAt();
    expect(await remote.list()).toEqual([]);
  });

  it('refuses a wrong password as auth (401)', async () => {
    const { remote } = remoteAt({ password: 'not-the-password' });
    const error = await failure(remote.list());
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(401);
  });

  it('accepts the right bearer token at a token-protected folder and refuses a wrong one', async () => {
    const url = server.tokenUrl ?? '';
    const good = webdavRemote({ url, token: TOKEN });
    const written = await good.write('/b.md', 'bearer', null);
    expect((await good.read(written)).text).toBe('bearer');
    const error = await failure(webdavRemote({ url, token: 'wrong' }).list());
    expect(error.kind).toBe('auth');
  });

  it('creates a file (and the missing root), reads it back, and lists it with the same version', async () => {
    const { remote, root } = remoteAt();
    const written = await remote.write('/notes.md', 'hello\n', null);
    expect(written).toMatchObject({ path: '/notes.md', size: 6 });
    expect(await readFile(join(server.root, root, 'notes.md'), 'utf8')).toBe('hello\n');
    const read = await remote.read(written);
    expect(read.text).toBe('hello\n');
    expect(read.file.version).toBe(written.version);
    expect(await remote.list()).toEqual([{ path: '/notes.md', version: written.version, size: 6 }]);
  });

  it('lists a nested tree with one PROPFIND Depth 1 per folder', async () => {
    const { remote: writer, root } = remoteAt();
    for (const path of ['/a.md', '/x/b.md', '/x/y/c.md', '/x/y/d.md', '/z/e.md']) await writer.write(path, path, null);
    // Another client: the writer reads its weak-tagged writes again on a later listing (webdav-same-tick.node.test.ts).
    const { remote, sent } = remoteAt({ root });
    const files = byPath(await remote.list());
    expect(files.map((file) => file.path)).toEqual(['/a.md', '/x/b.md', '/x/y/c.md', '/x/y/d.md', '/z/e.md']);
    expect(files.every((file) => file.size === file.path.length && file.version.startsWith('"'))).toBe(true);
    expect(sent.map((request) => request.method)).toEqual(['PROPFIND', 'PROPFIND', 'PROPFIND', 'PROPFIND']);
    expect(new Set(sent.map((request) => new URL(request.url).pathname.split('/').slice(3).join('/')))).toEqual(
      new Set(['', 'x/', 'z/', 'x/y/']),
    );
  });

  it('refuses a create on a taken path as precondition', async () => {
    const { remote } = remoteAt();
    await remote.write('/taken.md', 'first', null);
    const error = await failure(remote.write('/taken.md', 'second', null));
    expect(error.kind).toBe('precondition');
    expect((await remote.read({ path: '/taken.md', version: '' })).text).toBe('first');
  });

  it('refuses an update with a stale version as precondition', async () => {
    const { remote } = remoteAt();
    const first = await remote.write('/stale.md', 'one', null);
    await remote.write('/stale.md', 'two', first);
    const error = await failure(remote.write('/stale.md', 'three', first));
    expect(error.kind).toBe('precondition');
    expect((await remote.read(first)).text).toBe('two');
  });

  it('updates a file right after writing it, whether or not Apache still calls its ETag weak', async () => {
    const { remote } = remoteAt();
    const first = await remote.write('/quick.md', 'one', null);
    const second = await remote.write('/quick.md', 'two!', first);
    const third = await remote.write('/quick.md', 'three', second);
    expect(new Set([first.version, second.version, third.version]).size).toBe(3);
    const read = await remote.read(third);
    expect(read).toEqual({ file: { path: '/quick.md', version: third.version, size: 5 }, text: 'three' });
  });

  it('waits once for a weak tag to turn strong, then calls a tag that stays weak (an mtime ahead) a precondition', async () => {
    const { remote, sent, root } = remoteAt();
    const file = await remote.write('/ahead.md', 'one', null);
    // Apache calls a tag weak until a second after the file's mtime: an hour ahead keeps it weak for this test.
    const ahead = new Date(Date.now() + 3_600_000);
    await utimes(join(server.root, root, 'ahead.md'), ahead, ahead);
    const [listed] = await remote.list();
    expect(listed?.version).not.toBe(file.version);
    sent.length = 0;
    const error = await failure(remote.write('/ahead.md', 'two', listed ?? null));
    expect(error.kind).toBe('precondition');
    // Under a lock taken on that version (the If header's tag test passes on a weak tag), let go after.
    expect(sent.map((request) => request.method)).toEqual(['LOCK', 'PUT', 'PROPFIND', 'PUT', 'PROPFIND', 'UNLOCK']);
    expect(await readFile(join(server.root, root, 'ahead.md'), 'utf8')).toBe('one');
  });

  it('reads back its write on a server without locks: another client’s write of the same size right after it, both told 2xx, is a precondition', async () => {
    const authorization = `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}`;
    let interpose = false;
    const { remote, root } = remoteAt({
      fetch: async (input, init) => {
        // A server without locks (RFC 4918 class 1): the write goes unlocked.
        if (init?.method === 'LOCK') return new Response(null, { status: 405 });
        const response = await fetch(input, init);
        if (interpose && init?.method === 'PUT' && response.ok) {
          interpose = false;
          // A file manager on another device, no If-Match, the same number of bytes.
          await fetch(input, { method: 'PUT', body: 'from c\n', headers: { authorization } });
        }
        return response;
      },
    });
    const first = await remote.write('/n.md', 'v0\n', null);
    interpose = true;
    expect((await failure(remote.write('/n.md', 'from a\n', first))).kind).toBe('precondition');
    expect(await readFile(join(server.root, root, 'n.md'), 'utf8')).toBe('from c\n');
  });

  it('says a file deleted by another client while its move waited out a weak tag is not found', async () => {
    const statuses: number[] = [];
    let deleteAfterLook = false;
    const { remote, root } = remoteAt({
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'MOVE') statuses.push(response.status);
        if (init?.method === 'MOVE' && response.status === 412) deleteAfterLook = true;
        // After the adapter's look at the source (still there, its tag weak), another client deletes it.
        else if (deleteAfterLook && init?.method === 'PROPFIND' && String(input).endsWith('/a.md')) {
          deleteAfterLook = false;
          await rm(join(server.root, root, 'a.md'));
        }
        return response;
      },
    });
    await remote.write('/a.md', 'one', null);
    const ahead = new Date(Date.now() + 3_600_000); // keeps the tag weak, so the move waits and tries again
    await utimes(join(server.root, root, 'a.md'), ahead, ahead);
    const [listed] = await remote.list();
    expect((await failure(remote.move?.(listed as RemoteFile, '/b.md') ?? Promise.resolve())).kind).toBe('not-found');
    // 404 here; 500 ("Could not rename resource") when the file goes during Apache's own move, scripted in webdav.test.ts.
    expect(statuses[0]).toBe(412);
    expect([404, 500]).toContain(statuses[1]);
  });

  it('refuses a delete with a stale version, deletes with the current one, and counts a gone file as deleted', async () => {
    const { remote, root } = remoteAt();
    const first = await remote.write('/del.md', 'one', null);
    const second = await remote.write('/del.md', 'two', first);
    expect((await failure(remote.delete(first))).kind).toBe('precondition');
    await remote.delete(second);
    expect(await readdir(join(server.root, root))).toEqual([]);
    await remote.delete(second);
  });

  it('moves a file, also into folders that do not exist yet', async () => {
    const { remote } = remoteAt();
    const file = await remote.write('/from.md', 'moving', null);
    const moved = await remote.move?.(file, '/to.md');
    expect(moved).toMatchObject({ path: '/to.md', size: 6 });
    const deeper = await remote.move?.(moved ?? file, '/new/folders/here.md');
    expect(deeper?.path).toBe('/new/folders/here.md');
    expect(await remote.list()).toEqual([deeper]);
    expect((await remote.read({ path: '/new/folders/here.md', version: '' })).text).toBe('moving');
  });

  it('refuses a move onto a taken path, or of a changed file, as precondition and says which', async () => {
    const { remote } = remoteAt();
    const a = await remote.write('/a.md', 'a', null);
    await remote.write('/b.md', 'b', null);
    const taken = await failure(remote.move?.(a, '/b.md') ?? Promise.resolve());
    expect(taken).toMatchObject({ kind: 'precondition', conflictingPath: '/b.md' });
    await remote.write('/a.md', 'a changed', a);
    const changed = await failure(remote.move?.(a, '/c.md') ?? Promise.resolve());
    expect(changed.kind).toBe('precondition');
    expect(changed.conflictingPath).toBeUndefined();
    const gone = await failure(remote.move?.({ path: '/none.md', version: '"x"' }, '/d.md') ?? Promise.resolve());
    expect(gone.kind).toBe('not-found');
  });

  it('refuses a body over LimitRequestBody as too-large (413)', async () => {
    const { remote } = remoteAt();
    await remote.write('/small.md', 'x', null);
    const error = await failure(remote.write('/big.md', 'x'.repeat(LIMIT + 1), null));
    expect(error).toMatchObject({ kind: 'too-large', status: 413 });
  });

  it('round-trips names with spaces, non-ASCII letters and URL punctuation', async () => {
    const { remote, root } = remoteAt();
    const paths = ['/Ünïcödé ✓/naïve file.md', '/a#b?c%20d&e+f.md', "/日本語/emoji 🦊/it's (1).md"];
    for (const path of paths) await remote.write(path, `text of ${path}`, null);
    expect(byPath(await remote.list()).map((file) => file.path)).toEqual([...paths].sort());
    for (const path of paths) expect((await remote.read({ path, version: '' })).text).toBe(`text of ${path}`);
    expect((await readdir(join(server.root, root))).sort()).toEqual(['a#b?c%20d&e+f.md', 'Ünïcödé ✓', '日本語'].sort());
  });

  it('refuses a file where a folder is, or under a file, as path-conflict naming what is in the way', async () => {
    const { remote } = remoteAt();
    await remote.write('/file.md', 'a file', null);
    await remote.write('/folder/inside.md', 'inside', null);
    expect(await failure(remote.write('/file.md/below.md', 'x', null))).toMatchObject({
      kind: 'path-conflict',
      conflictingPath: '/file.md',
    });
    expect(await failure(remote.write('/file.md/deeper/below.md', 'x', null))).toMatchObject({
      kind: 'path-conflict',
      conflictingPath: '/file.md',
    });
    expect(await failure(remote.write('/folder', 'x', null))).toMatchObject({
      kind: 'path-conflict',
      conflictingPath: '/folder',
    });
    const file = (await remote.list()).find((entry) => entry.path === '/file.md');
    expect(await failure(remote.write('/folder', 'x', file ?? null))).toMatchObject({ kind: 'path-conflict' });
    expect(
      await failure(remote.move?.(file ?? { path: '', version: '' }, '/folder') ?? Promise.resolve()),
    ).toMatchObject({
      kind: 'path-conflict',
      conflictingPath: '/folder',
    });
  });

  it('reports a missing file as not-found on read', async () => {
    const { remote } = remoteAt();
    expect((await failure(remote.read({ path: '/nothing.md', version: '"x"' }))).kind).toBe('not-found');
  });

  it('reports a closed port as network', async () => {
    const port = await new Promise<number>((resolvePort) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolvePort(free));
      });
    });
    const remote = webdavRemote({ url: `http://127.0.0.1:${port}/dav/`, username: 'a', password: 'b' });
    expect((await failure(remote.list())).kind).toBe('network');
  });

  it('reports an aborted call as aborted', async () => {
    const { remote } = remoteAt();
    const stopped = new AbortController();
    stopped.abort();
    expect((await failure(remote.list({ signal: stopped.signal }))).kind).toBe('aborted');
    expect((await failure(remote.write('/x.md', 'x', null, { signal: stopped.signal }))).kind).toBe('aborted');
  });

  it('answers a preflight from another origin without credentials and lets the page read ETag and 401s', async () => {
    const origin = 'http://page.example:5173';
    const preflight = await fetch(`${server.url}x.md`, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'authorization,if-match',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PROPFIND');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('if-match');
    const refused = await fetch(`${server.url}x.md`, { headers: { Origin: origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
    expect(refused.headers.get('access-control-expose-headers')).toContain('ETag');
  });
});

describe('the WebDAV adapter on Apache, with what real shares hold', () => {
  it('lists a binary file (.DS_Store, an image) and refuses its read as unreadable; the text beside it reads', async () => {
    const { remote, root } = remoteAt();
    await remote.write('/notes.md', 'text', null);
    await writeFile(join(server.root, root, '.DS_Store'), Buffer.from([0x00, 0x00, 0x00, 0x01, 0x42, 0x75, 0xff, 0xfe]));
    await writeFile(join(server.root, root, 'photo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xc3]));
    const files = byPath(await remote.list());
    expect(files.map((listed) => listed.path)).toEqual(['/.DS_Store', '/notes.md', '/photo.png']);
    for (const binary of files.filter((listed) => listed.path !== '/notes.md')) {
      const error = await failure(remote.read(binary));
      expect(error.kind).toBe('unreadable');
      expect(error.message).toContain('not UTF-8');
    }
    expect((await remote.read({ path: '/notes.md', version: '' })).text).toBe('text');
  });

  it('says which folders the listing found empty, and removes one only while it holds nothing', { timeout: 20_000 }, async () => {
    const { remote, root } = remoteAt();
    const removable = await remote.write('/gone/a.md', 'a', null);
    await remote.write('/kept/b.md', 'b', null);
    // Made through Apache, as another device would (a folder made on disk here is not Apache's to write in).
    const [placeholder] = await Promise.all([remote.write('/outer/inner/x.md', 'x', null), remote.delete(removable)]);
    if (placeholder) await remote.delete(placeholder);
    await remote.list();
    expect([...(remote.emptyFoldersSeen?.() ?? [])].sort()).toEqual(['/gone', '/outer/inner']);
    await remote.removeEmptyFolder?.('/gone');
    expect(await readdir(join(server.root, root))).not.toContain('gone');
    // Another device put a file there since the listing: the folder and the file stay.
    await remote.write('/outer/inner/new.md', 'new', null);
    const error = await failure(remote.removeEmptyFolder?.('/outer/inner') ?? Promise.resolve());
    expect(error.kind).toBe('path-conflict');
    expect(error.conflictingPath).toBe('/outer/inner/new.md');
    expect(await readFile(join(server.root, root, 'outer', 'inner', 'new.md'), 'utf8')).toBe('new');
    await failure(remote.removeEmptyFolder?.('/kept') ?? Promise.resolve());
    // Gone already is done.
    await remote.removeEmptyFolder?.('/gone');
    await remote.list();
    expect(remote.emptyFoldersSeen?.()).toEqual([]);
  });
});

describe('the WebDAV adapter on Apache, two clients changing one path at the same moment', () => {
  const RACE_KINDS = ['path-conflict', 'precondition', 'not-found'];
  /** The kind a call failed with, or 'ok'. */
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: unknown) => (error instanceof SyncRemoteError ? error.kind : String(error)),
    );

  it('tells a file and a folder of one name pushed at once apart as path-conflict, never server', { timeout: 120_000 }, async () => {
    const kinds = new Set<string>();
    for (let round = 0; round < 40; round += 1) {
      const root = `race-f${round}-${++rootCount}`;
      const a = remoteAt({ root }).remote;
      const b = remoteAt({ root }).remote;
      await a.write('/seed.md', 'seed', null);
      const [file, inFolder] = await Promise.all([
        outcome(a.write('/x', 'a file', null)),
        outcome(b.write('/x/y.md', 'a file in a folder', null)),
      ]);
      kinds.add(file).add(inFolder);
      expect([file, inFolder].filter((kind) => kind === 'ok').length).toBeGreaterThanOrEqual(1);
    }
    expect([...kinds].filter((kind) => kind !== 'ok' && !RACE_KINDS.includes(kind))).toEqual([]);
  });

  it('reads a file another client is deleting as not-found or its text, never auth', { timeout: 120_000 }, async () => {
    // Apache answers a GET that races a DELETE of the file (or of its folder) 403 about once in 300 reads.
    const kinds = new Map<string, number>();
    const { remote, root } = remoteAt();
    const authorization = `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}`;
    for (let round = 0; round < 150; round += 1) {
      const written = await remote.write(`/f${round}/a.md`, 'x'.repeat(3000), null);
      // The other client's delete, unconditional (no weak-tag wait), at the same moment as the reads.
      const target = round % 2 === 0 ? `${server.url}${root}/f${round}/` : `${server.url}${root}/f${round}/a.md`;
      const deleted = fetch(target, { method: 'DELETE', headers: { authorization } });
      const reads = Array.from({ length: 8 }, () => outcome(remote.read(written)));
      for (const kind of await Promise.all(reads)) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      await deleted;
    }
    expect([...kinds.keys()].filter((kind) => kind !== 'ok' && !RACE_KINDS.includes(kind))).toEqual([]);
  });
});
