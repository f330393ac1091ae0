// Expiry, the person's action: the files not used since a cutoff deleted in one write, journaled so it can be undone.
// A part loaded on first use with its steps (../history/expire.ts); the cutoff is checked here, before any write.

import { checkOptionKeys } from '../core/option-keys.js';
import { expireFiles } from '../history/expire.js';
import { expiryCutoff } from '../history/expiry-cutoff.js';
import { record } from '../history/journal.js';
import type { HistoryActionContext } from './history-actions.js';
import type { ExpireOptions, ExpireReport } from './options.js';

/**
 * Deletes the files not read or written since `by.olderThan` (a bad one is a TypeError, deleting nothing), journaled
 * by `by.actor` (default `expire`). An abort before it commits throws the signal's reason inside the transaction.
 */
export async function expire(ctx: HistoryActionContext, by: ExpireOptions, now: number): Promise<ExpireReport> {
  const cutoff = expiryCutoff(by, now);
  await checkOptionKeys(by, ['olderThan', 'actor', 'source', 'signal']);
  await ctx.access.flush();
  by.signal?.throwIfAborted();
  const result = await ctx.writes.run(async (tx, remember) => {
    const expired = await expireFiles(tx, cutoff, ctx.access.viewed);
    by.signal?.throwIfAborted();
    if (expired.paths.length > 0) {
      const draft = {
        actor: by.actor ?? 'expire',
        command: 'expire' as const,
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
