// Anthropic's Memory Stores API as a SyncRemote: a store, or one folder of it, whose memories are the files. Every
// update, move and delete carries the `content_sha256` the caller saw (optimistic concurrency). No SDK import: the
// client's shape is typed in ./memory-store-client.ts.

import type { MemoryStoreClient, StoredMemory } from './memory-store-client.js';
import { utf8Length } from '../../core/utf8.js';
import { eachLimited } from '../pool.js';
import { failure, unless404, type Attempt } from './memory-store-errors.js';
import { versionRedaction } from './memory-store-redact.js';
import { listed, memoryProblem, refusedMemory } from './memory-store-listing.js';
import { shown, timeoutOption } from './remote-bounds.js';
import {
  SyncRemoteError,
  type RemoteCallOptions,
  type RemoteFile,
  type SyncRemote,
} from '../remote.js';

/** What `memoryStoreRemote()` takes: a client, the store, and how hard to press it. */
export interface MemoryStoreRemoteOptions {
  /** An `@anthropic-ai/sdk` client; only `client.beta.memoryStores.memories` is called. */
  client: MemoryStoreClient;
  /** The store, `memstore_…`. */
  storeId: string;
  /** A folder of the store as the remote's root, e.g. `/team/`; the whole store by default. */
  pathPrefix?: string | undefined;
  /** The workspace, for a key that can act on more than one. */
  workspaceId?: string | undefined;
  /** Requests in flight at once; 6 by default. */
  concurrency?: number | undefined;
  /** Each request's deadline in ms (default 60,000; the SDK's own is 10 minutes); past it the call fails as `server`. */
  timeoutMs?: number | undefined;
  /** Pages one listing may take (default 1,000); past it the listing fails as `protocol`. */
  maxPages?: number | undefined;
  /** Memories and folders one listing may take (default 20,000: ten times the service's limit of 2,000). */
  maxEntries?: number | undefined;
}

/** The listing bounds' defaults. */
export const MEMORY_STORE_LIST_DEFAULTS = { maxPages: 1000, maxEntries: 20_000 } as const;

/** The service's limits, as the SDK's doc comments give them. */
const SERVICE = { maxFileBytes: 102_400, maxFiles: 2000, maxPathBytes: 1024, maxSegments: 20 } as const;
/** The largest page a listing without content (`view: 'basic'`) may ask for. */
const PAGE_LIMIT = 100;
/** The largest page of a listing with content (`view: 'full'`). */
const FULL_PAGE_LIMIT = 20;
// Control and format characters, U+2028 and U+2029 (the API's rule); lone surrogates, which UTF-8 cannot carry.
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;

/** Why the API would refuse `path` (a path in the store, not below the root), or undefined. */
function pathProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'it does not start with "/"';
  if (utf8Length(path) > SERVICE.maxPathBytes) return `it is over ${SERVICE.maxPathBytes} bytes`;
  if (FORBIDDEN.test(path)) return 'it holds a control or format character, U+2028 or U+2029';
  if (path.normalize('NFC') !== path) return 'it is not in Unicode NFC';
  const segments = path.slice(1).split('/');
  if (segments.length > SERVICE.maxSegments) return `it has over ${SERVICE.maxSegments} segments`;
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return 'a segment is empty, "." or ".."';
  }
  return undefined;
}

/** `/team/` for `/team` or `/team/`; `/` for the whole store. */
function rootOf(pathPrefix: string): string {
  const root = pathPrefix.endsWith('/') ? pathPrefix : `${pathPrefix}/`;
  if (root !== '/' && pathProblem(root.slice(0, -1)) !== undefined) {
    throw new TypeError(`pathPrefix must be a folder of the store such as "/team/", not ${JSON.stringify(pathPrefix)}`);
  }
  return root;
}

/** Why a memory's `content` cannot be a file's text (none: never taken for an empty file), or undefined. */
function unreadable(content: unknown): string | undefined {
  if (typeof content !== 'string') return 'the answer holds no content';
  if (utf8Length(content) > SERVICE.maxFileBytes) return `its content is over ${SERVICE.maxFileBytes} bytes`;
  return undefined;
}

/** A memory's id and content hash, as the caller last saw them. */
type Known = { id: string; sha256: string };

const precondition = (sha256: string) => ({ type: 'content_sha256', content_sha256: sha256 }) as const;

