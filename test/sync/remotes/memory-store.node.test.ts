// The Memory Stores remote through the real SDK client against the loopback server: the SyncRemote contract (paths
// below the root, preconditions, conflicts, limits) and the kinds its failures arrive as.

import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryStoreRemote, type MemoryStoreRemoteOptions } from '../../../src/sync/remotes/memory-store.js';
import { SyncRemoteError, type RemoteErrorKind, type RemoteFile, type SyncRemote } from '../../../src/sync/remote.js';
import {
  startMemoryStoresServer,
  type MemoryStoresServer,
  type MemoryStoresServerOptions,
} from '../../servers/memory-stores-server.js';
import { ApiRefusal } from '../../servers/memory-stores/requests.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

let server: MemoryStoresServer;
let client: Anthropic;
let storeId: string;

async function start(options: MemoryStoresServerOptions = {}): Promise<void> {
  await server?.close();
  server = await startMemoryStoresServer(options);
  // The client's default retries, as an app would leave them: the remote must turn them off itself.
  client = new Anthropic({ apiKey: 'test', baseURL: server.url });
  storeId = server.createStore().id;
}

beforeEach(() => start());
afterEach(() => server.close());

function remoteOf(options: Partial<MemoryStoreRemoteOptions> = {}): SyncRemote {
  return memoryStoreRemote({ client, storeId, ...options });
}

/** Seeds a memory without HTTP, as another writer would have. */
function seed(path: string, content = `text of ${path}`) {
  return server.api.createMemory(storeId, { path, content });
}

/** The SyncRemoteError `call` fails with. */
async function failureOf(call: Promise<unknown>): Promise<SyncRemoteError> {
  const error: unknown = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof SyncRemoteError)) throw new Error(`expected a SyncRemoteError, got ${String(error)}`);
  return error;
}

async function kindOf(call: Promise<unknown>): Promise<RemoteErrorKind> {
  return (await failureOf(call)).kind;
}

const move = (remote: SyncRemote, file: RemoteFile, to: string) => {
  if (!remote.move) throw new Error('this remote moves');
  return remote.move(file, to);
};

describe('identity and limits', () => {
  it("names itself by store and root, and has the service's limits", () => {
    const remote = remoteOf();
    expect(remote.id).toBe(`memory-store:${storeId}/`);
    expect(remote.kind).toBe('memory-store');
    expect(remote.concurrency).toBe(6);
    expect(remote.limits).toEqual({ maxFileBytes: 102_400, maxFiles: 2000, maxPathBytes: 1024, maxSegments: 20 });
  });

  it("takes a folder as its root, with or without the trailing slash, and leaves the root's share of the path limits", () => {
    const remote = remoteOf({ pathPrefix: '/team/ü', concurrency: 2 });
    expect(remote.id).toBe(`memory-store:${storeId}/team/ü/`);
    expect(remote.concurrency).toBe(2);
    expect(remote.limits).toMatchObject({ maxPathBytes: 1024 - Buffer.byteLength('/team/ü'), maxSegments: 18 });
  });

  it('refuses a root that is no folder path, and a concurrency below 1', () => {
    expect(() => remoteOf({ pathPrefix: 'team/' })).toThrow(TypeError);
    expect(() => remoteOf({ pathPrefix: '/a//b/' })).toThrow(TypeError);
    expect(() => remoteOf({ concurrency: 0 })).toThrow(RangeError);
  });
});

