// Which file a view read, and when a file was last used: what access times and expiry go by.

import type { EntryRecord } from './schema.js';
import type { MemoryTx } from './store.js';

type WriteTx = MemoryTx<'readwrite'>;

/**
 * Which file a view read, for its access time and for expiry: its body id (a rename, by anyone, keeps it; every other
 * file, and every later version of this one, has another), or its path for a file stored without one.
 */
export type FileIdentity = number | string;

export const fileIdentity = (entry: EntryRecord): FileIdentity => entry.bodyId ?? entry.path;

/**
 * When a file was last used: its last write, or its last view if later; as stored, or with `viewed`, views not stored
 * yet (by {@link fileIdentity}). Expiry deletes by it, and a view writes an access time when it is over an hour old.
 */
export const lastUsed = (entry: EntryRecord, viewed?: ReadonlyMap<FileIdentity, number>): number =>
  Math.max(entry.updatedAt, entry.accessedAt ?? 0, viewed?.get(fileIdentity(entry)) ?? 0);

/**
 * Sets `accessedAt` on the files `read` names (those still there, wherever they have moved since): one light metadata
 * write for many views. A file edited or deleted since has no such body any more (an edit's own time is later anyway).
 */
export async function touchFiles(tx: WriteTx, read: Iterable<FileIdentity>, now: number): Promise<void> {
  const entries = tx.objectStore('entries');
  await Promise.all(
    [...read].map(async (which) => {
      const entry = await (typeof which === 'number' ? entries.index('bodyId').get(which) : entries.get(which));
      if (entry?.kind === 'file' && fileIdentity(entry) === which) await entries.put({ ...entry, accessedAt: now });
    }),
  );
}

