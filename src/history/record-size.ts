// What a journal record itself takes, counted against `history.maxBytes` with the old contents it keeps: a deleted
// folder of 500 files is 500 steps with their paths, whatever the files held (./README.md, "Bounds").

import type { FileState, JournalOp, JournalRecord } from '../storage/schema.js';

// About what each part takes as JSON, field names included; a structured clone stores the names too, so the two are
// close. The fixed part covers the record's numbers, flags and the totals tuple it carries.
const RECORD = 200;
const STRING = 3;
const RETAINED = 8;
const OP = 40;
const STATE = 80;
const NO_STATE = 5;
const FOLDER_TIMES = 40;
const MOVED_THING = 32;

/** An estimate of `record`'s stored size in bytes (UTF-16 code units of its strings, plus its fields). */
export function recordSize(record: JournalRecord): number {
  let size = RECORD + record.actor.length + record.command.length + 2 * STRING + RETAINED * record.retains.length;
  if (record.source !== undefined) size += record.source.length + STRING;
  for (const path of record.paths) size += path.length + STRING;
  for (const op of record.ops) size += opSize(op);
  return size;
}

function opSize(op: JournalOp): number {
  switch (op.type) {
    case 'file':
      return OP + op.path.length + stateSize(op.before) + stateSize(op.after);
    case 'folder':
      return OP + op.path.length + (op.times ? FOLDER_TIMES : 0);
    case 'move':
      return OP + op.from.length + op.to.length + (op.kind ? MOVED_THING : 0);
  }
}

const stateSize = (state: FileState | null): number => (state ? STATE : NO_STATE);
