// A path whose folder another client replaced with a file, on a real Apache: it answers 400 to a PROPFIND, DELETE,
// MOVE or LOCK below a file, never 404. The adapter must read that as the path being gone (or in the way), not as a
// malformed request: a `protocol` error stops the whole pass. The real-remote storm met it (seed 1, in CI).

import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteFile, SyncRemote } from '../../../src/sync/remote.js';
import { webdavRemote } from '../../../src/sync/remotes/webdav.js';
import { failure } from '../../helpers/fake-dav.js';
import { startApacheWebdav, type ApacheWebdav } from '../../servers/apache-webdav.js';

let server: ApacheWebdav;
beforeAll(async () => {
  server = await startApacheWebdav();
});
afterAll(async () => {
  await server?.stop();
});

let roots = 0;
interface Setup {
  remote: SyncRemote;
  /** Each request as `METHOD /path` (below the root), in the order sent. */
  sent: string[];
  /** The remote's file /notes/b.md, as written. */
  b: RemoteFile;
  /** Another client's change: the folder /notes, with all it holds, becomes a file. */
  replaceNotes: () => Promise<void>;
  /** Makes that change happen once, right before the request `before` names is sent. */
  arm: () => void;
  /** Whether the armed change happened. */
  fired: () => boolean;
}

/** A root holding /notes/b.md, /notes/deep/d.md and /g.md, and a remote on it whose requests are recorded. */
async function setup(before?: { method: string; path: string }): Promise<Setup> {
  const root = `below${++roots}`;
  const sent: string[] = [];
  let armed = false;
  let fired = false;
  const replaceNotes = async () => {
    await rm(join(server.root, root, 'notes'), { recursive: true });
    await writeFile(join(server.root, root, 'notes'), 'now a file\n');
  };
  const remote = webdavRemote({
    url: `${server.url}${root}/`,
    username: server.username,
    password: server.password,
    fetch: async (input, init) => {
      const method = init?.method ?? 'GET';
      const path = decodeURIComponent(new URL(String(input)).pathname).slice(`/dav/${root}`.length);
      if (armed && method === before?.method && path === before.path) {
        armed = false;
        fired = true;
        await replaceNotes();
      }
      sent.push(`${method} ${path}`);
      return fetch(input, init);
    },
  });
  const b = await remote.write('/notes/b.md', 'b\n', null);
  await remote.write('/notes/deep/d.md', 'd\n', null);
  await remote.write('/g.md', 'g\n', null);
  return { remote, sent, b, replaceNotes, arm: () => (armed = true), fired: () => fired };
}

describe('the WebDAV adapter on Apache, below a file another client put where a folder was', () => {
  it('counts a delete there as done and a move from there as not-found, sending each once', async () => {
    const { remote, sent, b, replaceNotes } = await setup();
    await replaceNotes();
    await expect(remote.delete(b)).resolves.toBeUndefined();
    expect(await failure(remote.move?.(b, '/z.md'))).toMatchObject({ kind: 'not-found' });
    expect(sent.filter((step) => /^(DELETE|MOVE) /.test(step))).toEqual(['DELETE /notes/b.md', 'MOVE /notes/b.md']);
    expect(await failure(remote.read(b))).toMatchObject({ kind: 'not-found' });
  });

  it('refuses an update there as path-conflict naming the file, and still locks the next update', async () => {
    const { remote, sent, b, replaceNotes } = await setup();
    await replaceNotes();
    expect(await failure(remote.write('/notes/b.md', 'b2\n', b))).toMatchObject({
      kind: 'path-conflict',
      conflictingPath: '/notes',
    });
    const g = (await remote.list()).find((file) => file.path === '/g.md');
    expect(g).toBeDefined();
    sent.length = 0;
    await remote.write('/g.md', 'g2\n', g ?? null);
    // A 400 below a file is not a server that refuses locks: the next update is still made under one.
    expect(sent.filter((step) => step.startsWith('LOCK') || step.startsWith('UNLOCK'))).toEqual([
      'LOCK /g.md',
      'UNLOCK /g.md',
    ]);
  });

  it.each(['before its look', 'between its look and its DELETE'])(
    'counts an empty folder there as removed, the file put %s',
    async (when) => {
      const { remote, replaceNotes, arm, fired } = await setup({ method: 'DELETE', path: '/notes/deep/' });
      await remote.delete((await remote.list()).find((file) => file.path === '/notes/deep/d.md') ?? fail());
      if (when === 'before its look') await replaceNotes();
      else arm();
      await expect(remote.removeEmptyFolder?.('/notes/deep')).resolves.toBeUndefined();
      expect(fired()).toBe(when !== 'before its look');
    },
  );

  it.each([
    { folder: '/notes/', listed: ['/g.md'] },
    { folder: '/notes/deep/', listed: ['/g.md', '/notes/b.md'] },
  ])('lists as holding nothing a folder whose walk finds a file at $folder or above', async ({ folder, listed }) => {
    const { remote, arm, fired } = await setup({ method: 'PROPFIND', path: folder });
    arm();
    expect((await remote.list()).map((file) => file.path).sort()).toEqual(listed);
    expect(fired()).toBe(true);
  });
});

function fail(): never {
  throw new Error('not listed');
}
