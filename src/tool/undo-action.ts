// Undo, the person's action: one change reversed in one write, journaled so it can be undone too. A part loaded on
// first use with its steps (../history/undo.ts); the tool keeps it in call order.

import { checkOptionKeys } from '../core/option-keys.js';
import { record } from '../history/journal.js';
import type { HistoryEntry } from '../history/read-history.js';
import { findUndoTarget, markUndone, undoChange } from '../history/undo.js';
import type { HistoryActionContext } from './history-actions.js';
import { parts } from './lazy-parts.js';
import type { ActorOptions } from './options.js';

/** Reverses change `id` (default the latest not undone) if it applies cleanly; journaled by `by.actor` (`user`). */
export async function undo(
  ctx: HistoryActionContext,
  id: number | undefined,
  by: ActorOptions = {},
): Promise<HistoryEntry> {
  await checkOptionKeys(by, ['actor', 'source']);
  const actor = by.actor ?? 'user';
  const source = by.source?.slice(0, 256);
  // Loaded before the transaction starts: awaiting anything but its requests would let it commit. Through its part,
  // not imported: imported here too, Vite's build of the worker entry keeps an import() of it, which a service worker
  // may not call.
  const { readEntry } = await parts.history();
  const now = Date.now();
  const result = await ctx.writes.run(async (tx, remember) => {
    const target = await findUndoTarget(tx, id);
    const undone = await undoChange(tx, target, ctx.limits, now);
    markUndone(tx, target);
    const draft = {
      actor,
      command: 'undo' as const,
      paths: target.paths,
      ops: undone.ops,
      retired: undone.retired,
      undoOf: target.id ?? 0,
      ...(source === undefined ? {} : { source }),
    };
    const recorded = await record(tx, draft, now, ctx.history, undone.usage);
    remember(recorded);
    // Read back in the transaction: what `history()` will show for it, with no other change in between.
    return { ...undone, paths: draft.paths, undoOf: draft.undoOf, entry: await readEntry(tx, await recorded.key) };
  });
  ctx.hub.publish(result.changes);
  // None when this tool keeps no history (it can still undo a change another tool journaled): not journaled, id 0.
  return result.entry ?? {
    id: 0,
    at: new Date(now),
    actor,
    command: 'undo',
    paths: result.paths,
    undoable: false,
    undone: false,
    undoOf: result.undoOf,
  };
}
