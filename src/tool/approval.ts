// Claude's writes asked of the person before they are stored (`approve`): check and show in a transaction that is
// aborted, ask outside any transaction, then run for real only if the run would do what was shown (./README.md).

import type { WriteContext, WriteResult } from '../commands/write-result.js';
import type { MemoryCommand } from '../core/command-input.js';
import { MemoryToolError } from '../core/errors.js';
import { approvalReply as reply } from '../core/approval-replies.js';
import { showText } from '../core/shown-text.js';
import type { MemoryTx } from '../storage/store.js';
import type { ShownProposal, WriteProposal } from './proposal.js';
import { readProposal } from './proposal.js';

export type { WriteProposal };

/** The person's answer: `'allow'`, `'deny'`, or a denial with a reason Claude reads. */
export type ApproveAnswer =
  | 'allow'
  | 'deny'
  | {
      /** Why the person declined, told to Claude with the refusal. */
      deny: string;
    };

/** Asked before each write by `claude` is stored; see `IndexedDBMemoryToolOptions.approve`. */
export type ApproveHook = (proposal: WriteProposal) => ApproveAnswer | PromiseLike<ApproveAnswer>;

type WriteTx = MemoryTx<'readwrite'>;
type Body = (tx: WriteTx, ctx: WriteContext) => Promise<WriteResult>;

/** How a write is asked about: the hook, who asks and from where, and the signal that withdraws the question. */
export interface Asking {
  approve: ApproveHook | undefined;
  actor: string;
  source?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** The longest reason Claude is shown, in UTF-16 code units. */
const MAX_REASON = 500;

/**
 * Runs `body` through `run` (the write runner, in call order), asking first when the hook is set and the actor is
 * `claude`. A run after the answer that would do anything else than what was shown asks once more, then refuses.
 */
export async function approvedWrite(
  run: (body: Body) => Promise<string>,
  command: MemoryCommand,
  body: Body,
  asking: Asking,
): Promise<string> {
  const { approve, signal } = asking;
  if (!approve || asking.actor !== 'claude') return run(body);
  let shown = await look(run, command, body, asking, undefined);
  for (let asked = 0; ; asked++) {
    if (shown.outcome === 'done') return shown.reply;
    if (asked === 2) throw new MemoryToolError('conflict', reply.changedMeanwhile(shown.seen.proposal.path));
    await ask(approve, shown.seen.proposal, signal);
    shown = await look(run, command, body, asking, shown.seen.fingerprint);
  }
}

type Looked = { outcome: 'done'; reply: string } | { outcome: 'shown'; seen: ShownProposal };

/**
 * One run of the write: it stores only if `approved` is the fingerprint of what it would do; otherwise it is aborted
 * (a refusal thrown inside it), nothing of it stored, and answers what it would have done.
 */
async function look(
  run: (body: Body) => Promise<string>,
  command: MemoryCommand,
  body: Body,
  asking: Asking,
  approved: string | undefined,
): Promise<Looked> {
  if (asking.signal?.aborted) throw withdrawn(command);
  // Identity tells this abort from any refusal, which stays as it is: it passes the store and the runner untouched.
  const sentinel = new MemoryToolError('conflict', 'not stored: shown for approval');
  let seen: ShownProposal | undefined;
  try {
    const done = await run(async (tx, ctx) => {
      const written = await body(tx, ctx);
      const proposal = await readProposal(tx, command, written, asking);
      if (proposal.fingerprint === approved) return written;
      seen = proposal;
      throw sentinel;
    });
    return { outcome: 'done', reply: done };
  } catch (error) {
    if (error === sentinel && seen) return { outcome: 'shown', seen };
    throw error;
  }
}

/** Asks the hook; resolves on `'allow'`, throws `declined` on anything else and `withdrawn` once `signal` aborts. */
async function ask(approve: ApproveHook, proposal: WriteProposal, signal: AbortSignal | undefined): Promise<void> {
  let answer: ApproveAnswer;
  try {
    answer = await untilAborted(Promise.resolve().then(() => approve({ ...proposal })), signal);
  } catch (error) {
    if (error === WITHDRAWN) throw new MemoryToolError('withdrawn', reply.withdrawn(proposal.path));
    const why = error instanceof Error ? error.message : String(error);
    throw new MemoryToolError('declined', reply.declined(proposal.path, bounded(why)), { cause: error });
  }
  if (signal?.aborted) throw new MemoryToolError('withdrawn', reply.withdrawn(proposal.path));
  if (answer === 'allow') return;
  const reason =
    typeof answer === 'object' && answer !== null && typeof answer.deny === 'string' ? answer.deny : undefined;
  // `'deny'`, a denial without a reason, or anything else the hook answered: the person did not allow it.
  throw new MemoryToolError('declined', reply.declined(proposal.path, reason === undefined ? undefined : bounded(reason)));
}

const WITHDRAWN = Symbol('withdrawn');

/** `answer`, or a rejection with {@link WITHDRAWN} as soon as `signal` aborts; the listener is removed either way. */
function untilAborted<T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return answer;
  if (signal.aborted) return Promise.reject(WITHDRAWN);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(WITHDRAWN);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function withdrawn(command: MemoryCommand): MemoryToolError {
  return new MemoryToolError('withdrawn', reply.withdrawn(command.command === 'rename' ? command.old_path : command.path));
}

/** A reason as Claude is shown it: hidden characters escaped, cut at {@link MAX_REASON}; empty means none. */
function bounded(why: string): string | undefined {
  const shown = showText(why.trim(), MAX_REASON);
  return shown === '' ? undefined : shown;
}
