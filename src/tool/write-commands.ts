// Which command function runs each of Claude's five write commands. Split from ./tool.ts.

import { create } from '../commands/create.js';
import { remove } from '../commands/delete.js';
import { insert, strReplace } from '../commands/edit.js';
import { rename } from '../commands/rename.js';
import type { WriteContext, WriteResult } from '../commands/write-result.js';
import type { MemoryCommand } from '../core/command-input.js';
import type { MemoryTx } from '../storage/store.js';

/** Runs write `command` in `tx`. */
export function runWrite(
  tx: MemoryTx<'readwrite'>,
  command: Exclude<MemoryCommand, { command: 'view' }>,
  ctx: WriteContext,
): Promise<WriteResult> {
  switch (command.command) {
    case 'create':
      return create(tx, command, ctx);
    case 'str_replace':
      return strReplace(tx, command, ctx);
    case 'insert':
      return insert(tx, command, ctx);
    case 'delete':
      return remove(tx, command, ctx);
    case 'rename':
      return rename(tx, command, ctx);
  }
}
