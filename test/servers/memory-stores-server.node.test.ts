// The loopback Memory Stores server checked against the real SDK client: each rule it plays, as the SDK reads it.

import { createHash } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startMemoryStoresServer,
  type MemoryStoresServer,
  type MemoryStoresServerOptions,
} from './memory-stores-server.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

let server: MemoryStoresServer;
let client: Anthropic;
let storeId: string;

async function start(options: MemoryStoresServerOptions = {}): Promise<void> {
  await server?.close();
  server = await startMemoryStoresServer(options);
  // No SDK retries unless a test asks: a refusal arrives at once, and each request is counted once.
  client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
  storeId = server.createStore().id;
}

beforeEach(() => start());
afterEach(() => server.close());

const memories = () => client.beta.memoryStores.memories;
const create = (path: string, content = `text of ${path}`) => memories().create(storeId, { path, content });

/** The rejection of `call`, for a closer look than `rejects` gives. */
async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof Anthropic.APIError>> {
  const error: unknown = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Anthropic.APIError)) throw new Error(`expected an APIError, got ${String(error)}`);
  return error;
}

async function listAll(params: Anthropic.Beta.MemoryStores.MemoryListParams = {}) {
  const items: Anthropic.Beta.MemoryStores.BetaManagedAgentsMemoryListItem[] = [];
  for await (const item of memories().list(storeId, params)) items.push(item);
  return items;
}

describe('memory stores', () => {
  it('creates a store and retrieves it by id', async () => {
    const store = await client.beta.memoryStores.create({ name: 'Team notes', description: 'What we know' });
    expect(store).toMatchObject({
      type: 'memory_store',
      name: 'Team notes',
      description: 'What we know',
      archived_at: null,
    });
    expect(store.id).toMatch(/^memstore_/);
    await expect(client.beta.memoryStores.retrieve(store.id)).resolves.toEqual(store);
  });

  it('answers 404 not_found_error for a store that does not exist', async () => {
    const error = await refusal(memories().list('memstore_nothing'));
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect(error.type).toBe('not_found_error');
  });
});

describe('create and retrieve', () => {
  it('creates a memory that carries its hash, size and a first version, without content in the basic view', async () => {
    const memory = await create('/notes/todo.md', 'héllo');
    expect(memory).toMatchObject({
      type: 'memory',
      memory_store_id: storeId,
      path: '/notes/todo.md',
      content: null,
      content_sha256: sha256('héllo'),
      content_size_bytes: 6,
    });
    expect(memory.id).toMatch(/^mem_/);
    expect(memory.memory_version_id).toMatch(/^memver_/);
  });

  it('retrieves a memory with its content by default, and without it in the basic view', async () => {
    const { id } = await create('/a.md', 'alpha');
    await expect(memories().retrieve(id, { memory_store_id: storeId })).resolves.toMatchObject({ content: 'alpha' });
    await expect(memories().retrieve(id, { memory_store_id: storeId, view: 'basic' })).resolves.toMatchObject({
      content: null,
    });
  });

  it('answers 404 for a memory that does not exist', async () => {
    const error = await refusal(memories().retrieve('mem_nothing', { memory_store_id: storeId }));
    expect(error.status).toBe(404);
  });
});

describe('path rules', () => {
  const invalid: [string, string][] = [
    ['no leading slash', 'notes.md'],
    ['the root alone', '/'],
    ['an empty segment', '/a//b.md'],
    ['a trailing slash', '/a/'],
    ['a "." segment', '/a/./b.md'],
    ['a ".." segment', '/a/../b.md'],
    ['21 segments', `/${Array.from({ length: 21 }, () => 's').join('/')}`],
    ['1,025 bytes', `/${'x'.repeat(1024)}`],
    ['a control character', '/bell\u0007.md'],
    ['a format character', '/zero\u200bwidth.md'],
    ['U+2028', '/line\u2028sep.md'],
    ['U+2029', '/para\u2029sep.md'],
    ['a decomposed (NFD) accent', '/cafe\u0301.md'],
  ];
  it.each(invalid)('refuses a path with %s: 400 invalid_request_error', async (_, path) => {
    const error = await refusal(create(path));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.type).toBe('invalid_request_error');
  });

  it('takes 20 segments and 1,024 bytes exactly', async () => {
    await expect(create(`/${Array.from({ length: 20 }, () => 's').join('/')}`)).resolves.toBeDefined();
    await expect(create(`/${'é'.repeat(511)}x`)).resolves.toMatchObject({ path: `/${'é'.repeat(511)}x` });
  });

  it('refuses a rename to an invalid path', async () => {
    const { id } = await create('/a.md');
    expect((await refusal(memories().update(id, { memory_store_id: storeId, path: '/a/../b.md' }))).status).toBe(400);
  });
});

