// Expiry, the person's action: the files not used since a cutoff deleted in one write, journaled so it can be undone.
// A part loaded on first use with its steps (../history/expire.ts); the tool checks the cutoff first.

import { expireFiles } from '../history/expire.js';
import { record } from '../history/journal.js';
import type { HistoryActionContext } from './history-actions.js';
import type { ActorOptions, ExpireReport } from './options.js';

/**
 * Deletes the files not read or written since `cutoff` (checked by the tool), journaled by `by.actor` (default
 * `expire`). An abort before it commits throws the signal's reason inside the transaction: nothing is deleted.
 */
export async function expire(
  ctx: HistoryActionContext,
  cutoff: number,
  now: number,
  by: ActorOptions & { signal?: AbortSignal | undefined },
): Promise<ExpireReport> {
  await ctx.access.flush();
  by.signal?.throwIfAborted();
  const result = await ctx.writes.run(async (tx, remember) => {
    const expired = await expireFiles(tx, cutoff, ctx.access.viewed);
    by.signal?.throwIfAborted();
    if (expired.paths.length > 0) {
      const draft = {
        actor: by.actor ?? 'expire',
        command: 'expire',
        paths: expired.paths,
        ops: expired.ops,
        retired: expired.retired,
        ...(by.source === undefined ? {} : { source: by.source.slice(0, 256) }),
      };
      remember(await record(tx, draft, now, ctx.history, expired.usage));
    }
    return expired;
  });
  ctx.hub.publish(result.changes);
  return { deleted: result.paths };
}
