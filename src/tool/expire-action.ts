// Expiry, the person's action: the files not used since a cutoff deleted in one write, journaled so it can be undone.
// A part loaded on first use with its steps (../history/expire.ts); the tool checks the cutoff first.

import { expireFiles } from '../history/expire.js';
import { record } from '../history/journal.js';
import type { HistoryActionContext } from './history-actions.js';
import type { ExpireReport } from './options.js';

/** Deletes the files not read or written since `cutoff` (checked by the tool). */
export async function expire(ctx: HistoryActionContext, cutoff: number, now: number): Promise<ExpireReport> {
  await ctx.access.flush();
  const result = await ctx.writes.run(async (tx, remember) => {
    const expired = await expireFiles(tx, cutoff, ctx.access.viewed);
    if (expired.paths.length > 0) {
      const draft = {
        actor: 'expire',
        command: 'expire' as const,
        paths: expired.paths,
        ops: expired.ops,
        retired: expired.retired,
      };
      remember(await record(tx, draft, now, ctx.history, expired.usage));
    }
    return expired;
  });
  ctx.hub.publish(result.changes);
  return { deleted: result.paths };
}