describe('path conflicts', () => {
  it('refuses a taken path with 409 memory_path_conflict_error naming the path and the memory there', async () => {
    const taken = await create('/notes/todo.md');
    const error = await refusal(create('/notes/todo.md'));
    expect(error).toBeInstanceOf(Anthropic.ConflictError);
    expect(error.error).toMatchObject({
      type: 'error',
      error: {
        type: 'memory_path_conflict_error',
        conflicting_path: '/notes/todo.md',
        conflicting_memory_id: taken.id,
      },
    });
  });

  it('refuses a path below a memory and a path above one, naming the memory in the way', async () => {
    const file = await create('/notes');
    expect((await refusal(create('/notes/todo.md'))).error).toMatchObject({
      error: { type: 'memory_path_conflict_error', conflicting_path: '/notes', conflicting_memory_id: file.id },
    });
    const deep = await create('/projects/a/b.md');
    expect((await refusal(create('/projects'))).error).toMatchObject({
      error: { conflicting_path: '/projects/a/b.md', conflicting_memory_id: deep.id },
    });
  });

  it('matches whole segments only: /notes does not block /notes-archive/x.md', async () => {
    await create('/notes');
    await expect(create('/notes-archive/x.md')).resolves.toBeDefined();
  });

  it('refuses a rename onto another memory, and lets a memory move below its own old path', async () => {
    const a = await create('/a.md');
    await create('/b.md');
    expect((await refusal(memories().update(a.id, { memory_store_id: storeId, path: '/b.md' }))).type).toBe(
      'memory_path_conflict_error',
    );
    await expect(memories().update(a.id, { memory_store_id: storeId, path: '/a.md/inner.md' })).resolves.toMatchObject({
      path: '/a.md/inner.md',
    });
  });
});

describe('update', () => {
  it('writes new content under the same id and a new version id', async () => {
    const before = await create('/a.md', 'one');
    const after = await memories().update(before.id, { memory_store_id: storeId, content: 'two' });
    expect(after).toMatchObject({ id: before.id, path: '/a.md', content_sha256: sha256('two'), content: null });
    expect(after.memory_version_id).not.toBe(before.memory_version_id);
  });

  it('renames a memory: the id stays, its content too, and the version id changes', async () => {
    const before = await create('/a.md', 'one');
    const after = await memories().update(before.id, { memory_store_id: storeId, path: '/b/c.md' });
    expect(after).toMatchObject({ id: before.id, path: '/b/c.md', content_sha256: before.content_sha256 });
    expect(after.memory_version_id).not.toBe(before.memory_version_id);
    expect((await listAll()).map((item) => item.path)).toEqual(['/b/c.md']);
  });

  it('writes nothing, and keeps the version id, when content and path are already as asked', async () => {
    const before = await create('/a.md', 'one');
    const after = await memories().update(before.id, { memory_store_id: storeId, content: 'one', path: '/a.md' });
    expect(after.memory_version_id).toBe(before.memory_version_id);
  });

  it('applies a content_sha256 precondition that holds', async () => {
    const before = await create('/a.md', 'one');
    const precondition = { type: 'content_sha256', content_sha256: sha256('one') } as const;
    await expect(
      memories().update(before.id, { memory_store_id: storeId, content: 'two', precondition }),
    ).resolves.toMatchObject({
      content_sha256: sha256('two'),
    });
  });

  it('refuses a stale precondition with 409 memory_precondition_failed_error and changes nothing', async () => {
    const before = await create('/a.md', 'one');
    const precondition = { type: 'content_sha256', content_sha256: sha256('zero') } as const;
    const error = await refusal(
      memories().update(before.id, { memory_store_id: storeId, content: 'two', path: '/b.md', precondition }),
    );
    expect(error).toBeInstanceOf(Anthropic.ConflictError);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'memory_precondition_failed_error' } });
    await expect(memories().retrieve(before.id, { memory_store_id: storeId })).resolves.toMatchObject({
      path: '/a.md',
      content: 'one',
    });
  });

  it('succeeds despite a stale precondition when the memory already holds that content at that path', async () => {
    const before = await create('/a.md', 'one');
    const precondition = { type: 'content_sha256', content_sha256: sha256('zero') } as const;
    await expect(
      memories().update(before.id, { memory_store_id: storeId, content: 'one', precondition }),
    ).resolves.toMatchObject({
      memory_version_id: before.memory_version_id,
    });
  });

  it('refuses a field the API does not take', async () => {
    const { id } = await create('/a.md');
    const body = {
      memory_store_id: storeId,
      content: 'x',
      colour: 'red',
    } as Anthropic.Beta.MemoryStores.MemoryUpdateParams;
    expect((await refusal(memories().update(id, body))).status).toBe(400);
  });
});

