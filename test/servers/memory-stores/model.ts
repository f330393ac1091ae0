// The state behind the Memory Stores server: stores, their memories and every version written, with the API's rules
// for each call (preconditions, path conflicts, limits). Answers in the SDK's own types; refuses with ApiRefusal.

import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { Anthropic } from '@anthropic-ai/sdk';
import { comparePaths, listedAs, overlaps, pathProblem, prefixProblem } from './paths.js';
import { ApiRefusal, field, onlyFields, pageOf, pageParams, viewOf, type Body, type Query } from './requests.js';

export type Store = Anthropic.Beta.MemoryStores.BetaManagedAgentsMemoryStore;
export type Memory = Anthropic.Beta.MemoryStores.BetaManagedAgentsMemory;
export type ListItem = Anthropic.Beta.MemoryStores.BetaManagedAgentsMemoryListItem;
export type Version = Anthropic.Beta.MemoryStores.BetaManagedAgentsMemoryVersion;
export type DeletedMemory = Anthropic.Beta.MemoryStores.BetaManagedAgentsDeletedMemory;
type View = Anthropic.Beta.MemoryStores.BetaManagedAgentsMemoryView;

/** One page of a list call, as `PageCursor` reads it: `next_page` is the `page` to send next, null after the last. */
export interface PageBody<T> {
  data: T[];
  next_page: string | null;
}

export interface ModelLimits {
  /** Memories a store may hold (the service's is 2,000). */
  maxMemories: number;
  /** UTF-8 bytes a memory's content may take (the service's is 102,400). */
  maxContentBytes: number;
  /** Items in a page when the call gives no `limit`. */
  pageSize: number;
}

interface StoreState {
  store: Store;
  /** The live memories, by id; a memory's content lives here, each version keeps its own copy. */
  memories: Map<string, Memory & { content: string }>;
  /** Every version written, oldest first; a deleted memory's stay. */
  versions: Version[];
}

const SHA256 = /^[0-9a-f]{64}$/;
const ACTOR = { type: 'api_actor', api_key_id: 'apikey_loopback' } as const;

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** An in-memory Memory Stores service: the server routes each request to one method here. */
export class MemoryStoresModel {
  readonly #stores = new Map<string, StoreState>();
  #sequence = 0;

  constructor(readonly limits: ModelLimits) {}

