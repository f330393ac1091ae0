// The Memory Stores remote's listings, bounded: pages fetched one after another up to a number of pages and of
// entries, and each memory's fields checked before the engine sees them (a hostile or broken answer is refused).

import { SyncRemoteError } from '../remote.js';
import type { MemoryListPage, MemoryPrefix, StoredMemory } from './memory-store-client.js';
import { shown } from './remote-bounds.js';

/** How far one listing goes before it fails: a listing cut short would read as deletes. */
export interface ListBounds {
  maxPages: number;
  maxEntries: number;
}

const over = (what: string, bound: number, option: string) =>
  new SyncRemoteError('protocol', `Memory Stores: the listing goes on past ${bound} ${what} (${option}); nothing was synced`);

/** Every item of a listing, page by page, failing as `protocol` past the bounds. */
export async function* listed(
  first: PromiseLike<MemoryListPage>,
  bounds: ListBounds,
): AsyncGenerator<StoredMemory | MemoryPrefix> {
  let page = await first;
  let pages = 1;
  let entries = 0;
  for (;;) {
    const items = page.getPaginatedItems();
    entries += items.length;
    if (entries > bounds.maxEntries) throw over('entries', bounds.maxEntries, 'maxEntries');
    yield* items;
    if (!page.hasNextPage()) return;
    if (++pages > bounds.maxPages) throw over('pages', bounds.maxPages, 'maxPages');
    page = await page.getNextPage();
  }
}

const SHA256 = /^[0-9a-f]{64}$/;
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Why a listed or read memory cannot be taken as a file (a field missing or malformed), or undefined. */
export function memoryProblem(memory: StoredMemory): string | undefined {
  const fields = memory as Partial<Record<keyof StoredMemory, unknown>>;
  if (!nonEmpty(fields.id)) return 'it has no id';
  if (!nonEmpty(fields.path)) return 'it has no path';
  if (!nonEmpty(fields.memory_version_id)) return 'it has no memory_version_id';
  if (typeof fields.content_sha256 !== 'string' || !SHA256.test(fields.content_sha256)) {
    return 'its content_sha256 is not a SHA-256 in hex';
  }
  const size = fields.content_size_bytes;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return 'its content_size_bytes is not a size';
  return undefined;
}

/** A memory listed but refused, shown by its path (cut) with the reason. */
export function refusedMemory(memory: StoredMemory, path: unknown, reason: string) {
  const version = (memory as { memory_version_id?: unknown }).memory_version_id;
  const shownPath = typeof path === 'string' ? shown(path) : '(no path)';
  return {
    path: shownPath.startsWith('/') ? shownPath : `/${shownPath}`,
    version: typeof version === 'string' ? shown(version) : '',
    refused: shown(reason),
  };
}