describe('limits', () => {
  it('takes 102,400 bytes of content and refuses one byte more with 400', async () => {
    await expect(create('/full.md', 'é'.repeat(51_200))).resolves.toMatchObject({ content_size_bytes: 102_400 });
    const error = await refusal(create('/over.md', `${'é'.repeat(51_200)}x`));
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
  });

  it("refuses a memory past the store's count limit, and takes one again after a delete", async () => {
    await start({ maxMemories: 2 });
    const first = await create('/1.md');
    await create('/2.md');
    const error = await refusal(create('/3.md'));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/maximum number of memories/);
    await memories().delete(first.id, { memory_store_id: storeId });
    await expect(create('/3.md')).resolves.toBeDefined();
  });

  it('refuses content over a configured size', async () => {
    await start({ maxContentBytes: 10 });
    expect((await refusal(create('/a.md', 'x'.repeat(11)))).status).toBe(400);
  });
});

describe('list', () => {
  beforeEach(async () => {
    for (const path of ['/z.md', '/notes/b.md', '/notes/a.md', '/notes/deep/c.md', '/notes-archive/old.md', '/a.md']) {
      await create(path);
    }
  });

  it('lists every memory sorted by path, without content, by default', async () => {
    const items = await listAll();
    expect(items.map((item) => item.path)).toEqual([
      '/a.md',
      '/notes-archive/old.md',
      '/notes/a.md',
      '/notes/b.md',
      '/notes/deep/c.md',
      '/z.md',
    ]);
    expect(items.every((item) => item.type === 'memory' && item.content === null)).toBe(true);
  });

  it('lists below a path_prefix by whole segments', async () => {
    const items = await listAll({ path_prefix: '/notes/' });
    expect(items.map((item) => item.path)).toEqual(['/notes/a.md', '/notes/b.md', '/notes/deep/c.md']);
  });

  it('refuses a path_prefix that does not end with "/"', async () => {
    expect((await refusal(memories().list(storeId, { path_prefix: '/notes' }))).status).toBe(400);
  });

  it('lists direct children and memory_prefix markers at depth 1', async () => {
    expect(await listAll({ depth: 1 })).toEqual([
      expect.objectContaining({ type: 'memory', path: '/a.md' }),
      { type: 'memory_prefix', path: '/notes-archive/' },
      { type: 'memory_prefix', path: '/notes/' },
      expect.objectContaining({ type: 'memory', path: '/z.md' }),
    ]);
    expect(await listAll({ depth: 1, path_prefix: '/notes/' })).toEqual([
      expect.objectContaining({ path: '/notes/a.md' }),
      expect.objectContaining({ path: '/notes/b.md' }),
      { type: 'memory_prefix', path: '/notes/deep/' },
    ]);
  });

  it('walks every page through the SDK iterator, one request a page, each page after the last', async () => {
    server.reset();
    const items = await listAll({ limit: 2 });
    expect(items).toHaveLength(6);
    expect(server.requests.map((request) => request.query.page === undefined)).toEqual([true, false, false]);
    expect(server.requests.every((request) => request.query.limit === '2')).toBe(true);
  });

  it('gives the last page a null next_page', async () => {
    const page = await memories().list(storeId, { limit: 6 });
    expect(page.data).toHaveLength(6);
    expect(page.next_page).toBeNull();
    expect(page.hasNextPage()).toBe(false);
  });

  it('continues after the last path shown when memories come and go between pages', async () => {
    const first = await memories().list(storeId, { limit: 2 });
    expect(first.data.map((item) => item.path)).toEqual(['/a.md', '/notes-archive/old.md']);
    await create('/b.md');
    const second = await first.getNextPage();
    expect(second.data.map((item) => item.path)).toEqual(['/notes/a.md', '/notes/b.md']);
  });

  it('uses its default page size without a limit', async () => {
    await start({ pageSize: 4 });
    for (const path of ['/1', '/2', '/3', '/4', '/5']) await create(path);
    const page = await memories().list(storeId);
    expect(page.data).toHaveLength(4);
    expect(page.next_page).not.toBeNull();
  });

  it('includes content with view=full, and caps its pages at 20 items', async () => {
    for (let i = 0; i < 20; i++) await create(`/many/${String(i).padStart(2, '0')}.md`, `n${i}`);
    const page = await memories().list(storeId, { view: 'full', limit: 100 });
    expect(page.data).toHaveLength(20);
    expect(page.data[0]).toMatchObject({ path: '/a.md', content: 'text of /a.md' });
    expect((await listAll({ view: 'full', limit: 100 })).length).toBe(26);
  });

  it('takes a limit of 100 and refuses 101', async () => {
    await expect(memories().list(storeId, { limit: 100 })).resolves.toBeDefined();
    expect((await refusal(memories().list(storeId, { limit: 101 }))).status).toBe(400);
  });

  it('refuses a page cursor from another listing', async () => {
    const first = await memories().list(storeId, { limit: 2 });
    const cursor = first.next_page ?? '';
    expect((await refusal(memories().list(storeId, { limit: 2, path_prefix: '/notes/', page: cursor }))).status).toBe(
      400,
    );
    expect((await refusal(memories().list(storeId, { page: 'garbage' }))).status).toBe(400);
  });
});

