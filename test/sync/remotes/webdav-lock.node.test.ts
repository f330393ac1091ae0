// The lock around a WebDAV update, on a real Apache mod_dav (src/sync/remotes/webdav-lock.ts). Apache checks a PUT's
// If-Match when its headers arrive and writes when its body has: another client's whole write can land in between,
// both are told 204, each reads back its own text, and the text that lands last was written blind to the other.

import { Buffer } from 'node:buffer';
import { readFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { isSyncRemoteError, type RemoteFile, type SyncRemote } from '../../../src/sync/remote.js';
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

let folders = 0;

const client = (folder: string, fetchImpl?: typeof fetch): SyncRemote =>
  webdavRemote({
    url: `${server.url}${folder}/`,
    username: server.username,
    password: server.password,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });

/**
 * A fetch whose PUT bodies wait for `release()`: Apache has the headers (and has checked If-Match) while the text is
 * still on its way. `started` settles once such a PUT is sent; `methods` are the requests made.
 */
function heldPuts(): { fetch: typeof fetch; started: Promise<void>; release: () => void; methods: string[] } {
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  let begin!: () => void;
  const started = new Promise<void>((done) => (begin = done));
  const methods: string[] = [];
  const held: typeof fetch = (input, init) => {
    methods.push(init?.method ?? 'GET');
    if (init?.method !== 'PUT' || typeof init.body !== 'string') return fetch(input, init);
    const bytes = Buffer.from(init.body);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await released;
        controller.enqueue(bytes);
        controller.close();
      },
    });
    begin();
    const headers = new Headers(init.headers);
    headers.set('Content-Length', String(bytes.length));
    return fetch(input, { ...init, headers, body, duplex: 'half' } as RequestInit);
  };
  return { fetch: held, started, release, methods };
}

/** `path` written with `v0`, its mtime set an hour back, as `remote` lists it then (under a strong tag). */
async function strongFile(remote: SyncRemote, folder: string, path: string): Promise<RemoteFile> {
  await remote.write(path, 'v0\n', null);
  const past = new Date(Date.now() - 3_600_000);
  await utimes(join(server.root, folder, path), past, past);
  const listed = (await remote.list()).find((file) => file.path === path);
  if (listed === undefined) throw new Error(`${path} is not listed`);
  return listed;
}

describe('a WebDAV update under a lock', () => {
  it('refuses another client’s update of the version it replaces while its own text is still on its way', async () => {
    const folder = `race${++folders}`;
    const slow = heldPuts();
    const [a, b] = [client(folder, slow.fetch), client(folder)];
    // The version both saw, its mtime an hour back: its tag is strong, so a's If-Match passes at once.
    const seen = await strongFile(b, folder, '/note.md');
    const first = a.write('/note.md', 'from a, a longer text\n', seen);
    await slow.started;
    // Without the lock Apache would take this whole write between a's check and a's text (both told 204).
    const error = await failure(b.write('/note.md', 'from b\n', seen));
    expect(error.kind).toBe('locked');
    slow.release();
    const kept = await first;
    expect(await readFile(join(server.root, folder, 'note.md'), 'utf8')).toBe('from a, a longer text\n');
    expect(slow.methods).toEqual(['LOCK', 'PUT', 'GET', 'UNLOCK']);
    // Let go: b, having looked again, replaces a's version.
    const [listed] = await b.list();
    expect(listed?.version).toBe(kept.version);
    await b.write('/note.md', 'from b, after a\n', kept);
    expect(await readFile(join(server.root, folder, 'note.md'), 'utf8')).toBe('from b, after a\n');
  });

  it('refuses a client that does not lock (a file manager) while the lock is held: the write that had it stands', async () => {
    const folder = `manager${++folders}`;
    const slow = heldPuts();
    const a = client(folder, slow.fetch);
    const seen = await strongFile(client(folder), folder, '/n.md');
    const first = a.write('/n.md', 'from a\n', seen);
    await slow.started;
    const authorization = `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}`;
    const manager = await fetch(`${server.url}${folder}/n.md`, { method: 'PUT', body: 'from c\n', headers: { authorization } });
    expect(manager.status).toBe(423);
    slow.release();
    await first;
    expect(await readFile(join(server.root, folder, 'n.md'), 'utf8')).toBe('from a\n');
  });

  it('leaves no file locked after many updates at once from one client (Apache loses a lock change when two meet)', async () => {
    // A server of its own, with a worker for each request at once (see `threads`).
    const roomy = await startApacheWebdav({ threads: 64 });
    onTestFinished(() => roomy.stop());
    const folder = `many${++folders}`;
    const a = webdavRemote({ url: `${roomy.url}${folder}/`, username: roomy.username, password: roomy.password });
    const names = Array.from({ length: 24 }, (_, index) => `/m${index}.md`);
    const versions = await Promise.all(names.map((name) => a.write(name, 'round 0\n', null)));
    // As the engine does: a write refused as `locked` is tried again (on its next pass). A PUT that reads the lock
    // database while a LOCK or UNLOCK of another file writes it can miss its own lock (412, nothing written).
    const update = async (index: number, text: string): Promise<void> => {
      for (let attempt = 0; ; attempt++) {
        try {
          versions[index] = await a.write(names[index] ?? '', text, versions[index] ?? null);
          return;
        } catch (error) {
          if (!isSyncRemoteError(error) || error.kind !== 'locked' || attempt === 10) throw error;
          await new Promise((wake) => setTimeout(wake, 100));
        }
      }
    };
    // Rounds enough that, sent side by side, the lock requests leave a file locked (3 of 3 runs).
    for (let round = 1; round <= 8; round++) await Promise.all(names.map((_, index) => update(index, `round ${round}\n`)));
    // A lock left behind answers a client without its token with 423 until it lapses (minutes).
    const authorization = `Basic ${Buffer.from(`${roomy.username}:${roomy.password}`).toString('base64')}`;
    const answers = await Promise.all(
      names.map(async (name) => (await fetch(`${roomy.url}${folder}${name}`, { method: 'PUT', body: 'after\n', headers: { authorization } })).status),
    );
    expect(answers.filter((status) => status === 423)).toEqual([]);
  });

  it('takes no lock that would make a file: an update of a file deleted meanwhile is a precondition, and nothing is there', async () => {
    const folder = `gone${++folders}`;
    const [a, b] = [client(folder), client(folder)];
    const seen = await a.write('/g.md', 'one\n', null);
    await b.delete(seen);
    expect((await failure(a.write('/g.md', 'two\n', seen))).kind).toBe('precondition');
    expect(await a.list()).toEqual([]);
  });

  it('lets go when its write is stopped mid-way, so the next client is not kept waiting for the lock to lapse', async () => {
    const folder = `stop${++folders}`;
    const stop = new AbortController();
    const methods: string[] = [];
    const a = client(folder, (input, init) => {
      methods.push(init?.method ?? 'GET');
      // The pass is stopped as its PUT goes out: after the lock was taken.
      if (init?.method === 'PUT') stop.abort();
      return fetch(input, init);
    });
    const b = client(folder);
    const seen = await strongFile(b, folder, '/f.md');
    expect((await failure(a.write('/f.md', 'from a\n', seen, { signal: stop.signal }))).kind).toBe('aborted');
    expect(methods).toEqual(['LOCK', 'PUT', 'UNLOCK']);
    await b.write('/f.md', 'from b\n', seen);
    expect(await readFile(join(server.root, folder, 'f.md'), 'utf8')).toBe('from b\n');
  });
});
