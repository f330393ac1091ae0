// The part of an `@anthropic-ai/sdk` client the Memory Stores remote calls, typed here field by field (as the SDK's
// types describe them), so `idb-memory-tool/sync` type-checks in an app that syncs only with WebDAV and has no SDK.
// test/sync/remotes/memory-store-client.test.ts checks that the SDK's client fits it.

/** A memory as the API answers it: the fields the remote reads. */
export interface StoredMemory {
  type: 'memory';
  id: string;
  path: string;
  content_sha256: string;
  content_size_bytes: number;
  memory_version_id: string;
  content?: string | null;
}

/** A folder marker in a listing with `depth: 1`. */
export interface MemoryPrefix {
  type: 'memory_prefix';
  path: string;
}

export interface MemoryRequestOptions {
  signal?: AbortSignal;
  maxRetries?: number;
  /** The request's deadline in ms (the SDK's own default is 10 minutes). */
  timeout?: number;
}

/** One page of a listing, as the SDK's page classes give it; the next page is fetched with the same options. */
export interface MemoryListPage {
  getPaginatedItems(): (StoredMemory | MemoryPrefix)[];
  hasNextPage(): boolean;
  getNextPage(): Promise<MemoryListPage>;
}

type View = 'basic' | 'full';
interface InStore {
  memory_store_id: string;
  workspace_id?: string;
}

/** `client.beta.memoryStores.memories`. */
export interface MemoryStoreMemoriesClient {
  list(
    storeId: string,
    params: { path_prefix?: string; depth?: number; view?: View; limit?: number; workspace_id?: string },
    options?: MemoryRequestOptions,
  ): PromiseLike<MemoryListPage>;
  retrieve(memoryId: string, params: InStore & { view?: View }, options?: MemoryRequestOptions): Promise<StoredMemory>;
  create(
    storeId: string,
    params: { path: string; content: string; workspace_id?: string },
    options?: MemoryRequestOptions,
  ): Promise<StoredMemory>;
  update(
    memoryId: string,
    params: InStore & { content?: string; path?: string; precondition?: { type: 'content_sha256'; content_sha256: string } },
    options?: MemoryRequestOptions,
  ): Promise<StoredMemory>;
  delete(
    memoryId: string,
    params: InStore & { expected_content_sha256?: string },
    options?: MemoryRequestOptions,
  ): Promise<unknown>;
}

/** An SDK client, or anything with its `beta.memoryStores.memories`. */
export interface MemoryStoreClient {
  beta: { memoryStores: { memories: MemoryStoreMemoriesClient } };
}