describe('delete', () => {
  it('deletes a memory whose content still has the expected hash', async () => {
    const { id } = await create('/a.md', 'one');
    await expect(
      memories().delete(id, { memory_store_id: storeId, expected_content_sha256: sha256('one') }),
    ).resolves.toEqual({
      id,
      type: 'memory_deleted',
    });
    expect((await refusal(memories().retrieve(id, { memory_store_id: storeId }))).status).toBe(404);
    expect((await refusal(memories().delete(id, { memory_store_id: storeId }))).status).toBe(404);
  });

  it('refuses a stale expected_content_sha256 with 409 and keeps the memory', async () => {
    const { id } = await create('/a.md', 'one');
    const error = await refusal(
      memories().delete(id, { memory_store_id: storeId, expected_content_sha256: sha256('two') }),
    );
    expect(error.status).toBe(409);
    expect(error.type).toBe('memory_precondition_failed_error');
    await expect(memories().retrieve(id, { memory_store_id: storeId })).resolves.toBeDefined();
  });
});

describe('memory versions', () => {
  it("keeps every version, newest first, a deleted memory's too", async () => {
    const created = await create('/a.md', 'one');
    const modified = await memories().update(created.id, { memory_store_id: storeId, content: 'two', path: '/b.md' });
    await memories().delete(created.id, { memory_store_id: storeId });
    const versions = [];
    for await (const version of client.beta.memoryStores.memoryVersions.list(storeId, {
      memory_id: created.id,
      limit: 1,
    })) {
      versions.push(version);
    }
    expect(versions.map((version) => [version.operation, version.path, version.content_sha256 ?? null])).toEqual([
      ['deleted', '/b.md', null],
      ['modified', '/b.md', sha256('two')],
      ['created', '/a.md', sha256('one')],
    ]);
    expect(versions[1]?.id).toBe(modified.memory_version_id);
    expect(versions.every((version) => version.content === null)).toBe(true);
  });

  it('retrieves a version with its content, after its memory is gone', async () => {
    const created = await create('/a.md', 'one');
    await memories().delete(created.id, { memory_store_id: storeId });
    await expect(
      client.beta.memoryStores.memoryVersions.retrieve(created.memory_version_id, { memory_store_id: storeId }),
    ).resolves.toMatchObject({ operation: 'created', content: 'one', memory_id: created.id });
  });

  it('filters versions by operation', async () => {
    const { id } = await create('/a.md', 'one');
    await memories().update(id, { memory_store_id: storeId, content: 'two' });
    const page = await client.beta.memoryStores.memoryVersions.list(storeId, { operation: 'created' });
    expect(page.data.map((version) => version.operation)).toEqual(['created']);
  });
});

