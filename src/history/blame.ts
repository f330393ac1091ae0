// Blame: which journaled change wrote each line of a file. The file's lineage is read back through the journal (its
// body ids, across renames, through undos), then each step's texts are diffed by line (./README.md, "Blame").

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';
import type { JournalRecord, LostMark } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import { keptLines } from './line-diff.js';
import type { BlameGap } from './lost-marks.js';
import { whyLost } from './lost-marks.js';

export type { BlameGap };

/** One line of a file and the change that wrote it. */
export interface BlameLine {
  /** 1-based, as `view` numbers lines (`split('\n')`: a text ending in a newline has an empty last line). */
  line: number;
  /** The line's text, without its newline. */
  text: string;
  /** The history id (as `tool.history()` lists it) of the change that wrote the line, or `null` when none is held. */
  change: number | null;
  /** Who made that change, or `null` when none is held. */
  actor: string | null;
  /** When that change was committed, or `null` when none is held. */
  at: Date | null;
  /** Where that change came from, when its writer named it (`run`'s `source`). */
  source?: string;
  /** The history no longer holds the change that wrote this line (`change`, `actor` and `at` are `null`). */
  dropped?: true;
  /**
   * With `dropped`, why: `forgotten` (erased by `forget()`), `cleared` (`clearHistory()`), `pruned` (the history's
   * bounds), `too-big` (a later change was kept without its old text), `unrecorded` (written with the history off).
   */
  why?: BlameGap;
}

/** One change in a file's lineage: the record, and the text the file held before it (`null`: it made the file). */
interface Step {
  record: JournalRecord;
  before: string | null;
}

/** What the transaction reads: the file's text now, its changes newest first, and how the lineage ends. */
export interface Lineage {
  text: string;
  steps: Step[];
  /** The file's first text was found (`null` before a step), or the chain broke (`dropped`). */
  end: 'made' | 'dropped';
  /** Where the chain broke: why the history no longer holds what came before. */
  why?: BlameGap;
  /** An undo that brought back the current text whose first writer is no longer held: the lines it restored. */
  restoredBy?: JournalRecord;
}

/**
 * Reads `key`'s lineage in one transaction: walking the journal newest first, it follows the body the file holds back
 * to the change that wrote it (an undo that only brought that body back is passed over, so the lines keep their first
 * writer), a move back to the name it came from, and so on to the change that made the file or to a break.
 */
export async function readLineage(tx: MemoryTx<'readonly'>, key: string, shown: string): Promise<Lineage> {
  const entry = await tx.objectStore('entries').get(key);
  if (!entry) throw new MemoryToolError('not_found', reply.viewMissing(shown));
  if (entry.kind !== 'file' || entry.bodyId === undefined) throw new MemoryToolError('not_a_file', reply.notAFile(shown));
  const bodies = tx.objectStore('bodies');
  const text = (await bodies.get(entry.bodyId)) ?? '';
  const steps: Array<{ record: JournalRecord; before: number | null }> = [];
  let name = key;
  let current: number | null = entry.bodyId;
  let restoredBy: JournalRecord | undefined;
  // Marks of what forgetting, a clear or pruning took: read on the way, as a broken chain reads the whole journal.
  const marks: LostMark[] = [];
  for (
    let cursor = await tx.objectStore('journal').openCursor(null, 'prev');
    cursor && current !== null;
    cursor = await cursor.continue()
  ) {
    const record = cursor.value;
    if (record.hidden) {
      if (record.lost) marks.push(record.lost);
      continue;
    }
    // A record's steps ran in order: read back, the last first.
    for (let i = record.ops.length - 1; i >= 0 && current !== null; i--) {
      const op = record.ops[i];
      if (op?.type === 'move') {
        if (op.to === name || name.startsWith(op.to + '/')) name = op.from + name.slice(op.to.length);
      } else if (op?.type === 'file' && op.path === name && op.after?.bodyId === current) {
        if (record.undoOf !== undefined) {
          restoredBy ??= record;
          continue;
        }
        steps.push({ record, before: op.before?.bodyId ?? null });
        restoredBy = undefined;
        current = op.before?.bodyId ?? null;
      }
    }
  }
  // Each older text, read in the same transaction; one no longer kept ends the lineage there.
  const texts = await Promise.all(steps.map((step) => (step.before === null ? null : bodies.get(step.before))));
  const read: Step[] = [];
  for (const [i, step] of steps.entries()) {
    const before = texts[i];
    if (before === undefined) return { text, steps: read, end: 'dropped', why: 'too-big' };
    read.push({ record: step.record, before });
  }
  if (current === null) return { text, steps: read, end: 'made' };
  return { text, steps: read, end: 'dropped', why: whyLost(current, marks), ...(restoredBy ? { restoredBy } : {}) };
}

/** Each line of the lineage's text with the change that wrote it: diffed step by step, newest first. */
export function attributeLines(lineage: Lineage): BlameLine[] {
  const lines = lineage.text.split('\n');
  const owners = new Array<JournalRecord | undefined>(lines.length);
  // Where each line still unattributed is in the text being diffed (-1 once attributed).
  const at = Int32Array.from(lines, (_, i) => i);
  let version = lines;
  let open = lines.length;
  for (const step of lineage.steps) {
    if (open === 0) break;
    const before = step.before === null ? [] : step.before.split('\n');
    const kept = keptLines(before, version);
    for (let i = 0; i < lines.length; i++) {
      const position = at[i] ?? -1;
      if (position < 0) continue;
      const from = kept[position] ?? -1;
      at[i] = from;
      if (from < 0) {
        owners[i] = step.record;
        open--;
      }
    }
    version = before;
  }
  const why = lineage.why ?? 'unrecorded';
  return lines.map((text, i) => blameLine(i + 1, text, owners[i] ?? lineage.restoredBy, why));
}

function blameLine(line: number, text: string, record: JournalRecord | undefined, why: BlameGap): BlameLine {
  if (!record) return { line, text, change: null, actor: null, at: null, dropped: true, why };
  return {
    line,
    text,
    change: record.id ?? null,
    actor: record.actor,
    at: new Date(record.at),
    ...(typeof record.source === 'string' ? { source: record.source } : {}),
  };
}
