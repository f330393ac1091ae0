// Forgetting, the person's actions that cannot be undone: a path erased with every copy the history holds, or the
// whole history emptied, each in one write. A part loaded on first use with its steps (../history/forget.ts).

import { MEMORY_ROOT } from '../core/paths.js';
import type { JournalDraft } from '../history/journal.js';
import { record } from '../history/journal.js';
import { clearJournal } from '../history/forget.js';
import { scrubIndex } from '../search/index-scrub.js';
import { pushesSettled } from '../sync/forget-gate.js';
import { forgetWithMarks } from '../sync/forget-marks.js';
import type { HistoryActionContext } from './history-actions.js';
import type { ClearHistoryReport, ForgetReport } from './options.js';

/** A change kept out of the history (it would name what was erased): its record only carries the totals, hidden. */
const unjournaled = (command: JournalDraft['command']): JournalDraft => ({ actor: 'user', command, paths: [], ops: [], retired: [] });

/**
 * Erases `key` (normalized by the tool), its sync conflict copies and every copy of them the history holds, for good;
 * under a sync mount, marks it for the remote and waits out a push of it already sent (../sync/README.md, "Forgetting").
 */
export async function forget(ctx: HistoryActionContext, key: string): Promise<ForgetReport> {
  const now = Date.now();
  let db = '';
  const result = await ctx.writes.run(async (tx, remember) => {
    db = tx.db.name;
    const forgotten = await forgetWithMarks(tx, key, now);
    remember(await record(tx, unjournaled('forget'), now, undefined, forgotten.usage));
    return forgotten;
  });
  // The search index keeps the words of every body it indexed: those of the erased ones go before this resolves.
  await scrubIndex(ctx.store);
  ctx.hub.publish(result.changes);
  await pushesSettled(db, key);
  return {
    path: key,
    deleted: result.deleted,
    removedChanges: result.removed,
    trimmedChanges: result.trimmed,
    keptIn: result.keptIn,
  };
}

/** Empties the history for good; the files stay as they are. */
export async function clearHistory(ctx: HistoryActionContext): Promise<ClearHistoryReport> {
  const now = Date.now();
  const cleared = await ctx.writes.run(async (tx, remember) => {
    const done = await clearJournal(tx);
    if (done) remember(await record(tx, unjournaled('clear-history'), now, undefined, done.usage));
    return done;
  });
  await scrubIndex(ctx.store);
  if (cleared) ctx.hub.publish([{ type: 'history-cleared', path: MEMORY_ROOT }]);
  return { removedChanges: cleared?.removed ?? 0 };
}
// Wiping ships in this part: it is forgetting everything (./wipe-action.ts).
export { wipe } from './wipe-action.js';