describe('the HTTP edge', () => {
  const beta = { 'anthropic-beta': 'agent-memory-2026-07-22' };

  it('answers 401 authentication_error without x-api-key or a bearer token', async () => {
    const response = await fetch(`${server.url}/v1/memory_stores/${storeId}`, { headers: beta });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
      request_id: expect.any(String),
    });
  });

  it('takes a bearer token, and refuses a key other than the one configured', async () => {
    await start({ apiKey: 'right' });
    const bearer = new Anthropic({ authToken: 'right', apiKey: null, baseURL: server.url, maxRetries: 0 });
    await expect(bearer.beta.memoryStores.retrieve(storeId)).resolves.toBeDefined();
    expect(await refusal(client.beta.memoryStores.retrieve(storeId))).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('requires the beta header', async () => {
    const response = await fetch(`${server.url}/v1/memory_stores/${storeId}`, { headers: { 'x-api-key': 'test' } });
    expect(response.status).toBe(400);
  });

  it('answers a CORS preflight for any requested headers, and lets any origin read answers', async () => {
    const preflight = await fetch(`${server.url}/v1/memory_stores/${storeId}/memories`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://page.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, anthropic-beta, x-stainless-os',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('x-api-key, anthropic-beta, x-stainless-os');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE');
    const answer = await fetch(`${server.url}/v1/memory_stores/${storeId}`, { headers: { ...beta, 'x-api-key': 'k' } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('logs each request with its method, path, query and headers, until reset', async () => {
    server.reset();
    await memories().list(storeId, { path_prefix: '/x/', workspace_id: 'wrkspc_1' });
    expect(server.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: `/v1/memory_stores/${storeId}/memories`,
        query: { path_prefix: '/x/' },
        headers: expect.objectContaining({
          'anthropic-workspace-id': 'wrkspc_1',
          'anthropic-beta': 'agent-memory-2026-07-22',
        }),
      }),
    ]);
    server.reset();
    expect(server.requests).toEqual([]);
  });

  it('injects a 500 once, which the SDK retries by itself', async () => {
    const retrying = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 2 });
    server.reset();
    server.fail({ status: 500 });
    await expect(retrying.beta.memoryStores.retrieve(storeId)).resolves.toBeDefined();
    expect(server.requests).toHaveLength(2);
  });

  it('injects a 429 with its retry-after, as many times as asked', async () => {
    server.fail({ status: 429, times: 2, retryAfter: '7' });
    const first = await refusal(client.beta.memoryStores.retrieve(storeId));
    expect(first).toBeInstanceOf(Anthropic.RateLimitError);
    expect(first.headers?.get('retry-after')).toBe('7');
    expect(await refusal(client.beta.memoryStores.retrieve(storeId))).toBeInstanceOf(Anthropic.RateLimitError);
    await expect(client.beta.memoryStores.retrieve(storeId)).resolves.toBeDefined();
  });

  it('delays every answer by latencyMs', async () => {
    server.latencyMs = 120;
    const started = performance.now();
    await client.beta.memoryStores.retrieve(storeId);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('sees the SDK retry a lost precondition twice when the client keeps its default retries', async () => {
    const retrying = new Anthropic({ apiKey: 'test', baseURL: server.url });
    const { id } = await create('/a.md', 'one');
    server.reset();
    const precondition = { type: 'content_sha256', content_sha256: sha256('zero') } as const;
    const error = await refusal(
      retrying.beta.memoryStores.memories.update(id, { memory_store_id: storeId, content: 'x', precondition }),
    );
    expect(error.status).toBe(409);
    // The SDK retries every 409 (as a lock timeout) unless the answer says `x-should-retry: false`.
    expect(server.requests).toHaveLength(3);
  });
});
