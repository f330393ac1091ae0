// Blame, the person's read of where each line came from: a part loaded on first use. The lineage is read in one
// read-only transaction; the line diffs run after it, so a long diff never holds the transaction open.

import { attributeLines, readLineage } from '../history/blame.js';
import type { BlameLine } from '../history/blame.js';
import type { MemoryStore } from '../storage/store.js';

export type { BlameLine };

/** Each line of the file at `key` (`shown` as the caller wrote it, for refusals) with the change that wrote it. */
export async function blame(store: MemoryStore, key: string, shown: string): Promise<BlameLine[]> {
  const lineage = await store.run('readonly', (tx) => readLineage(tx, key, shown), ['entries', 'bodies', 'journal']);
  return attributeLines(lineage);
}
