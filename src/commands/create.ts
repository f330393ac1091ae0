// The create command (R-create in ./README.md): a file's text as a new body, its missing parent folders made.
// A transaction body that awaits only IndexedDB; a text none can refuse is sent to storage while the checks run.

import type { BetaMemoryTool20250818CreateCommand as CreateCommand } from '@anthropic-ai/sdk/resources/beta';
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
  answer: Promise<{ key: number } | { error: unknown }>;
  thrown?: { error: unknown };
}

/**
 * A request made now: `answer` settles with its key or its error, never a rejection, so the caller decides when a
 * failure counts; `thrown` is the error of one the browser refused as it was made (a full disk, in some browsers),
 * which fails nothing else, so the caller must see it before it writes anything that needs the request.
 */
function send(make: () => IDBRequest<number>): Sent {
  try {
    const made = request(make());
    return { answer: made.then((key) => ({ key }), (error: unknown) => ({ error })) };
  } catch (error) {
    return { answer: Promise.resolve({ error }), thrown: { error } };
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
  // The secret check runs while the reads are under way.
  const refusal = ctx.screen(write);
  // Always a new body: the old one stays intact for the journal (copy-on-write, no content is copied). When
  // nothing can refuse or rewrite the text any more (no secret, no app hook, not plainly over the size limit)
  // it is sent now, beside the reads: a big file is then stored while this thread counts it. Otherwise it waits
  // for every check, so that refused text never reaches the storage backend. Sent now, it takes the next body id
  // of the totals when they are trusted (the entry then need not wait for its answer; a wrong id fails the add, and
  // the write runs again: tool/write-runner.ts), otherwise a key from the store, which the entry waits for.
  const sendNow = !refusal && !ctx.rewrites && write.content.length <= ctx.limits.maxFileBytes;
  const fixedId = sendNow && ctx.trusted ? ctx.known?.totals.nextBody : undefined;
  const bodies = plainStore(tx, 'bodies');
  const early = sendNow ? send(() => bodies.add(write.content, fixedId) as IDBRequest<number>) : undefined;
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
  // Its failure (a full disk) comes after the refusals above, as it would have without sending early. With an id of
  // the trusted totals (`usage` are those) its answer is not awaited: the transaction commits only once the add has
  // succeeded, and a failed one aborts it, which the store reports (store.ts `run`).
  if (early?.thrown) throw early.thrown.error;
  if (early && fixedId === undefined) {
    // Answered right after the reads (requests are served in order), which the entry waits for.
    const sent = await early.answer;
    if ('error' in sent) throw sent.error;
    bodyId = sent.key;
    // Keys from the store's generator and from `nextBody` (edits, imports) never meet: each moves past the other.
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