describe('list and read', () => {
  it('lists every memory across pages of 100, without content, one request a page', async () => {
    for (let i = 0; i < 250; i++) seed(`/notes/${String(i).padStart(3, '0')}.md`, `note ${i}`);
    server.reset();
    const files = await remoteOf().list();
    expect(files).toHaveLength(250);
    const memory = [...server.api.listMemories(storeId, { limit: '1' }).data][0];
    expect(files[0]).toEqual({
      path: '/notes/000.md',
      version: memory && 'memory_version_id' in memory ? memory.memory_version_id : '',
      sha256: sha256('note 0'),
      id: memory && 'id' in memory ? memory.id : '',
      size: 6,
    });
    expect(server.requests.map((request) => request.query)).toEqual([
      { depth: '0', view: 'basic', limit: '100' },
      expect.objectContaining({ depth: '0', view: 'basic', limit: '100', page: expect.any(String) }),
      expect.objectContaining({ page: expect.any(String) }),
    ]);
  });

  it('lists only what is below its root, with paths below the root', async () => {
    seed('/team/a.md');
    seed('/team/deep/b.md');
    seed('/team-archive/c.md');
    seed('/d.md');
    server.reset();
    const files = await remoteOf({ pathPrefix: '/team/' }).list();
    expect(files.map((file) => file.path).sort()).toEqual(['/a.md', '/deep/b.md']);
    expect(server.requests[0]?.query).toMatchObject({ path_prefix: '/team/' });
  });

  it("reads a file's text with what the store now says of it", async () => {
    const remote = remoteOf({ pathPrefix: '/team/' });
    seed('/team/a.md', 'alpha');
    const [file] = await remote.list();
    if (!file) throw new Error('listed');
    await expect(remote.read(file)).resolves.toEqual({ file, text: 'alpha' });
  });

  it('reads a renamed memory where it is now, and a deleted one as not-found', async () => {
    const remote = remoteOf();
    const memory = seed('/a.md', 'alpha');
    const [file] = await remote.list();
    if (!file) throw new Error('listed');
    server.api.updateMemory(storeId, memory.id, { path: '/b.md' });
    await expect(remote.read(file)).resolves.toMatchObject({ file: { path: '/b.md', id: memory.id }, text: 'alpha' });
    server.api.deleteMemory(storeId, memory.id);
    expect(await kindOf(remote.read(file))).toBe('not-found');
  });
});

describe('write', () => {
  it('creates a file at a free path, and answers what a listing would show', async () => {
    const remote = remoteOf({ pathPrefix: '/team/' });
    const file = await remote.write('/notes/a.md', 'alpha', null);
    expect(file).toMatchObject({ path: '/notes/a.md', sha256: sha256('alpha'), size: 5 });
    expect(await remote.list()).toEqual([file]);
    expect(server.api.listMemories(storeId).data.map((item) => item.path)).toEqual(['/team/notes/a.md']);
  });

  it('refuses to create over a file that appeared, as precondition naming the path', async () => {
    seed('/team/a.md');
    const error = await failureOf(remoteOf({ pathPrefix: '/team/' }).write('/a.md', 'mine', null));
    expect(error).toMatchObject({ kind: 'precondition', status: 409, conflictingPath: '/a.md' });
  });

  it('refuses a path that overlaps a file, as path-conflict naming it below the root', async () => {
    const remote = remoteOf({ pathPrefix: '/team/' });
    seed('/team/notes');
    expect(await failureOf(remote.write('/notes/todo.md', 'x', null))).toMatchObject({
      kind: 'path-conflict',
      conflictingPath: '/notes',
    });
    seed('/team/projects/a/b.md');
    expect(await failureOf(remote.write('/projects', 'x', null))).toMatchObject({
      kind: 'path-conflict',
      conflictingPath: '/projects/a/b.md',
    });
  });

  it('updates a file unchanged since it was seen: same id, new version', async () => {
    const remote = remoteOf();
    const before = await remote.write('/a.md', 'one', null);
    const after = await remote.write('/a.md', 'two', before);
    expect(after).toMatchObject({ path: '/a.md', id: before.id, sha256: sha256('two') });
    expect(after.version).not.toBe(before.version);
    const update = server.requests.find(
      (request) => request.method === 'POST' && request.path.endsWith(`/${before.id}`),
    );
    expect(update).toBeDefined();
  });

  it('refuses to update a file changed since it was seen, as precondition, and changes nothing', async () => {
    const remote = remoteOf();
    const seen = await remote.write('/a.md', 'one', null);
    server.api.updateMemory(storeId, seen.id ?? '', { content: 'theirs' });
    server.reset();
    expect(await failureOf(remote.write('/a.md', 'mine', seen))).toMatchObject({ kind: 'precondition', status: 409 });
    // Sent once: the SDK's own retries (it retries a 409) are off.
    expect(server.requests).toHaveLength(1);
    expect(server.api.retrieveMemory(storeId, seen.id ?? '').content).toBe('theirs');
  });

  it('refuses to update a file deleted since it was seen, as precondition', async () => {
    const remote = remoteOf();
    const seen = await remote.write('/a.md', 'one', null);
    server.api.deleteMemory(storeId, seen.id ?? '');
    expect(await kindOf(remote.write('/a.md', 'two', seen))).toBe('precondition');
  });

  it('writes and renames at once when the path differs from the file seen', async () => {
    const remote = remoteOf();
    const seen = await remote.write('/a.md', 'one', null);
    const after = await remote.write('/b.md', 'two', seen);
    expect(after).toMatchObject({ path: '/b.md', id: seen.id, sha256: sha256('two') });
    expect((await remote.list()).map((file) => file.path)).toEqual(['/b.md']);
  });

  it('updates a file known only by path and version, when that version is still there', async () => {
    const remote = remoteOf();
    const seen = await remote.write('/a.md', 'one', null);
    await expect(remote.write('/a.md', 'two', { path: '/a.md', version: seen.version })).resolves.toMatchObject({
      id: seen.id,
    });
    expect(await kindOf(remote.write('/a.md', 'three', { path: '/a.md', version: seen.version }))).toBe('precondition');
    expect(
      await kindOf(remote.write('/a.md', 'three', { path: '/a.md', id: seen.id ?? '', version: seen.version })),
    ).toBe('precondition');
  });
});

