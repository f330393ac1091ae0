// The app's own reads of the tree, `list()` and `read()`: read-only, and not an access by Claude (expiry ignores it).

import { MemoryToolError } from '../core/errors.js';
import { checkOptionKeys } from '../core/option-keys.js';
import { MEMORY_ROOT, isHiddenName, nameOf, normalizeMemoryPath } from '../core/paths.js';
import { reply } from '../core/replies.js';
import type { MemoryTx } from './store.js';
import { getEntry, readBody, subtreeRange } from './entries.js';

/** One file or folder, as `tool.list()` returns it. Paths are normalized keys. */
export interface MemoryEntry {
  /** The entry's normalized path. */
  path: string;
  /** Its last segment, e.g. `prefs.md`. */
  name: string;
  /** Whether it is a file or a folder. */
  kind: 'file' | 'folder';
  /** Left out of Claude's `view` listings: its name, or a folder above it, is a dot-name or `node_modules`. */
  hidden: boolean;
  /** UTF-8 bytes (0 for folders). */
  size: number;
  /** When it was first written (a folder: made). */
  createdAt: Date;
  /** When it was last written. */
  updatedAt: Date;
}

type ReadTx = MemoryTx<'readonly'>;

/** `list()`'s entries; `truncated`: a `limit` left some out. */
export type MemoryList = MemoryEntry[] & {
  /** Whether `limit` left some entries out. */
  truncated: boolean;
};

/** How deep and how many `list()` reads: levels below the folder (1: its children), and at most `limit` entries. */
export interface ListBounds {
  depth?: number | undefined;
  limit?: number | undefined;
}

/**
 * The entries below `path` (default the whole memory), sorted by path; `path` itself is not included. `depth` 1
 * reads the folder's own children through the `parent` index; a `limit` reads one more to tell it cut the list.
 */
export async function listEntries(
  tx: ReadTx,
  path: string = MEMORY_ROOT,
  bounds: ListBounds = {},
): Promise<MemoryList> {
  const depth = bound(bounds.depth, 'depth');
  const limit = bound(bounds.limit, 'limit');
  const key = normalizeMemoryPath(path);
  const folder = await getEntry(tx, key);
  if (!folder) throw new MemoryToolError('not_found', reply.viewMissing(path));
  if (folder.kind !== 'folder') throw new MemoryToolError('not_a_folder', reply.notAFolder(path));
  const store = tx.objectStore('entries');
  const more = limit === undefined ? undefined : limit + 1;
  const below = key.length + 1;
  let records =
    depth === 1
      ? await store.index('parent').getAll(key, more)
      : await store.getAll(subtreeRange(key), depth === undefined ? more : undefined);
  if (depth !== undefined && depth > 1) {
    records = records.filter((record) => record.path.slice(below).split('/').length <= depth);
  }
  const truncated = limit !== undefined && records.length > limit;
  const entries = (truncated ? records.slice(0, limit) : records).map((record) => ({
    path: record.path,
    name: nameOf(record.path),
    kind: record.kind,
    hidden: record.path.slice(below).split('/').some(isHiddenName),
    size: record.size,
    createdAt: new Date(record.createdAt),
    updatedAt: new Date(record.updatedAt),
  }));
  // Not enumerable: the list still equals (and spreads, and serializes as) a plain array of its entries.
  return Object.defineProperty(entries, 'truncated', { value: truncated }) as MemoryList;
}

/** Checked before the transaction: a bad bound is the app's TypeError, not a failed read. */
export async function listBounds(bounds: ListBounds): Promise<ListBounds> {
  await checkOptionKeys(bounds, ['depth', 'limit']);
  return { depth: bound(bounds.depth, 'depth'), limit: bound(bounds.limit, 'limit') };
}

/** A depth or limit: a positive integer, or absent. */
function bound(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (Number.isInteger(value) && value >= 1) return value;
  throw new TypeError(`list: ${name} must be a positive integer, got ${String(value)}`);
}

/** The entry at `path` alone, `hidden` as a listing of the whole memory says it: for a view that re-reads one entry. */
export async function statEntry(tx: ReadTx, path: string): Promise<MemoryEntry> {
  const key = normalizeMemoryPath(path);
  const record = await getEntry(tx, key);
  if (!record) throw new MemoryToolError('not_found', reply.viewMissing(path));
  return {
    path: record.path,
    name: nameOf(record.path),
    kind: record.kind,
    hidden: record.path.slice(MEMORY_ROOT.length + 1).split('/').some(isHiddenName),
    size: record.size,
    createdAt: new Date(record.createdAt),
    updatedAt: new Date(record.updatedAt),
  };
}

/** The text of the file at `path`. */
export async function readFile(tx: ReadTx, path: string): Promise<string> {
  const entry = await getEntry(tx, normalizeMemoryPath(path));
  if (!entry) throw new MemoryToolError('not_found', reply.viewMissing(path));
  if (entry.kind !== 'file') throw new MemoryToolError('not_a_file', reply.notAFile(path));
  return readBody(tx, entry);
}
