// What the person is shown of a write Claude asks for (`WriteProposal`), read inside the write's own transaction from
// the steps it computed, and the fingerprint that tells whether a later run of it would do the same (./README.md).

import type { WriteResult } from '../commands/write-result.js';
import type { MemoryCommand } from '../core/command-input.js';
import { subtreeRange } from '../storage/entries.js';
import type { MemoryTx } from '../storage/store.js';

/** A write Claude asks for, as `approve` is shown it. Paths are normalized keys. */
export interface WriteProposal {
  /** The write command Claude sent. */
  command: Exclude<MemoryCommand['command'], 'view'>;
  /** The file or folder written, deleted, or renamed from. */
  path: string;
  /** For `rename`: where it goes. */
  newPath?: string;
  /**
   * The file's whole text before, or `null` where there is none (a new file, or a folder). A renamed file shows its
   * text on both sides.
   */
  before: string | null;
  /** The file's whole text after, or `null` where there is none (a deleted file, or a folder). */
  after: string | null;
  /** For a folder deleted or renamed: the files it holds (paths before the change), whose texts are not copied in. */
  files?: string[];
  /** Who asks for the write, as recorded in the history (`claude` for Claude's writes). */
  actor: string;
  /** Where the write comes from (the `source` passed to `run`, e.g. a conversation id), if any. */
  source?: string;
}

/** A proposal with what a run must match to carry it out: the bodies it read and the folders it found. */
export interface ShownProposal {
  proposal: WriteProposal;
  fingerprint: string;
}

type WriteTx = MemoryTx<'readwrite'>;

/** Reads, in the write's transaction and after its steps were sent, what it does; texts come from the bodies store. */
export async function readProposal(
  tx: WriteTx,
  command: MemoryCommand,
  written: WriteResult,
  who: { actor: string; source?: string | undefined },
): Promise<ShownProposal> {
  const bodies = tx.objectStore('bodies');
  const text = async (id: number | undefined): Promise<string | null> =>
    id === undefined ? null : ((await bodies.get(id)) ?? null);
  // Body ids are never reused (copy-on-write), so a body id names one text: the fingerprint holds ids, not texts.
  const steps = written.ops.map((op) =>
    op.type === 'file'
      ? ['f', op.path, op.before?.bodyId ?? null, op.after !== null]
      : op.type === 'folder'
        ? ['d', op.path, op.before, op.after]
        : ['m', op.from, op.to, op.kind ?? null, op.bodyId ?? null],
  );
  const base = { actor: who.actor, ...(who.source === undefined ? {} : { source: who.source }) };
  let proposal: WriteProposal;
  switch (command.command) {
    case 'view':
      throw new TypeError('a view is not a write');
    case 'rename': {
      const move = written.ops.find((op) => op.type === 'move');
      const from = move?.type === 'move' ? move.from : command.old_path;
      const to = move?.type === 'move' ? move.to : command.new_path;
      if (move?.type === 'move' && move.kind === 'folder') {
        // The move was sent: what it took is below `to` now, named here by where it was.
        const moved = await tx.objectStore('entries').getAll(subtreeRange(to));
        const files = moved.filter((entry) => entry.kind === 'file');
        for (const file of files) steps.push(['f', file.path, file.bodyId ?? null, true]);
        proposal = { command: 'rename', path: from, newPath: to, before: null, after: null, ...base };
        proposal.files = files.map((file) => from + file.path.slice(to.length));
      } else {
        const shown = await text(move?.type === 'move' ? move.bodyId : undefined);
        proposal = { command: 'rename', path: from, newPath: to, before: shown, after: shown, ...base };
      }
      break;
    }
    case 'delete': {
      const fileOps = written.ops.filter((op) => op.type === 'file');
      const folder = written.ops.some((op) => op.type === 'folder' && op.before && !op.after);
      const only = fileOps[0];
      if (!folder && only?.type === 'file') {
        proposal = { command: 'delete', path: only.path, before: await text(only.before?.bodyId), after: null, ...base };
      } else {
        const path = written.changes[0]?.path ?? command.path;
        proposal = { command: 'delete', path, before: null, after: null, ...base };
        proposal.files = fileOps.map((op) => op.path);
      }
      break;
    }
    default: {
      const op = written.ops.find((step) => step.type === 'file');
      const file = op?.type === 'file' ? op : undefined;
      const [before, after] = await Promise.all([text(file?.before?.bodyId), text(file?.after?.bodyId)]);
      proposal = { command: command.command, path: file?.path ?? command.path, before, after, ...base };
    }
  }
  // The text after is part of it: the same command on the same file writes the same text, unless `beforeWrite` did not.
  return { proposal, fingerprint: JSON.stringify([steps, proposal.after]) };
}
