// The create command (R-create in ./README.md): a file's text as a new body, its missing parent folders made.

import type { CreateCommand } from '../core/command-input.js';
import { MemoryToolError } from '../core/errors.js';
import { checkWrite } from '../core/limits.js';
import { normalizeMemoryPath, parentOf } from '../core/paths.js';
import { reply } from '../core/replies.js';
import { utf8Length } from '../core/utf8.js';
import type { BeforeWrite } from '../guards/write-guards.js';
import { fileState, getEntry } from '../storage/entries.js';
import { readTotals } from '../storage/optimistic-totals.js';
import type { EntryRecord } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import { plainStore, request, writer } from '../storage/store.js';
import { folderOps, foldersToMake, makeFolders } from './parent-folders.js';
import type { WriteContext, WriteResult } from './write-result.js';

type WriteTx = MemoryTx<'readwrite'>;

interface Sent {
  answer?: Promise<{ key: number } | { error: unknown }>;
  thrown?: { error: unknown };
}

/**
 * A request made now. `answer`, only when `listen` (the store picks the key, which the entry needs), never rejects;
 * one not listened to fails the transaction, which `run` reports. `thrown`: an error the browser raised as it was
 * made (a full disk).
 */
function send(make: () => IDBRequest<number>, listen: boolean): Sent {
  try {
    const made = make();
    return listen ? { answer: request(made).then((key) => ({ key }), (error: unknown) => ({ error })) } : {};
  } catch (error) {
    return { thrown: { error } };
  }
}

export async function create(tx: WriteTx, command: CreateCommand, ctx: WriteContext): Promise<WriteResult> {
  const key = normalizeMemoryPath(command.path);
  const write: BeforeWrite = { path: command.path, key, content: command.file_text, command: 'create' };
  const reads = Promise.all([
    getEntry(tx, key),
    readTotals(tx, ctx.known, ctx.trusted),
    foldersToMake(tx, key, (file) => reply.belowFile(command.path, file)),
  ]);
  const refusal = ctx.screenPath('create', key) ?? ctx.screen(write);
  // Always a new body (copy-on-write), sent early only once nothing can refuse it (./README.md, "create's early body").
  const sendNow = !refusal && !ctx.rewrites && write.content.length <= ctx.limits.maxFileBytes;
  const fixedId = sendNow && ctx.trusted ? ctx.known?.totals.nextBody : undefined;
  const early = sendNow
    ? send(() => plainStore(tx, 'bodies').add(write.content, fixedId) as IDBRequest<number>, fixedId === undefined)
    : undefined;
  const counted = utf8Length(write.content);
  const [existing, usage, missingFolders] = await reads;
  // R-create-exists: worded as the SDK's tool words it (its exclusive open fails on a folder as on a file).
  if (existing?.kind === 'folder') throw new MemoryToolError('is_a_directory', reply.alreadyExists(command.path));
  if (existing && !ctx.overwrite) throw new MemoryToolError('already_exists', reply.alreadyExists(command.path));
  if (refusal) throw refusal;
  const content = ctx.filter(write);
  const size = content === command.file_text ? counted : utf8Length(content);
  const totals = checkWrite(ctx.limits, usage, command.path, size, existing?.size ?? 0, !existing);
  let bodyId = usage.nextBody;
  let nextBody = bodyId + 1;
  // Thrown after the refusals above. An add under the trusted totals' id is not awaited: its failure aborts the commit.
  if (early?.thrown) throw early.thrown.error;
  if (early?.answer) {
    // Answered right after the reads (requests are served in order), which the entry waits for.
    const sent = await early.answer;
    if ('error' in sent) throw sent.error;
    bodyId = sent.key;
    nextBody = Math.max(usage.nextBody, bodyId + 1);
  } else if (!early) {
    writer(tx, 'bodies').add(content, bodyId);
  }

  const entry: EntryRecord = {
    path: key,
    parent: parentOf(key),
    kind: 'file',
    size,
    bodyId,
    createdAt: existing?.createdAt ?? ctx.now,
    updatedAt: ctx.now,
  };
  makeFolders(tx, missingFolders, ctx.now);
  writer(tx, 'entries').put(entry);
  ctx.ahead?.saw(key, entry);
  const before = existing ? fileState(existing) : null;
  return {
    reply: reply.created(command.path),
    changes: [{ type: 'write', path: key }],
    ops: [...folderOps(missingFolders), { type: 'file', path: key, before, after: fileState(entry) }],
    retired: before ? [{ id: before.bodyId, size: before.size }] : [],
    usage: { ...usage, ...totals, nextBody },
  };
}
