// Runs every write as one readwrite transaction with its journal record, and the optimistic check of the totals from
// the writer's side: a stale run is aborted and runs once more (./README.md, "Writes").

import { unwrap } from 'idb';
import type { WriteContext, WriteResult } from '../commands/write-result.js';
import { isMemoryToolError } from '../core/errors.js';
import type { ChangeHub, MemoryChange } from '../core/change-events.js';
import type { HistoryCommand, Recorded, ResolvedHistoryLimits } from '../history/journal.js';
import { record } from '../history/journal.js';
import type { RememberedTotals } from '../storage/optimistic-totals.js';
import { StaleTotals, mayBeStale, totalsAreCurrent, wasAlone } from '../storage/optimistic-totals.js';
import { ReadAhead, StagedReadAhead } from '../storage/read-ahead.js';
import type { StoreName } from '../storage/schema.js';
import type { MemoryStore, MemoryTx } from '../storage/store.js';
import type { CallOrder } from './call-order.js';

type WriteTx = MemoryTx<'readwrite'>;
/**
 * Keeps the totals a transaction's journal record holds, once it has committed (as trusted unless told otherwise),
 * and then calls `committed`.
 */
export type Remember = (recorded: Recorded, trusted?: boolean, committed?: () => void) => void;

/** What a write command is run with, but the remembered totals the runner adds. */
export type CommandContext = Omit<WriteContext, 'known' | 'trusted' | 'ahead' | 'now'>;

/** The commands that take remembered totals unchecked: the ones writing one file's text, and `delete`. */
const TRUSTING = new Set(['create', 'str_replace', 'insert', 'delete']);

export class WriteRunner {
  readonly #store: MemoryStore;
  readonly #order: CallOrder;
  readonly #hub: ChangeHub;
  readonly #history: ResolvedHistoryLimits | undefined;
  readonly #ahead: ReadAhead;
  /** The totals the last write left, the connection it used, and whether the next write may take them unchecked. */
  #remembered: { db: IDBDatabase; value: RememberedTotals; trusted: boolean } | undefined;
  /** This tool's readwrite transactions under way: while one is, the totals it will leave are not known yet. */
  #inFlight = 0;

  constructor(
    store: MemoryStore,
    order: CallOrder,
    hub: ChangeHub,
    history: ResolvedHistoryLimits | undefined,
    ahead: ReadAhead,
  ) {
    this.#store = store;
    this.#order = order;
    this.#hub = hub;
    this.#history = history;
    this.#ahead = ahead;
  }

  /** One write command, in call order; a run that trusts remembered totals holds later calls (it may run twice). */
  command(
    actor: string,
    command: HistoryCommand,
    ctx: CommandContext,
    body: (tx: WriteTx, ctx: WriteContext) => Promise<WriteResult>,
    source?: string,
  ): Promise<string> {
    const mayTrust = (): boolean => this.#remembered?.trusted === true && TRUSTING.has(command) && this.#inFlight === 0;
    // Plain promise steps, not nested async functions: from the transaction's `complete` to the reply is a few ticks.
    return this.#order.enter((trusting) => {
      const now = Date.now();
      let trusted = false;
      // Set by a run that found (or could not rule out) that its remembered totals were stale: it runs once more.
      let stale = false;
      const attempt = (again: boolean): Promise<WriteResult> => {
        // The bodies it writes become guesses only once it commits (a rerun's body ids differ).
        const ahead = new StagedReadAhead(this.#ahead);
        return this.run(async (tx, remember) => {
          const known = again ? undefined : this.#rememberedFor(tx);
          trusted = trusting && known?.trusted === true;
          let written: WriteResult;
          try {
            written = await body(tx, { ...ctx, now, known: known?.value, trusted, ahead });
          } catch (error) {
            // A limit refusal stands only if the totals it was judged on were current.
            if (trusted && known && isMemoryToolError(error) && error.code === 'too_large') {
              if (!(await totalsAreCurrent(tx, known.value).catch(() => false))) {
                stale = true;
                throw new StaleTotals();
              }
            }
            throw error;
          }
          const draft = {
            actor,
            command,
            paths: journalPaths(written.changes),
            ops: written.ops,
            retired: written.retired,
            ...(source === undefined ? {} : { source }),
          };
          const recorded = await record(tx, draft, now, this.#history, written.usage);
          const alone = known === undefined ? !again : wasAlone(known.value, await recorded.key);
          if (trusted && !alone && written.checked !== true) {
            stale = true;
            throw new StaleTotals();
          }
          remember(recorded, alone, () => ahead.commit());
          return written;
        });
      };
      // Before the turn ends: a listener's own command must not start ahead of those already waiting.
      const answer = (result: WriteResult): string => {
        this.#hub.publish(result.changes);
        return result.reply;
      };
      return attempt(false).then(answer, (error: unknown) => {
        if (!trusted || !(stale || mayBeStale(error))) throw error;
        return attempt(true).then(answer);
      });
    }, mayTrust);
  }

  /**
   * One readwrite transaction (over `stores`, default the memory's four); the totals of the journal record passed to
   * `remember` are kept once it commits (then its `committed` runs).
   */
  run<T>(body: (tx: WriteTx, remember: Remember) => Promise<T>, stores?: StoreName[]): Promise<T> {
    let remembered: (() => void) | undefined;
    this.#inFlight++;
    const run = this.#store.run(
      'readwrite',
      (tx) =>
        body(tx, (recorded, trusted, committed) => {
          const keep = this.rememberLater(tx, recorded, trusted);
          remembered = () => {
            keep();
            committed?.();
          };
        }),
      stores,
    );
    return run.then(
      (result) => {
        this.#inFlight--;
        remembered?.();
        return result;
      },
      (error: unknown) => {
        this.#inFlight--;
        throw error;
      },
    );
  }

  /** Once `tx` commits, remembers its totals with its connection (a reopened one may face a rebuilt database). */
  rememberLater(tx: WriteTx, recorded: Recorded, trusted = true): () => void {
    const db = unwrap(tx).db;
    return () => {
      this.#remembered = { db, value: recorded.known(), trusted };
    };
  }

  #rememberedFor(tx: WriteTx): { value: RememberedTotals; trusted: boolean } | undefined {
    return this.#remembered?.db === unwrap(tx).db ? this.#remembered : undefined;
  }
}

/** The paths a command's history entry names: the keys its changes carry, a rename's source first. */
function journalPaths(changes: readonly MemoryChange[]): string[] {
  return changes.flatMap((change) => (change.type === 'rename' ? [change.from, change.path] : [change.path]));
}
