// Which file a view read, and when a file was last used: what access times and expiry go by.

import type { EntryRecord } from './schema.js';
import type { MemoryTx } from './store.js';

type WriteTx = MemoryTx<'readwrite'>;

/** Which file a view read: its body id, which a rename keeps and no other file shares, or its path if it has none. */
export type FileIdentity = number | string;

export const fileIdentity = (entry: EntryRecord): FileIdentity => entry.bodyId ?? entry.path;

/** When a file was last used: its last write or its last view, stored or, with `viewed`, not stored yet. */
export const lastUsed = (entry: EntryRecord, viewed?: ReadonlyMap<FileIdentity, number>): number =>
  Math.max(entry.updatedAt, entry.accessedAt ?? 0, viewed?.get(fileIdentity(entry)) ?? 0);

/** Sets `accessedAt` on the files `read` names, wherever they have moved: one light write for many views. */
export async function touchFiles(tx: WriteTx, read: Iterable<FileIdentity>, now: number): Promise<void> {
  const entries = tx.objectStore('entries');
  await Promise.all(
    [...read].map(async (which) => {
      const entry = await (typeof which === 'number' ? entries.index('bodyId').get(which) : entries.get(which));
      if (entry?.kind === 'file' && fileIdentity(entry) === which) await entries.put({ ...entry, accessedAt: now });
    }),
  );
}

