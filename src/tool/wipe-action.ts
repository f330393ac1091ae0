// Wiping, the person's action that cannot be undone: every file, folder, history record and search index row gone
// in one write. A part loaded on first use; the sync baselines go too unless the deletes are to reach the remote.

import { checkOptionKeys } from '../core/option-keys.js';
import { MEMORY_ROOT } from '../core/paths.js';
import { record } from '../history/journal.js';
import { INDEX_STORES } from '../search/index-stores.js';
import { readTotals } from '../storage/optimistic-totals.js';
import type { StoreName } from '../storage/schema.js';
import { ALL_STORES, plainStore } from '../storage/store.js';
import { clearAllBaselines } from '../sync/baseline.js';
import type { HistoryActionContext } from './history-actions.js';
import type { WipeOptions, WipeReport } from './options.js';

/** Cleared whole; `sync` is handled apart (its forget marks stay, and its baselines with `remote`). */
const CLEARED: StoreName[] = ['entries', 'bodies', 'journal', ...INDEX_STORES];

/**
 * Empties the memory. `remote: false` drops the sync baselines with the files, so a mount's next pass sees a memory
 * that never synced and pulls the remote back (it never deletes without a baseline); `remote: true` keeps them, so
 * the next pass finds the files deleted here and deletes them there (../sync/README.md, "The baseline").
 */
export async function wipe(ctx: HistoryActionContext, options: WipeOptions): Promise<WipeReport> {
  await checkOptionKeys(options, ['remote', 'signal']);
  const { remote = false, signal } = options;
  // A pending access-time round must not land after the wipe on a file of the same path made since.
  await ctx.access.flush();
  signal?.throwIfAborted();
  const now = Date.now();
  const report = await ctx.writes.run(async (tx, remember) => {
    const [usage, changes] = await Promise.all([readTotals(tx), tx.objectStore('journal').count()]);
    const kept = usage.holder === undefined ? changes : changes - 1;
    signal?.throwIfAborted();
    for (const name of CLEARED) plainStore(tx, name).clear();
    if (!remote) await clearAllBaselines(tx);
    // Body ids go on from where they were: never reused, so a fingerprint or a read-ahead guess never mistakes one.
    const { holder: _gone, ...rest } = usage;
    const emptied = { ...rest, bytes: 0, files: 0, journalBytes: 0, journalEntries: 0 };
    const draft = { actor: 'user', command: 'wipe' as const, paths: [], ops: [], retired: [] };
    remember(await record(tx, draft, now, undefined, emptied));
    return { files: usage.files, changes: kept };
  }, [...ALL_STORES, ...INDEX_STORES]);
  // As `forget` announces it: what was there deleted, then its history erased.
  ctx.hub.publish([
    { type: 'delete', path: MEMORY_ROOT },
    { type: 'forget', path: MEMORY_ROOT },
  ]);
  return report;
}
