// Two clients writing one file at the same moment on a real Apache mod_dav: its If-Match is not atomic with the PUT,
// and its ETag is size and mtime, so two same-size texts written in one mtime tick share a tag. A client must never
// list, as the version it kept for its own text, a version that stands for the other client's text.

import { readFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../../../src/offline/abortable-sleep.js';
import type { RemoteFile, SyncRemote } from '../../../src/sync/remote.js';
import { webdavRemote } from '../../../src/sync/remotes/webdav.js';
import { WEAK_ETAG_WAIT_MS } from '../../../src/sync/remotes/webdav-versions.js';
import { startApacheWebdav, type ApacheWebdav } from '../../servers/apache-webdav.js';

let server: ApacheWebdav;
beforeAll(async () => {
  server = await startApacheWebdav();
});
afterAll(async () => {
  await server?.stop();
});

const client = (): SyncRemote =>
  webdavRemote({ url: `${server.url}tick/`, username: server.username, password: server.password });

/** Files raced one after the other, each by both clients at once; Apache gives both one tag in a few percent. */
const FILES = 300;

describe('WebDAV writes of one file by two clients at the same moment', () => {
  it('never leave a client listing the version it kept for its text while the remote holds the other text', async () => {
    const clients = [client(), client()] as const;
    const folder = join(server.root, 'tick');
    const paths = Array.from({ length: FILES }, (_, i) => `/f${i}.md`);
    // The version both clients last saw, its mtime an hour back: its tag is strong, so both If-Match pass at once.
    const past = new Date(Date.now() - 3_600_000);
    for (const path of paths) {
      await clients[0].write(path, 'v000 base', null);
      await utimes(join(folder, path), past, past);
    }
    const seen = new Map((await clients[0].list()).map((file) => [file.path, file]));
    const textOf = (i: number, path: string) => `${'ab'[i]}${path.slice(2, 5).padStart(3, '0')} edit`;
    const kept: PromiseSettledResult<RemoteFile>[][] = [];
    for (const path of paths) {
      kept.push(await Promise.allSettled(clients.map((remote, i) => remote.write(path, textOf(i, path), seen.get(path) ?? null))));
    }
    // Apache's tags turn strong a second after the writes: what each client lists is then what it keeps for good.
    await sleep(WEAK_ETAG_WAIT_MS);
    const listings = await Promise.all(clients.map((remote) => remote.list()));
    const wrong: string[] = [];
    const apart: { remote: SyncRemote; file: RemoteFile }[] = [];
    for (const [n, path] of paths.entries()) {
      const there = await readFile(join(folder, path), 'utf8');
      for (const [i, result] of (kept[n] ?? []).entries()) {
        if (result.status !== 'fulfilled') continue;
        const listed = listings[i]?.find((file) => file.path === path);
        if (listed?.version === result.value.version && there !== textOf(i, path)) {
          wrong.push(`client ${i} lists ${listed.version} for ${textOf(i, path)}, the remote holds ${there}`);
        } else if (listed !== undefined && listed.version !== result.value.version) apart.push({ remote: clients[i === 0 ? 0 : 1], file: listed });
      }
    }
    expect(wrong).toEqual([]);
    // A client told so reads the file, and from then on lists the version it read.
    for (const { remote, file } of apart) {
      const read = await remote.read(file);
      const again = (await remote.list()).find((listed) => listed.path === file.path);
      expect(again?.version).toBe(read.file.version);
    }
  });
});