describe('delete and move', () => {
  it('deletes a file unchanged since it was seen', async () => {
    const remote = remoteOf();
    const seen = await remote.write('/a.md', 'one', null);
    await remote.delete(seen);
    expect(await remote.list()).toEqual([]);
    const sent = server.requests.find((request) => request.method === 'DELETE');
    expect(sent?.query).toEqual({ expected_content_sha256: sha256('one') });
  });

  it('refuses to delete a file changed since it was seen, as precondition, and keeps it', async () => {
    const remote = remoteOf();
    const seen = await remote.write('/a.md', 'one', null);
    server.api.updateMemory(storeId, seen.id ?? '', { content: 'theirs' });
    expect(await kindOf(remote.delete(seen))).toBe('precondition');
    expect(await remote.list()).toHaveLength(1);
  });

  it('takes a file already gone as deleted', async () => {
    const remote = remoteOf();
    const seen = await remote.write('/a.md', 'one', null);
    server.api.deleteMemory(storeId, seen.id ?? '');
    await expect(remote.delete(seen)).resolves.toBeUndefined();
    await expect(remote.delete({ path: '/a.md', version: seen.version })).resolves.toBeUndefined();
  });

  it('moves a file: the id and content stay, the path and version change', async () => {
    const remote = remoteOf({ pathPrefix: '/team/' });
    const seen = await remote.write('/a.md', 'one', null);
    const moved = await move(remote, seen, '/archive/a.md');
    expect(moved).toMatchObject({ path: '/archive/a.md', id: seen.id, sha256: seen.sha256 });
    expect(moved.version).not.toBe(seen.version);
    expect(server.api.retrieveMemory(storeId, seen.id ?? '').path).toBe('/team/archive/a.md');
  });

  it('refuses to move a changed file, or onto a taken path', async () => {
    const remote = remoteOf();
    const seen = await remote.write('/a.md', 'one', null);
    await remote.write('/b.md', 'other', null);
    expect(await failureOf(move(remote, seen, '/b.md'))).toMatchObject({
      kind: 'precondition',
      conflictingPath: '/b.md',
    });
    expect(await failureOf(move(remote, seen, '/b.md/c.md'))).toMatchObject({
      kind: 'path-conflict',
      conflictingPath: '/b.md',
    });
    server.api.updateMemory(storeId, seen.id ?? '', { content: 'theirs' });
    expect(await kindOf(move(remote, seen, '/c.md'))).toBe('precondition');
  });
});

describe('refusals before sending', () => {
  it('refuses a path the service would refuse, without a request', async () => {
    const remote = remoteOf({ pathPrefix: '/team/' });
    server.reset();
    for (const path of [
      'a.md',
      '/a//b.md',
      '/a/../b.md',
      '/cafe\u0301.md',
      '/zero\u200bwidth.md',
      `/${'x'.repeat(1019)}`,
    ]) {
      expect(await kindOf(remote.write(path, 'x', null))).toBe('refused-path');
    }
    expect(await kindOf(remote.write(`/${Array.from({ length: 20 }, () => 's').join('/')}`, 'x', null))).toBe(
      'refused-path',
    );
    expect(server.requests).toEqual([]);
    await expect(remote.write(`/${'x'.repeat(1018)}`, 'x', null)).resolves.toBeDefined();
  });

  it('refuses a text over 102,400 bytes as too-large, without a request', async () => {
    const remote = remoteOf();
    server.reset();
    expect(await kindOf(remote.write('/big.md', `${'é'.repeat(51_200)}x`, null))).toBe('too-large');
    expect(server.requests).toEqual([]);
    await expect(remote.write('/big.md', 'é'.repeat(51_200), null)).resolves.toMatchObject({ size: 102_400 });
  });

  it("words the store's count limit as full", async () => {
    await start({ maxMemories: 2 });
    const remote = remoteOf();
    await remote.write('/1.md', 'x', null);
    await remote.write('/2.md', 'x', null);
    expect(await failureOf(remote.write('/3.md', 'x', null))).toMatchObject({ kind: 'full', status: 400 });
  });

  it('words a service refusal of content size as too-large', async () => {
    await start({ maxContentBytes: 4 });
    expect(await kindOf(remoteOf().write('/a.md', 'too long', null))).toBe('too-large');
  });
});

