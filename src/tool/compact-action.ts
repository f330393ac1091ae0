// Compaction, the person's action: the memory moved to a fresh database and the old one deleted, so that what
// `forget()` and `clearHistory()` erased leaves the browser's files too (../storage/README.md, "Erase on disk"). A
// part loaded on first use.

import { compactDatabase } from '../storage/compact-run.js';
import { BLOCKED_WAIT_MS } from '../storage/store.js';
import { toMemoryError } from '../storage/store-errors.js';
import type { CompactReport } from './options.js';

/** Moves every file, history entry and sync baseline of `dbName` to a fresh database of that name. */
export async function compactStorage(dbName: string): Promise<CompactReport> {
  try {
    const moved = await compactDatabase(dbName, BLOCKED_WAIT_MS);
    return moved ?? { files: 0, bodies: 0, changes: 0 };
  } catch (error) {
    throw toMemoryError(error);
  }
}
