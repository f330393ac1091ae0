// The rename command (R-rename in ./README.md): entries move, bodies keep their ids; all or nothing.

import type { RenameCommand } from '../core/command-input.js';
import { MemoryToolError } from '../core/errors.js';
import { MEMORY_ROOT, isWithin, normalizeMemoryPath } from '../core/paths.js';
import { reply } from '../core/replies.js';
import { entriesToMove, getEntry, movedThing, sendMove } from '../storage/entries.js';
import { readTotals } from '../storage/optimistic-totals.js';
import type { MemoryTx } from '../storage/store.js';
import { folderOps, foldersToMake, makeFolders } from './parent-folders.js';
import type { WriteContext, WriteResult } from './write-result.js';

type WriteTx = MemoryTx<'readwrite'>;

export async function rename(tx: WriteTx, command: RenameCommand, ctx: WriteContext): Promise<WriteResult> {
  const from = normalizeMemoryPath(command.old_path);
  const to = normalizeMemoryPath(command.new_path);
  // Checks in the SDK's order: root, destination, source (R-rename); then the cases it gets wrong.
  if (from === MEMORY_ROOT) throw new MemoryToolError('forbidden', reply.renameRoot());
  const reads = [getEntry(tx, from), getEntry(tx, to), readTotals(tx, ctx.known, ctx.trusted)] as const;
  const [source, destination, usage] = await Promise.all(reads);
  if (destination) throw new MemoryToolError('already_exists', reply.destinationExists(command.new_path));
  if (!source) throw new MemoryToolError('not_found', reply.renameMissing(command.old_path));
  if (source.kind === 'folder' && isWithin(to, from)) {
    throw new MemoryToolError('invalid_input', reply.renameIntoItself(command.old_path, command.new_path));
  }
  const secret = ctx.screenPath('rename', to);
  if (secret) throw secret;
  // Every read before the first write, and no wait after it: the journal record goes out in the same run.
  const [missingFolders, moved] = await Promise.all([
    foldersToMake(tx, to, (file) => reply.belowFile(command.new_path, file)),
    entriesToMove(tx, source),
  ]);
  makeFolders(tx, missingFolders, ctx.now);
  // R-rename-limits: every path the move makes is held to the path limits (a refusal aborts what was sent).
  sendMove(tx, moved, to, (path, past) =>
    new MemoryToolError('invalid_path', reply.renamePastLimits(command.old_path, command.new_path, path, past)),
  );
  return {
    reply: reply.renamed(command.old_path, command.new_path),
    changes: [{ type: 'rename', path: to, from }],
    // What moved, so that an undo can tell whether it is still what is there (history/undo.ts).
    ops: [...folderOps(missingFolders), { type: 'move', from, to, ...movedThing(source) }],
    retired: [],
    usage,
  };
}
