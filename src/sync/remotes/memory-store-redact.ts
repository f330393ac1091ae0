// Memory Stores' version redaction as the remote's `redact`: every version of a forgotten memory that still holds its
// text is redacted, so the store's history keeps no byte of it (../README.md, "Forgetting"). The client's shape is
// typed here field by field, as in ./memory-store-client.ts (no SDK import).

import type { RemoteCallOptions, RemoteFile, SyncRemote } from '../remote.js';
import { failure, unless404 } from './memory-store-errors.js';
import type { MemoryRequestOptions, MemoryStoreClient } from './memory-store-client.js';

/** A version as a listing answers it: the fields redaction reads. */
interface ListedVersion {
  id: string;
  operation?: string;
  redacted_at?: string | null;
}

/** `client.beta.memoryStores.memoryVersions`. */
export interface MemoryVersionsClient {
  list(
    storeId: string,
    params: { memory_id?: string; limit?: number; view?: 'basic' | 'full'; workspace_id?: string },
    options?: MemoryRequestOptions,
  ): AsyncIterable<ListedVersion>;
  redact(
    versionId: string,
    params: { memory_store_id: string; workspace_id?: string },
    options?: MemoryRequestOptions,
  ): Promise<unknown>;
}

/** Versions of one memory looked at per pass; a memory with more is finished by the passes after. */
const MAX_VERSIONS = 10_000;

/** The largest page of a versions listing without content. */
const PAGE_LIMIT = 100;

/**
 * `{ redact }` for a Memory Stores remote, or `{}` when the client has no `memoryVersions` (an app's own client
 * shaped like the memories API alone). Redacts every version of the file's memory (by its id) not redacted yet and
 * holding content (a `deleted` version holds none).
 */
export function versionRedaction(
  client: MemoryStoreClient,
  storeId: string,
  workspaceId: string | undefined,
  timeout: number,
): Pick<SyncRemote, 'redact'> {
  const versions = (client.beta.memoryStores as { memoryVersions?: MemoryVersionsClient }).memoryVersions;
  if (!versions || typeof versions.redact !== 'function') return {};
  const workspace = workspaceId === undefined ? {} : { workspace_id: workspaceId };
  const request = (signal: AbortSignal | undefined): MemoryRequestOptions => ({
    maxRetries: 0,
    timeout,
    ...(signal ? { signal } : {}),
  });
  return {
    async redact(file: RemoteFile, { signal }: RemoteCallOptions = {}): Promise<void> {
      if (file.id === undefined) return;
      const memoryId = file.id;
      try {
        const owed: string[] = [];
        const params = { ...workspace, memory_id: memoryId, limit: PAGE_LIMIT, view: 'basic' } as const;
        let seen = 0;
        for await (const version of versions.list(storeId, params, request(signal))) {
          // A hostile or broken listing must not page for ever: past the cap, the rest waits for the next pass.
          if (++seen > MAX_VERSIONS) break;
          if (!version.redacted_at && version.operation !== 'deleted') owed.push(version.id);
        }
        // A version gone meanwhile (past the service's retention) holds nothing any more.
        for (const id of owed) {
          await versions.redact(id, { memory_store_id: storeId, ...workspace }, request(signal)).catch(unless404);
        }
      } catch (error) {
        throw failure(error, { path: file.path, gone: 'not-found', signal }, () => undefined);
      }
    },
  };
}