/** A Memory Stores remote: `memory-store:<storeId><pathPrefix>`. */
export function memoryStoreRemote(options: MemoryStoreRemoteOptions): SyncRemote {
  const { storeId } = options;
  const root = rootOf(options.pathPrefix ?? '/');
  const concurrency = options.concurrency ?? 6;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');
  const timeout = timeoutOption('memoryStoreRemote', options.timeoutMs);
  const bounds = {
    maxPages: options.maxPages ?? MEMORY_STORE_LIST_DEFAULTS.maxPages,
    maxEntries: options.maxEntries ?? MEMORY_STORE_LIST_DEFAULTS.maxEntries,
  };
  for (const [name, value] of Object.entries(bounds)) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  }
  const memories = options.client.beta.memoryStores.memories;
  const workspace = options.workspaceId === undefined ? {} : { workspace_id: options.workspaceId };
  const inStore = { memory_store_id: storeId, ...workspace };
  const folder = (prefix: string) => (prefix === '/' ? {} : { path_prefix: prefix });
  // The engine retries by kind; the SDK would retry as well, and every 409 with it (it takes one for a lock timeout).
  const request = (signal: AbortSignal | undefined) => ({ maxRetries: 0, timeout, ...(signal ? { signal } : {}) });
  const list = (params: Parameters<typeof memories.list>[1], signal: AbortSignal | undefined) =>
    listed(memories.list(storeId, params, request(signal)), bounds);

  const inStorePath = (path: string): string => root.slice(0, -1) + path;
  const belowRoot = (path: string): string | undefined =>
    path.startsWith(root) ? path.slice(root.length - 1) : undefined;
  const fileOf = (memory: StoredMemory, path: string): RemoteFile => ({
    path,
    version: memory.memory_version_id,
    sha256: memory.content_sha256,
    id: memory.id,
    size: memory.content_size_bytes,
  });

  /** The store path for `path`, refused here when the API would refuse it. */
  function checked(path: string): string {
    const full = inStorePath(path);
    const problem = path.startsWith('/') ? pathProblem(full) : 'it does not start with "/"';
    if (problem !== undefined) {
      throw new SyncRemoteError('refused-path', `Memory Stores refuses ${shown(path)}: ${problem}.`);
    }
    return full;
  }

  /** Runs `call`, its failure worded as a SyncRemoteError. */
  async function attempt<T>(what: Attempt, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw failure(error, what, belowRoot);
    }
  }

  /** The memory at `path`, found in its folder's listing; undefined when there is none. */
  async function find(path: string, signal: AbortSignal | undefined): Promise<StoredMemory | undefined> {
    const full = inStorePath(path);
    const parent = full.slice(0, full.lastIndexOf('/') + 1);
    const params = { ...workspace, ...folder(parent), depth: 1, view: 'basic', limit: PAGE_LIMIT } as const;
    for await (const item of list(params, signal)) {
      if (item.type === 'memory' && item.path === full) return item;
    }
    return undefined;
  }

  /**
   * The id and hash to send for a file as it was seen. A file this remote listed carries both; one without them is
   * looked up, and must still have the version seen. Undefined when the memory is gone.
   */
  async function seen(file: RemoteFile, signal: AbortSignal | undefined): Promise<Known | undefined> {
    if (file.id !== undefined && file.sha256 !== undefined) return { id: file.id, sha256: file.sha256 };
    const memory =
      file.id === undefined ?
        await find(file.path, signal)
      : await memories.retrieve(file.id, { ...inStore, view: 'basic' }, request(signal)).catch(unless404);
    if (memory === undefined) return undefined;
    if (memory.memory_version_id !== file.version) {
      throw new SyncRemoteError('precondition', `Memory Stores, ${shown(file.path)}: it changed since it was seen.`);
    }
    return { id: memory.id, sha256: memory.content_sha256 };
  }

  /** As `seen`, for a call that needs the memory still there. */
  async function stillThere(file: RemoteFile, signal: AbortSignal | undefined): Promise<Known> {
    const known = await seen(file, signal);
    if (!known) {
      throw new SyncRemoteError('precondition', `Memory Stores, ${shown(file.path)}: deleted since it was seen.`);
    }
    return known;
  }

  return {
    ...versionRedaction(options.client, storeId, options.workspaceId, timeout),
    id: `memory-store:${storeId}${root}`,
    kind: 'memory-store',
    limits: {
      maxFileBytes: SERVICE.maxFileBytes,
      maxFiles: SERVICE.maxFiles,
      // The root's own bytes and segments count against the service's limits.
      maxPathBytes: SERVICE.maxPathBytes - (utf8Length(root) - 1),
      maxSegments: SERVICE.maxSegments - (root.split('/').length - 2),
    },
    concurrency,

    list: ({ signal } = {}) =>
      attempt({ path: '/', gone: 'not-found', signal }, async () => {
        const files: RemoteFile[] = [];
        const params = { ...workspace, ...folder(root), depth: 0, view: 'basic', limit: PAGE_LIMIT } as const;
        for await (const item of list(params, signal)) {
          if (item.type !== 'memory') continue;
          // One broken entry is listed refused, with its reason; the rest syncs. One outside the root is not ours.
          const storePath: unknown = item.path;
          const path = typeof storePath === 'string' ? belowRoot(storePath) : undefined;
          if (typeof storePath === 'string' && path === undefined) continue;
          const problem = memoryProblem(item) ?? pathProblem(item.path);
          if (problem === undefined && path !== undefined) files.push(fileOf(item, path));
          else files.push(refusedMemory(item, path, `Memory Stores: the entry is refused: ${problem ?? 'no path'}`));
        }
        return files;
      }),

    // A folder's listing with content brings 20 texts a request where a read brings one (and, in a page, a CORS
    // preflight each): the first pull of a big store. Each folder's direct children, folders side by side.
    readMany: (files, { signal } = {}) =>
      attempt({ path: '/', gone: 'not-found', signal }, async () => {
        const wanted = new Set(files.map((file) => file.path));
        const parents = new Set(files.map((file) => inStorePath(file.path)).map((full) => full.slice(0, full.lastIndexOf('/') + 1)));
        const texts = new Map<string, { file: RemoteFile; text: string }>();
        await eachLimited(
          [...parents],
          concurrency,
          async (parent) => {
            const params = { ...workspace, ...folder(parent), depth: 1, view: 'full', limit: FULL_PAGE_LIMIT } as const;
            for await (const item of list(params, signal)) {
              if (item.type !== 'memory' || memoryProblem(item) !== undefined) continue;
              const path = belowRoot(item.path);
              // A text it cannot take (none, or over the limit) is left out: its own read says why (`unreadable`).
              if (path === undefined || !wanted.has(path) || unreadable(item.content) !== undefined) continue;
              texts.set(path, { file: fileOf(item, path), text: item.content as string });
            }
          },
          signal,
        );
        return texts;
      }),

    read: (file, { signal } = {}) =>
      attempt({ path: file.path, gone: 'not-found', signal }, async () => {
        const id = file.id ?? (await find(file.path, signal))?.id;
        if (id === undefined) throw new SyncRemoteError('not-found', `Memory Stores, ${shown(file.path)}: not there.`);
        const memory = await memories.retrieve(id, { ...inStore, view: 'full' }, request(signal));
        const broken = memoryProblem(memory) ?? unreadable(memory.content);
        if (broken !== undefined) {
          throw new SyncRemoteError('unreadable', `Memory Stores, ${shown(file.path)}: ${broken}.`);
        }
        // A memory keeps its id when renamed: it is read where it is now, unless that is outside the root.
        const path = belowRoot(memory.path);
        if (path === undefined) {
          throw new SyncRemoteError('not-found', `Memory Stores, ${shown(file.path)}: moved to ${shown(memory.path)}.`);
        }
        return { file: fileOf(memory, path), text: memory.content as string };
      }),

    write: async (path, text, expected, { signal }: RemoteCallOptions = {}) => {
      const target = checked(path);
      // A 404: the store is not there (a create), or the memory is gone since it was seen (an update).
      const what = { path, target, gone: expected === null ? 'not-found' : 'precondition', signal } as const;
      return attempt(what, async () => {
        if (utf8Length(text) > SERVICE.maxFileBytes) {
          throw new SyncRemoteError('too-large', `Memory Stores, ${shown(path)}: over ${SERVICE.maxFileBytes} bytes.`);
        }
        if (expected === null) {
          const params = { ...workspace, path: target, content: text };
          return fileOf(await memories.create(storeId, params, request(signal)), path);
        }
        const { id, sha256 } = await stillThere(expected, signal);
        const rename = path === expected.path ? {} : { path: target };
        const params = { ...inStore, content: text, ...rename, precondition: precondition(sha256) };
        return fileOf(await memories.update(id, params, request(signal)), path);
      });
    },

    delete: (expected, { signal } = {}) =>
      attempt({ path: expected.path, gone: 'precondition', signal }, async () => {
        const known = await seen(expected, signal);
        // Gone already, before or during the call: what the delete was for.
        if (known === undefined) return;
        const params = { ...inStore, expected_content_sha256: known.sha256 };
        await memories.delete(known.id, params, request(signal)).catch(unless404);
      }),

    move: async (expected, to, { signal } = {}) => {
      const target = checked(to);
      return attempt({ path: expected.path, target, gone: 'precondition', signal }, async () => {
        const { id, sha256 } = await stillThere(expected, signal);
        const params = { ...inStore, path: target, precondition: precondition(sha256) };
        return fileOf(await memories.update(id, params, request(signal)), to);
      });
    },
  };
}
