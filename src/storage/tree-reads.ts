// The app's own reads of the tree, `list()` and `read()`: read-only, and not an access by Claude (expiry ignores it).

import { MemoryToolError } from '../core/errors.js';
import { MEMORY_ROOT, isHiddenName, nameOf, normalizeMemoryPath } from '../core/paths.js';
import { reply } from '../core/replies.js';
import type { MemoryTx } from './store.js';
import { getEntry, readBody, subtreeRange } from './entries.js';

/** One file or folder, as `tool.list()` returns it. Paths are normalized keys. */
export interface MemoryEntry {
  path: string;
  name: string;
  kind: 'file' | 'folder';
  /** Left out of Claude's `view` listings: its name, or a folder above it, is a dot-name or `node_modules`. */
  hidden: boolean;
  /** UTF-8 bytes (0 for folders). */
  size: number;
  createdAt: Date;
  updatedAt: Date;
}

type ReadTx = MemoryTx<'readonly'>;

/** Every entry below `path` (default the whole memory), sorted by path; `path` itself is not included. */
export async function listEntries(tx: ReadTx, path: string = MEMORY_ROOT): Promise<MemoryEntry[]> {
  const key = normalizeMemoryPath(path);
  const folder = await getEntry(tx, key);
  if (!folder) throw new MemoryToolError('not_found', reply.viewMissing(path));
  if (folder.kind !== 'folder') throw new MemoryToolError('not_a_folder', reply.notAFolder(path));
  const records = await tx.objectStore('entries').getAll(subtreeRange(key));
  const below = key.length + 1;
  return records.map((record) => ({
    path: record.path,
    name: nameOf(record.path),
    kind: record.kind,
    hidden: record.path.slice(below).split('/').some(isHiddenName),
    size: record.size,
    createdAt: new Date(record.createdAt),
    updatedAt: new Date(record.updatedAt),
  }));
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