describe('failure kinds', () => {
  it('words a 500 as server after one request: the engine, not the SDK, retries', async () => {
    server.reset();
    server.fail({ status: 500 });
    expect(await failureOf(remoteOf().list())).toMatchObject({ kind: 'server', status: 500 });
    expect(server.requests).toHaveLength(1);
  });

  it('words a 429 as rate-limited with its Retry-After, in seconds or milliseconds', async () => {
    server.fail({ status: 429, retryAfter: '3' });
    expect(await failureOf(remoteOf().list())).toMatchObject({ kind: 'rate-limited', status: 429, retryAfterMs: 3000 });
    server.fail({ status: 429, retryAfterMs: 250 });
    expect(await failureOf(remoteOf().list())).toMatchObject({ kind: 'rate-limited', retryAfterMs: 250 });
    server.fail({ status: 529 });
    expect(await failureOf(remoteOf().list())).toMatchObject({ kind: 'server', status: 529 });
  });

  it('words a refused key and a missing right as auth', async () => {
    await start({ apiKey: 'right' });
    expect(await kindOf(remoteOf().list())).toBe('auth');
    server.fail({ status: 403 });
    expect(await kindOf(remoteOf().list())).toBe('auth');
  });

  it('words a closed port as network', async () => {
    await server.close();
    expect(await kindOf(remoteOf().list())).toBe('network');
  });

  it('words an answer it does not know as protocol, and a store that is not there as not-found', async () => {
    server.fail({ status: 418, type: 'invalid_request_error' });
    expect(await kindOf(remoteOf().list())).toBe('protocol');
    expect(await kindOf(remoteOf({ storeId: 'memstore_nothing' }).list())).toBe('not-found');
  });

  it('stops a call when its signal aborts, as aborted', async () => {
    server.latencyMs = 2000;
    const controller = new AbortController();
    const started = performance.now();
    const listing = remoteOf().list({ signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    expect(await kindOf(listing)).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('sends nothing for a signal aborted already', async () => {
    server.reset();
    expect(await kindOf(remoteOf().write('/a.md', 'x', null, { signal: AbortSignal.abort() }))).toBe('aborted');
    expect(server.requests).toEqual([]);
  });

  it('sends the workspace with every call', async () => {
    server.reset();
    const remote = remoteOf({ workspaceId: 'wrkspc_test' });
    const file = await remote.write('/a.md', 'x', null);
    await remote.read(file);
    await remote.list();
    expect(server.requests.map((request) => request.headers['anthropic-workspace-id'])).toEqual([
      'wrkspc_test',
      'wrkspc_test',
      'wrkspc_test',
    ]);
  });
});

describe('readMany', () => {
  it("brings many texts through each folder's listing with content, 20 a page, and no read per file", async () => {
    for (let i = 0; i < 45; i++) seed(`/a/f${i}.md`);
    for (let i = 0; i < 5; i++) seed(`/b/g${i}.md`);
    seed('/a/not-wanted.md');
    const remote = remoteOf();
    const files = (await remote.list()).filter((file) => !file.path.endsWith('not-wanted.md'));
    server.reset();
    const texts = await remote.readMany?.(files);
    expect(texts?.size).toBe(50);
    expect(texts?.get('/a/f7.md')).toMatchObject({ text: 'text of /a/f7.md', file: { path: '/a/f7.md', sha256: sha256('text of /a/f7.md') } });
    expect(texts?.has('/a/not-wanted.md')).toBe(false);
    const calls = server.requests.filter((request) => request.method !== 'OPTIONS');
    // /a/: 46 memories, 3 pages; /b/: 1 page. Listings only, each with content.
    expect(calls.map((request) => request.path.endsWith('/memories'))).toEqual([true, true, true, true]);
    expect(calls.every((request) => request.query['view'] === 'full' && request.query['depth'] === '1')).toBe(true);
  });

  it('reads below a pathPrefix root, mapping paths back', async () => {
    seed('/team/x.md', 'x');
    seed('/other/y.md', 'y');
    const remote = remoteOf({ pathPrefix: '/team/' });
    const files = await remote.list();
    const texts = await remote.readMany?.(files);
    expect([...(texts?.entries() ?? [])].map(([path, read]) => [path, read.text])).toEqual([['/x.md', 'x']]);
  });
});

describe('a hostile or broken service', () => {
  const isList = (request: { method: string; path: string }) =>
    request.method === 'GET' && request.path.endsWith('/memories');
  const isRetrieve = (request: { method: string; path: string }) =>
    request.method === 'GET' && /\/memories\/[^/]+$/.test(request.path);

  it('refuses a memory answered with content: null as unreadable, never an empty text', async () => {
    seed('/a.md', 'the real text');
    seed('/b.md', 'b');
    server.tamper((request, answer) => {
      const body = answer() as Record<string, unknown>;
      if (isRetrieve(request)) return { ...body, content: null };
      if (isList(request) && Array.isArray(body['data'])) {
        return { ...body, data: body['data'].map((item: Record<string, unknown>) => ({ ...item, content: null })) };
      }
      return body;
    });
    const remote = remoteOf();
    const files = await remote.list();
    const a = files.find((file) => file.path === '/a.md');
    if (!a) throw new Error('a.md is listed');
    const error = await failureOf(remote.read(a));
    expect(error.kind).toBe('unreadable');
    expect((await remote.readMany?.(files))?.size).toBe(0);
  });

  it('lists an entry with a bad path or id as refused, with its reason cut, and the rest as usual', async () => {
    seed('/good.md');
    seed('/bad-id.md');
    seed('/bad-path.md');
    server.tamper((request, answer) => {
      const body = answer() as { data?: Record<string, unknown>[] };
      if (!isList(request) || !body.data) return body;
      const data = body.data.map((item) => {
        if (item['path'] === '/bad-id.md') return { ...item, id: null };
        if (item['path'] === '/bad-path.md') return { ...item, path: `/bad\u0000${'x'.repeat(1_000_000)}.md` };
        return item;
      });
      return { ...body, data };
    });
    const files = await remoteOf().list();
    expect(files.filter((file) => file.refused === undefined).map((file) => file.path)).toEqual(['/good.md']);
    const refused = files.filter((file) => file.refused !== undefined);
    expect(refused).toHaveLength(2);
    expect(refused.find((file) => file.path === '/bad-id.md')?.refused).toContain('no id');
    for (const file of refused) {
      expect(file.path.length).toBeLessThan(400);
      expect(file.refused?.length).toBeLessThan(800);
    }
  });

  it('fails a listing whose pages never end at maxPages, and a long one at maxEntries, as protocol', { timeout: 30_000 }, async () => {
    seed('/a.md');
    const endless = await new Promise<Record<string, unknown>>((resolve) => {
      server.tamper((request, answer) => {
        const body = answer() as Record<string, unknown>;
        if (isList(request)) resolve(body);
        return body;
      });
      void remoteOf().list();
    });
    server.tamper((request, answer) => (isList(request) ? { ...endless, next_page: 'page_again' } : answer()));
    const error = await failureOf(remoteOf({ maxPages: 30 }).list());
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('maxPages');
    expect(server.requests.filter(isList).length).toBeLessThanOrEqual(32);
    server.tamper(undefined);
    for (let i = 0; i < 30; i += 1) seed(`/m${i}.md`);
    expect(await failureOf(remoteOf({ maxEntries: 20 }).list())).toMatchObject({ kind: 'protocol' });
    expect(await remoteOf({ maxEntries: 31 }).list()).toHaveLength(31);
  });

  it('gives up on a request at timeoutMs as server (retried)', { timeout: 30_000 }, async () => {
    seed('/a.md');
    server.latencyMs = 5_000;
    const error = await failureOf(remoteOf({ timeoutMs: 100 }).list());
    expect(error.kind).toBe('server');
    expect(() => remoteOf({ timeoutMs: -1 })).toThrow();
  });

  it("cuts the service's words in a message", async () => {
    server.tamper(() => {
      throw new ApiRefusal(400, { type: 'invalid_request_error', message: 'y'.repeat(1_000_000) });
    });
    const error = await failureOf(remoteOf().list());
    expect(error.message.length).toBeLessThan(1000);
  });
});
