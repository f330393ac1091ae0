// The person's actions on the history, each one write: undo a change, expire old files, forget a path for good, clear
// the history. The tool checks their input and keeps them in call order; the steps themselves are ../history/'s.

import type { ChangeHub } from '../core/change-events.js';
import type { ResolvedLimits } from '../core/limits.js';
import { MEMORY_ROOT } from '../core/paths.js';
import type { JournalDraft, ResolvedHistoryLimits } from '../history/journal.js';
import { record } from '../history/journal.js';
import type { HistoryEntry } from '../history/read-history.js';
import type { AccessTimes } from './access-times.js';
import { parts } from './lazy-parts.js';
import type { ClearHistoryReport, ExpireReport, ForgetReport } from './options.js';
import type { WriteRunner } from './write-runner.js';

/** A change kept out of the history (it would name what was erased): its record only carries the totals, hidden. */
const unjournaled = (command: string): JournalDraft => ({ actor: 'user', command, paths: [], ops: [], retired: [] });

export class HistoryActions {
  readonly #writes: WriteRunner;
  readonly #hub: ChangeHub;
  readonly #history: ResolvedHistoryLimits | undefined;
  readonly #limits: Readonly<ResolvedLimits>;
  readonly #access: AccessTimes;

  constructor(
    writes: WriteRunner,
    hub: ChangeHub,
    history: ResolvedHistoryLimits | undefined,
    limits: Readonly<ResolvedLimits>,
    access: AccessTimes,
  ) {
    this.#writes = writes;
    this.#hub = hub;
    this.#history = history;
    this.#limits = limits;
    this.#access = access;
  }

  /** Reverses change `id` (default the latest not undone) if it applies cleanly; journaled, so it can be undone too. */
  async undo(id: number | undefined): Promise<HistoryEntry> {
    // Loaded before the transaction starts: awaiting anything but its requests would let it commit.
    const [{ findUndoTarget, markUndone, undoChange }, { readEntry }] = await Promise.all([
      parts.undo(),
      parts.history(),
    ]);
    const now = Date.now();
    const result = await this.#writes.run(async (tx, remember) => {
      const target = await findUndoTarget(tx, id);
      const undone = await undoChange(tx, target, this.#limits, now);
      await markUndone(tx, target);
      const draft = {
        actor: 'user',
        command: 'undo',
        paths: target.paths,
        ops: undone.ops,
        retired: undone.retired,
        undoOf: target.id ?? 0,
      };
      const recorded = await record(tx, draft, now, this.#history, undone.usage);
      remember(recorded);
      // Read back in the transaction: what `history()` will show for it, with no other change in between.
      return { ...undone, paths: draft.paths, undoOf: draft.undoOf, entry: await readEntry(tx, await recorded.key) };
    });
    this.#hub.publish(result.changes);
    // None when this tool keeps no history (it can still undo a change another tool journaled): not journaled, id 0.
    return result.entry ?? {
      id: 0,
      at: new Date(now),
      actor: 'user',
      command: 'undo',
      paths: result.paths,
      undoable: false,
      undone: false,
      undoOf: result.undoOf,
    };
  }

  /** Deletes the files not read or written since `cutoff` (checked by the tool); journaled, so undoable. */
  async expire(cutoff: number, now: number): Promise<ExpireReport> {
    const { expireFiles } = await parts.expire();
    await this.#access.flush();
    const result = await this.#writes.run(async (tx, remember) => {
      const expired = await expireFiles(tx, cutoff, this.#access.viewed);
      if (expired.paths.length > 0) {
        const draft = {
          actor: 'expire',
          command: 'expire',
          paths: expired.paths,
          ops: expired.ops,
          retired: expired.retired,
        };
        remember(await record(tx, draft, now, this.#history, expired.usage));
      }
      return expired;
    });
    this.#hub.publish(result.changes);
    return { deleted: result.paths };
  }

  /** Erases `key` (normalized by the tool) and every copy of it the history holds, for good. */
  async forget(key: string): Promise<ForgetReport> {
    const { forgetPath } = await parts.forget();
    const now = Date.now();
    const result = await this.#writes.run(async (tx, remember) => {
      const forgotten = await forgetPath(tx, key);
      remember(await record(tx, unjournaled('forget'), now, undefined, forgotten.usage));
      return forgotten;
    });
    this.#hub.publish(result.changes);
    return {
      path: key,
      deleted: result.deleted,
      removedChanges: result.removed,
      trimmedChanges: result.trimmed,
      keptIn: result.keptIn,
    };
  }

  /** Empties the history for good; the files stay as they are. */
  async clearHistory(): Promise<ClearHistoryReport> {
    const { clearJournal } = await parts.forget();
    const now = Date.now();
    const cleared = await this.#writes.run(async (tx, remember) => {
      const done = await clearJournal(tx);
      if (done) remember(await record(tx, unjournaled('clear-history'), now, undefined, done.usage));
      return done;
    });
    if (cleared) this.#hub.publish([{ type: 'history-cleared', path: MEMORY_ROOT }]);
    return { removedChanges: cleared?.removed ?? 0 };
  }
}