  #id(prefix: string): string {
    this.#sequence += 1;
    return `${prefix}_loopback${String(this.#sequence).padStart(8, '0')}`;
  }

  #state(storeId: string): StoreState {
    const state = this.#stores.get(storeId);
    if (!state) throw new ApiRefusal(404, { type: 'not_found_error', message: `No memory store ${storeId}.` });
    return state;
  }

  #memory(storeId: string, memoryId: string): Memory & { content: string } {
    const memory = this.#state(storeId).memories.get(memoryId);
    if (!memory) throw new ApiRefusal(404, { type: 'not_found_error', message: `No memory ${memoryId}.` });
    return memory;
  }

  createStore(body: Body): Store {
    onlyFields(body, ['name', 'description', 'metadata']);
    const name = field(body, 'name', 'string');
    if (name === undefined || name.length < 1 || name.length > 255) {
      throw ApiRefusal.invalid('name must be 1 to 255 characters');
    }
    const now = new Date().toISOString();
    const store: Store = {
      id: this.#id('memstore'),
      type: 'memory_store',
      name,
      description: field(body, 'description', 'string') ?? '',
      metadata: {},
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    this.#stores.set(store.id, { store, memories: new Map(), versions: [] });
    return store;
  }

  retrieveStore(storeId: string): Store {
    return this.#state(storeId).store;
  }

  createMemory(storeId: string, body: Body, query: Query = {}): Memory {
    const state = this.#state(storeId);
    const view = viewOf(query, 'basic');
    onlyFields(body, ['path', 'content']);
    const path = field(body, 'path', 'string');
    const content = field(body, 'content', 'string');
    if (path === undefined) throw ApiRefusal.invalid('path is required');
    if (content === undefined) throw ApiRefusal.invalid('content is required (pass "" for an empty memory)');
    this.#checkPath(path);
    this.#checkContent(content);
    this.#checkFree(state, path, undefined);
    if (state.memories.size >= this.limits.maxMemories) {
      throw ApiRefusal.invalid(
        `The memory store already holds the maximum number of memories (${this.limits.maxMemories}).`,
      );
    }
    const now = new Date().toISOString();
    const memory = { id: this.#id('mem'), type: 'memory', memory_store_id: storeId, created_at: now } as const;
    const stored = this.#write(
      state,
      { ...memory, path, content, updated_at: now, ...sizeAndHash(content), memory_version_id: '' },
      'created',
    );
    return present(stored, view);
  }

  retrieveMemory(storeId: string, memoryId: string, query: Query = {}): Memory {
    return present(this.#memory(storeId, memoryId), viewOf(query, 'full'));
  }

  updateMemory(storeId: string, memoryId: string, body: Body, query: Query = {}): Memory {
    const state = this.#state(storeId);
    const view = viewOf(query, 'basic');
    const current = this.#memory(storeId, memoryId);
    onlyFields(body, ['content', 'path', 'precondition']);
    const content = field(body, 'content', 'string') ?? current.content;
    const path = field(body, 'path', 'string') ?? current.path;
    const precondition = field(body, 'precondition', 'object');
    if (path !== current.path) this.#checkPath(path);
    this.#checkContent(content);
    // Already as asked: nothing to write, and no precondition can fail (the API's rule).
    if (content === current.content && path === current.path) return present(current, view);
    if (precondition !== undefined) {
      if (precondition.type !== 'content_sha256')
        throw ApiRefusal.invalid('precondition.type must be "content_sha256"');
      const expected = precondition.content_sha256;
      if (typeof expected !== 'string' || !SHA256.test(expected)) {
        throw ApiRefusal.invalid('precondition.content_sha256 must be 64 lowercase hexadecimal characters');
      }
      if (expected !== current.content_sha256) throw preconditionFailed(memoryId);
    }
    if (path !== current.path) this.#checkFree(state, path, memoryId);
    const updated = { ...current, path, content, updated_at: new Date().toISOString(), ...sizeAndHash(content) };
    return present(this.#write(state, updated, 'modified'), view);
  }

  deleteMemory(storeId: string, memoryId: string, query: Query = {}): DeletedMemory {
    const state = this.#state(storeId);
    const current = this.#memory(storeId, memoryId);
    const expected = query.expected_content_sha256;
    if (expected !== undefined) {
      if (!SHA256.test(expected))
        throw ApiRefusal.invalid('expected_content_sha256 must be 64 lowercase hexadecimal characters');
      if (expected !== current.content_sha256) throw preconditionFailed(memoryId);
    }
    state.memories.delete(memoryId);
    state.versions.push({
      ...this.#versionBase(current, this.#id('memver')),
      operation: 'deleted',
      content: null,
      content_sha256: null,
      content_size_bytes: null,
    });
    return { id: memoryId, type: 'memory_deleted' };
  }

  listMemories(storeId: string, query: Query = {}): PageBody<ListItem> {
    const state = this.#state(storeId);
    const view = viewOf(query, 'basic');
    const prefix = query.path_prefix ?? '/';
    const prefixError = prefixProblem(prefix);
    if (prefixError !== undefined) throw ApiRefusal.invalid(prefixError);
    const depth = query.depth === undefined ? 0 : Number(query.depth);
    if (!Number.isInteger(depth) || depth < 0) throw ApiRefusal.invalid('depth must be a non-negative integer');
    const { limit, after } = pageParams(query, view, this.limits.pageSize, `${prefix}\n${depth}`);
    const items = new Map<string, ListItem>();
    for (const memory of state.memories.values()) {
      const shown = listedAs(memory.path, prefix, depth);
      if (shown === undefined) continue;
      if ('memory' in shown) items.set(memory.path, present(memory, view));
      else items.set(shown.folder, { type: 'memory_prefix', path: shown.folder });
    }
    const sorted = [...items.values()].sort((a, b) => comparePaths(a.path, b.path));
    const rest = after === undefined ? sorted : sorted.filter((item) => comparePaths(item.path, after) > 0);
    return pageOf(rest, limit, (item) => item.path, `${prefix}\n${depth}`);
  }

  listVersions(storeId: string, query: Query = {}): PageBody<Version> {
    const state = this.#state(storeId);
    const view = viewOf(query, 'basic');
    const filter = `${query.memory_id ?? ''}\n${query.operation ?? ''}`;
    const { limit, after } = pageParams(query, view, this.limits.pageSize, filter);
    // Newest first; a cursor names the last version shown, and older ones follow it.
    let newestFirst = [...state.versions].reverse();
    if (after !== undefined)
      newestFirst = newestFirst.slice(newestFirst.findIndex((version) => version.id === after) + 1);
    const matching = newestFirst.filter(
      (version) =>
        (query.memory_id === undefined || version.memory_id === query.memory_id) &&
        (query.operation === undefined || version.operation === query.operation),
    );
    return pageOf(
      matching.map((version) => presentVersion(version, view)),
      limit,
      (version) => version.id,
      filter,
    );
  }

  retrieveVersion(storeId: string, versionId: string, query: Query = {}): Version {
    const version = this.#state(storeId).versions.find((candidate) => candidate.id === versionId);
    if (!version) throw new ApiRefusal(404, { type: 'not_found_error', message: `No memory version ${versionId}.` });
    return presentVersion(version, viewOf(query, 'full'));
  }

  /** Blanks a version's content, path, size and hash for good (the API's redaction); the memory itself stays. */
  redactVersion(storeId: string, versionId: string): Version {
    const state = this.#state(storeId);
    const index = state.versions.findIndex((candidate) => candidate.id === versionId);
    const version = state.versions[index];
    if (!version) throw new ApiRefusal(404, { type: 'not_found_error', message: `No memory version ${versionId}.` });
    if (version.redacted_at) return presentVersion(version, 'full');
    const redacted: Version = {
      ...version,
      content: null,
      path: null,
      content_size_bytes: null,
      content_sha256: null,
      redacted_at: new Date().toISOString(),
      redacted_by: ACTOR,
    };
    state.versions[index] = redacted;
    return presentVersion(redacted, 'full');
  }

  /** Stores `memory` under a new version id and records the version. */
  #write(
    state: StoreState,
    memory: Memory & { content: string },
    operation: 'created' | 'modified',
  ): Memory & { content: string } {
    const stored = { ...memory, memory_version_id: this.#id('memver') };
    state.memories.set(stored.id, stored);
    state.versions.push({
      ...this.#versionBase(stored, stored.memory_version_id),
      operation,
      content: stored.content,
      content_sha256: stored.content_sha256,
      content_size_bytes: stored.content_size_bytes,
    });
    return stored;
  }

  #versionBase(memory: Memory, id: string): Omit<Version, 'operation'> {
    return {
      id,
      type: 'memory_version',
      memory_id: memory.id,
      memory_store_id: memory.memory_store_id,
      path: memory.path,
      created_at: new Date().toISOString(),
      created_by: ACTOR,
      redacted_at: null,
    };
  }

  #checkPath(path: string): void {
    const problem = pathProblem(path);
    if (problem !== undefined) throw ApiRefusal.invalid(problem);
  }

  #checkContent(content: string): void {
    if (Buffer.byteLength(content, 'utf8') > this.limits.maxContentBytes) {
      throw ApiRefusal.invalid(`content must be at most ${this.limits.maxContentBytes.toLocaleString('en-US')} bytes`);
    }
  }

  /** Refuses `path` when another memory holds it or a path above or below it (the memory `self` may). */
  #checkFree(state: StoreState, path: string, self: string | undefined): void {
    const others = [...state.memories.values()].filter((memory) => memory.id !== self);
    const blocking =
      others.find((memory) => memory.path === path) ?? others.find((memory) => overlaps(memory.path, path));
    if (!blocking) return;
    throw new ApiRefusal(409, {
      type: 'memory_path_conflict_error',
      message:
        blocking.path === path ?
          `A memory already exists at ${path}.`
        : `${path} overlaps the memory at ${blocking.path}.`,
      conflicting_path: blocking.path,
      conflicting_memory_id: blocking.id,
    });
  }
}

function sizeAndHash(content: string): Pick<Memory, 'content_sha256' | 'content_size_bytes'> {
  return { content_sha256: sha256(content), content_size_bytes: Buffer.byteLength(content, 'utf8') };
}

function preconditionFailed(memoryId: string): ApiRefusal {
  return new ApiRefusal(409, {
    type: 'memory_precondition_failed_error',
    message: `The content of memory ${memoryId} no longer has the expected content_sha256.`,
  });
}

function present(memory: Memory & { content: string }, view: View): Memory {
  return { ...memory, content: view === 'full' ? memory.content : null };
}

function presentVersion(version: Version, view: View): Version {
  return view === 'full' ? version : { ...version, content: null };
}
