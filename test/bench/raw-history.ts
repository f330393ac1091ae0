// The raw floors' history: the least record undo needs, kept within the library's default bounds (1,000 changes,
// 32 MiB) by the journal's own rule, so a floor pays for dropping old contents as often as the library does.
// What each database's raw side has kept lives in this page's memory: the least work is knowing it, not reading it.

import { DEFAULT_HISTORY_LIMITS } from '../../src/history/history-limits.js';
import { pruneTarget } from '../../src/history/journal.js';
import { recordSize } from '../../src/history/record-size.js';
import type { FileState } from '../../src/storage/schema.js';

/** One raw history record: its key, the body it keeps for undo (if any) and what it counts against the bound. */
interface Kept {
  key: number;
  body: number | undefined;
  bytes: number;
}

interface RawHistory {
  kept: Kept[];
  bytes: number;
}

const histories = new WeakMap<IDBDatabase, RawHistory>();

/**
 * What the journal counts for the record of the same change (record-size.ts): the raw record is smaller, but counted
 * alike the two histories reach a bound at the same change, so a row's rounds prune on both sides at once.
 */
function recordBytes(command: string, path: string, before: number | undefined, after: number | null): number {
  const state: FileState = { bodyId: 0, size: 0, createdAt: 0, updatedAt: 0 };
  return recordSize({
    at: 0,
    actor: 'claude',
    command,
    paths: [path],
    ops: [{ type: 'file', path, before: before === undefined ? null : state, after: after === null ? null : state }],
    retains: before === undefined ? [] : [before],
    bytes: 0,
    undoable: true,
  });
}

/**
 * Adds the least history record a change needs for undo (its path, the body it replaced and the one it wrote, by
 * key) to the bodies store under `key`, keeping `before` (of `beforeSize` bytes) for undo. The library's journal
 * holds references, not copies, so neither does this; it is not in that journal, whose pruning and totals must not
 * meet the raw side's records. Past a bound, the oldest records and the bodies they kept are deleted in the same
 * transaction: nothing else holds a body the raw side replaced, so no count is needed before deleting it.
 */
export function addHistoryRecord(
  tx: IDBTransaction,
  key: number,
  command: string,
  path: string,
  before: number | undefined,
  beforeSize: number,
  after: number | null,
  now: number,
): void {
  const bodies = tx.objectStore('bodies');
  bodies.add({ at: now, path, before: before ?? null, after }, key);
  const history = histories.get(tx.db) ?? { kept: [], bytes: 0 };
  histories.set(tx.db, history);
  const bytes = (before === undefined ? 0 : beforeSize) + recordBytes(command, path, before, after);
  history.kept.push({ key, body: before, bytes });
  history.bytes += bytes;
  const { maxEntries, maxBytes } = DEFAULT_HISTORY_LIMITS;
  if (history.kept.length <= maxEntries && history.bytes <= maxBytes) return;
  // The library's rule (src/history/journal.ts `prune`): once past a bound, drop to a tenth below it.
  const entryTarget = history.kept.length > maxEntries ? pruneTarget(maxEntries) : maxEntries;
  const byteTarget = history.bytes > maxBytes ? pruneTarget(maxBytes) : maxBytes;
  let drop = 0;
  // The newest record always stays, as the library's.
  while (drop < history.kept.length - 1 && (history.kept.length - drop > entryTarget || history.bytes > byteTarget)) {
    const old = history.kept[drop++];
    if (!old) break;
    history.bytes -= old.bytes;
    bodies.delete(old.key);
    if (old.body !== undefined) bodies.delete(old.body);
  }
  history.kept.splice(0, drop);
}
