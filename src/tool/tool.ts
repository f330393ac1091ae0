// IndexedDBMemoryTool: the SDK's MemoryToolHandlers on an IndexedDB store. It validates input, runs each
// command as exactly one transaction (commands.ts) and answers with the official reply strings.
// It never touches the DOM and never logs.

import type { MemoryToolHandlers } from '@anthropic-ai/sdk/helpers/beta/memory';
import { unwrap } from 'idb';
import type {
  BetaMemoryTool20250818CreateCommand,
  BetaMemoryTool20250818DeleteCommand,
  BetaMemoryTool20250818InsertCommand,
  BetaMemoryTool20250818RenameCommand,
  BetaMemoryTool20250818StrReplaceCommand,
  BetaMemoryTool20250818ViewCommand,
} from '@anthropic-ai/sdk/resources/beta';
import type { ExportBundleOptions, ImportBundleOptions, ImportReport } from '../bundle/format.js';
import * as commands from '../commands/commands.js';
import type { WriteContext, WriteResult } from '../commands/commands.js';
import { ChangeHub } from '../core/change-events.js';
import type { MemoryChangeListener } from '../core/change-events.js';
import type { MemoryCommand } from '../core/command-input.js';
import { parseMemoryCommand } from '../core/command-input.js';
import { MemoryToolError, isMemoryToolError } from '../core/errors.js';
import type { EntryRecord } from '../storage/schema.js';
import type { MemoryToolErrorCode } from '../core/errors.js';
import type { ChangeDetail, HistoryEntry, HistoryOptions } from '../history/read-history.js';
import type { HistoryLimits, KnownUsage, Recorded, ResolvedHistoryLimits } from '../history/journal.js';
import type { MemoryEntry } from '../storage/tree-reads.js';
import { DEFAULT_HISTORY_LIMITS, record } from '../history/journal.js';
import type { MemoryLimits, ResolvedLimits } from '../core/limits.js';
import { positiveIntegers, resolveLimits } from '../core/limits.js';
import { ReadAhead, StagedReadAhead } from '../storage/read-ahead.js';
import { ERROR_PREFIX, reply } from '../core/replies.js';
import { ACCESS_GRANULARITY_MS } from '../storage/schema.js';
import { findSecret, findSecretAround } from '../guards/secrets.js';
import type { MemoryTx } from '../storage/store.js';
import { MemoryStore, READ_STORES, toMemoryError } from '../storage/store.js';

export interface IndexedDBMemoryToolOptions {
  /** IndexedDB database name. Default `"claude-memory"`; use one per user or per app to keep memories apart. */
  dbName?: string;
  /** `create` on an existing file overwrites it (default `true`) or refuses with `File … already exists`. */
  overwrite?: boolean;
  /** Caps checked before anything is written; see {@link MemoryLimits}. */
  limits?: MemoryLimits;
  /**
   * The journal behind `history()` and `undo()`: bounds (default the last 1,000 changes, 32 MiB of old
   * contents), or `false` to keep none.
   */
  history?: HistoryLimits | false;
  /** Refuse text that looks like an API key, private key or cloud credential (default `true`). */
  blockSecrets?: boolean;
  /**
   * Sees every text before it is stored: return a string to store instead, nothing to keep it, or throw
   * to refuse (the error's message reaches Claude). Runs inside the transaction, so it must be synchronous. It can
   * run twice for one command: a create or edit that finds another tab's or tool's write came between this
   * tool's is run again, and only that run is stored.
   */
  beforeWrite?: (write: BeforeWrite) => string | undefined | void;
}

/** What {@link IndexedDBMemoryToolOptions.beforeWrite} is shown. */
export interface BeforeWrite {
  /** The path as Claude sent it. */
  path: string;
  /** Its normalized key. */
  key: string;
  /** The whole text the file would hold. */
  content: string;
  command: string;
  /** For `str_replace` and `insert`: the span of `content` the edit wrote (UTF-16 offsets, `to` exclusive). */
  changed?: { from: number; to: number };
}

/** Who a command is run for, recorded in the history. */
export interface RunOptions {
  /** Default `claude`; the demo's console uses `user`. */
  actor?: string;
}

/** What `tool.expire()` did. */
export interface ExpireReport {
  /** Normalized paths of the deleted files. */
  deleted: string[];
}

/** What {@link IndexedDBMemoryTool.run} answers: the `tool_result` content and whether it is an error. */
export interface MemoryToolResult {
  content: string;
  is_error: boolean;
  /** With `is_error`: the {@link MemoryToolError} code, for programs (e.g. `storage` to show a full disk). */
  code?: MemoryToolErrorCode;
}

export const DEFAULT_DB_NAME = 'claude-memory';

/**
 * Claude's memory tool (`memory_20250818`) with the `/memories` tree kept in IndexedDB.
 *
 * @example
 * const tool = await IndexedDBMemoryTool.init({ dbName: 'my-app-memory' });
 * await client.beta.messages.toolRunner({ model, max_tokens, messages, tools: [memoryTool(tool)] });
 */
export class IndexedDBMemoryTool implements MemoryToolHandlers {
  readonly dbName: string;
  readonly limits: Readonly<ResolvedLimits>;
  readonly #store: MemoryStore;
  readonly #overwrite: boolean;
  readonly #hub: ChangeHub;
  readonly #history: ResolvedHistoryLimits | undefined;
  readonly #options: IndexedDBMemoryToolOptions;
  /**
   * The totals the last write left and the connection it used (commands.ts `getUsage`), and whether the next write
   * may take them unchecked: not after a write that found another's between its own (`#write`).
   */
  #known: { db: IDBDatabase; value: KnownUsage; trusted: boolean } | undefined;
  /** This tool's readwrite transactions under way (`#runWrite`). */
  #writesInFlight = 0;
  /**
   * The turn of the command under way that later ones must wait for: a write that may run twice (one trusting
   * remembered totals, `#write`), or an app method that awaits something before its transaction (a module loaded on
   * first use, a bundle's hashing; `#inTurn`). Either would otherwise start its transaction after those of commands
   * called after it: a view called after a create must see the file, and `undo(); create(b)` must not undo `b`.
   * Each command waits in a loop of its own, right before it starts its transaction or takes a turn (a helper around
   * the loop would add a step between the check and what follows): woken in call order, they go on in call order,
   * and one that takes a turn in its place sets this at once ({@link #hold}), for those after it to wait for. A turn
   * that has ended stays here until the last command it woke has gone on (`waiting`): a command called in between
   * (by a change listener, say, a few microtasks later) lines up behind them instead of slipping ahead. The last one
   * takes it down in the same step as it goes on: a helper function doing that would leave a microtask between.
   */
  #busy: Turn | undefined;
  /** The bodies of the files this tool has read or written, for their next view or edit to read early. */
  readonly #ahead = new ReadAhead();
  /** Files viewed whose `accessedAt` is stale (by `fileIdentity`), written in one light transaction shortly after. */
  readonly #touched = new Set<commands.FileIdentity>();
  /** The access-time writes under way (`#noteAccess`), for `flushAccess()` to wait for. */
  readonly #touching = new Set<Promise<void>>();
  /**
   * When this tool last showed each file (the last {@link RECENT_VIEWS}), by the file itself (commands.ts
   * `fileIdentity`: its body id), not its path: a rename, by this tool, an undo or another tab, keeps it, and another
   * file later at the path is not it. A stored `accessedAt` lags a view by up to ACCESS_GRANULARITY_MS (a view stays a
   * read): expiry counts this tool's own views from here, exactly. A view is noted when it has read the file, in its
   * transaction: one called before `expire()` has by the time the expiry reads (its transaction came first), and one
   * that fails or finds no file notes nothing.
   */
  readonly #viewed = new Map<commands.FileIdentity, number>();

  private constructor(store: MemoryStore, options: IndexedDBMemoryToolOptions) {
    this.#store = store;
    this.#options = options;
    this.dbName = store.dbName;
    this.#overwrite = options.overwrite ?? true;
    this.limits = Object.freeze(resolveLimits(options.limits));
    this.#history = options.history === false ? undefined : positiveIntegers(DEFAULT_HISTORY_LIMITS, options.history, 'history');
    this.#hub = new ChangeHub(store.dbName);
  }

  /** Opens (creating or upgrading) the database and returns a ready tool. */
  static async init(options: IndexedDBMemoryToolOptions = {}): Promise<IndexedDBMemoryTool> {
    // Bad options are refused before the database is opened.
    resolveLimits(options.limits);
    if (options.history !== false) positiveIntegers(DEFAULT_HISTORY_LIMITS, options.history, 'history');
    const store = await MemoryStore.open(options.dbName ?? DEFAULT_DB_NAME);
    return new IndexedDBMemoryTool(store, options);
  }

  /**
   * Fetches now the parts loaded on first use (undo, history, listing, expiry, bundles), for an app that must keep
   * working when the network goes away after the page has loaded. Claude's six commands never need this. Call it
   * while online: a part that fails to load stays unavailable (code `unavailable`) until the page is reloaded.
   */
  static async preload(): Promise<void> {
    await load(Promise.all([import('../history/undo.js'), import('../history/read-history.js'), import('../storage/tree-reads.js'), import('../history/expire.js'), import('../bundle/bundle.js')]));
  }

  /**
   * Closes the database connection and stops the listeners. Commands after this fail with a `storage` error; a write
   * already under way still commits, and the other tabs hear of it.
   */
  close(): void {
    this.#hub.close();
    this.#store.close();
  }

  /**
   * Calls `listener` after each committed change, made by this tool (`source: 'local'`) or by another tab,
   * worker or tool on the same database (`'remote'`, via BroadcastChannel: a tool posts its changes a task after
   * the command answered). Returns the unsubscribe function.
   */
  subscribe(listener: MemoryChangeListener): () => void {
    return this.#hub.subscribe(listener);
  }

  /** Shows a folder two levels deep or a file with line numbers. */
  async view(command: BetaMemoryTool20250818ViewCommand): Promise<string> {
    const checked = parse(command, 'view');
    for (let turn = this.#busy; turn; turn = this.#busy === turn ? undefined : this.#busy) {
      turn.waiting++;
      await turn.done;
      if (--turn.waiting === 0 && this.#busy === turn) this.#busy = undefined;
    }
    return this.#store.run('readonly', (tx) => commands.view(tx, checked, this.limits.maxReplyChars, (entry) => this.#sawFile(entry), this.#ahead), READ_STORES);
  }

  /** Writes a file, making its parent folders. */
  async create(command: BetaMemoryTool20250818CreateCommand): Promise<string> {
    return this.execute(parse(command, 'create'));
  }

  /** Replaces the one occurrence of `old_str`; refuses none or several. */
  async str_replace(command: BetaMemoryTool20250818StrReplaceCommand): Promise<string> {
    return this.execute(parse(command, 'str_replace'));
  }

  /** Inserts text after line `insert_line` (0 = before the first line). */
  async insert(command: BetaMemoryTool20250818InsertCommand): Promise<string> {
    return this.execute(parse(command, 'insert'));
  }

  /** Deletes a file, or a folder with everything in it. */
  async delete(command: BetaMemoryTool20250818DeleteCommand): Promise<string> {
    return this.execute(parse(command, 'delete'));
  }

  /** Moves a file or folder; the new parent folders are made. */
  async rename(command: BetaMemoryTool20250818RenameCommand): Promise<string> {
    return this.execute(parse(command, 'rename'));
  }

  /**
   * Runs a raw `tool_use.input` and never throws: the reply Claude should read and whether it is an
   * error, worded as the SDK runner words it (`Error: …`). For your own loop or another SDK.
   */
  async run(input: unknown, options: RunOptions = {}): Promise<MemoryToolResult> {
    try {
      return { content: await this.execute(parseMemoryCommand(input), options), is_error: false };
    } catch (error) {
      const failure = toMemoryError(error);
      return { content: ERROR_PREFIX + failure.message, is_error: true, code: failure.code };
    }
  }

  /** Runs a validated command; throws a MemoryToolError on refusal. */
  async execute(command: MemoryCommand, options: RunOptions = {}): Promise<string> {
    const actor = options.actor ?? 'claude';
    switch (command.command) {
      case 'view':
        return this.view(command);
      case 'create':
        return this.#write(actor, command.command, (tx, ctx) => commands.create(tx, command, ctx));
      case 'str_replace':
        return this.#write(actor, command.command, (tx, ctx) => commands.strReplace(tx, command, ctx));
      case 'insert':
        return this.#write(actor, command.command, (tx, ctx) => commands.insert(tx, command, ctx));
      case 'delete':
        return this.#write(actor, command.command, (tx, ctx) => commands.remove(tx, command, ctx));
      case 'rename':
        return this.#write(actor, command.command, (tx, ctx) => commands.rename(tx, command, ctx));
    }
  }

  /**
   * Every file and folder below `path` (default the whole memory, hidden names included), sorted by path:
   * metadata only, for an app's own tree view. Not an access by Claude.
   */
  async list(path?: string): Promise<MemoryEntry[]> {
    return this.#inTurn(async () => {
      const { listEntries } = await load(import('../storage/tree-reads.js'));
      return this.#store.run('readonly', (tx) => listEntries(tx, path), READ_STORES);
    });
  }

  /** The raw text of a file (no line numbers), for an app's own viewer. Not an access by Claude. */
  async read(path: string): Promise<string> {
    return this.#inTurn(async () => {
      const { readFile } = await load(import('../storage/tree-reads.js'));
      return this.#store.run('readonly', (tx) => readFile(tx, path), READ_STORES);
    });
  }

  /** The journaled changes, newest first. */
  async history(options: HistoryOptions = {}): Promise<HistoryEntry[]> {
    return this.#inTurn(async () => {
      const { readHistory } = await load(import('../history/read-history.js'));
      return this.#store.run('readonly', (tx) => readHistory(tx, options));
    });
  }

  /** One change with each file's text before and after it (for a diff), or undefined once dropped. */
  async change(id: number): Promise<ChangeDetail | undefined> {
    return this.#inTurn(async () => {
      const { readChange } = await load(import('../history/read-history.js'));
      return this.#store.run('readonly', (tx) => readChange(tx, id));
    });
  }

  /**
   * Reverses change `id` (default: the latest change not yet undone) if it applies cleanly: every file it
   * touched must still be as it left it. The undo is itself journaled (actor `user`), so it can be undone.
   * Answers with its own journal entry.
   */
  async undo(id?: number): Promise<HistoryEntry> {
    return this.#inTurn(async () => {
      // Loaded before the transaction starts: awaiting anything but its requests would let it commit.
      const [{ findUndoTarget, markUndone, undoChange }, { readEntry }] = await load(Promise.all([import('../history/undo.js'), import('../history/read-history.js')]));
      const now = Date.now();
      const result = await this.#runWrite(async (tx, remember) => {
        const target = await findUndoTarget(tx, id);
        const undone = await undoChange(tx, target, this.limits, now);
        await markUndone(tx, target);
        const draft = { actor: 'user', command: 'undo', paths: target.paths, ops: undone.ops, retired: undone.retired, undoOf: target.id ?? 0 };
        const recorded = await record(tx, draft, now, this.#history, undone.usage);
        remember(recorded);
        // Read back in the transaction: what `history()` will show for it, with no other change in between.
        return { ...undone, paths: draft.paths, undoOf: draft.undoOf, entry: await readEntry(tx, await recorded.key) };
      });
      this.#hub.publish(result.changes);
      // None when this tool keeps no history (it can still undo a change another tool journaled): not journaled, id 0.
      return result.entry ?? { id: 0, at: new Date(now), actor: 'user', command: 'undo', paths: result.paths, undoable: false, undone: false, undoOf: result.undoOf };
    });
  }

  /**
   * Deletes the files not read or written since `olderThan` (a Date, or an age in milliseconds), as the
   * documentation recommends for long-lived memories. Journaled as actor `expire`, so it can be undone.
   */
  async expire(options: { olderThan: Date | number }): Promise<ExpireReport> {
    const now = Date.now();
    const cutoff = options.olderThan instanceof Date ? options.olderThan.getTime() : now - options.olderThan;
    // A negative age puts the cutoff in the future, which would delete every file: a mistake, not a wish.
    if (!Number.isFinite(cutoff) || (typeof options.olderThan === 'number' && options.olderThan < 0)) {
      throw new TypeError('expire: olderThan must be a Date or a number of milliseconds, 0 or more');
    }
    return this.#inTurn(async () => {
      const { expireFiles } = await load(import('../history/expire.js'));
      await this.flushAccess();
      const result = await this.#runWrite(async (tx, remember) => {
        const expired = await expireFiles(tx, cutoff, this.#viewed);
        if (expired.paths.length > 0) {
          remember(await record(tx, { actor: 'expire', command: 'expire', paths: expired.paths, ops: expired.ops, retired: expired.retired }, now, this.#history, expired.usage));
        }
        return expired;
      });
      this.#hub.publish(result.changes);
      return { deleted: result.paths };
    });
  }

  /** Writes pending access times now (they are otherwise written shortly after the views). */
  async flushAccess(): Promise<void> {
    while (this.#touching.size > 0) await Promise.all(this.#touching);
  }

  /** A view has shown the file `entry`: remembered for expiry, and its access time written soon if it is stale. */
  #sawFile(entry: EntryRecord): void {
    const now = Date.now();
    const which = commands.fileIdentity(entry);
    this.#viewed.delete(which);
    this.#viewed.set(which, now);
    if (this.#viewed.size > RECENT_VIEWS) this.#viewed.delete(this.#viewed.keys().next().value as commands.FileIdentity);
    // Stale when the file's last use as stored (its last write or stored view, whichever is later) is: a view of a file
    // written within the hour stays a read, whenever it was last viewed.
    if (commands.lastUsed(entry) < now - ACCESS_GRANULARITY_MS) this.#noteAccess(which);
  }

  /**
   * Writes the access time of `which` in a transaction of its own, with those of the other files that views read in
   * the same microtask. Each such round starts its transaction at once, also while another is under way: started
   * before the view answers, it still commits if the tool is closed right after (one waiting for another would not).
   */
  #noteAccess(which: commands.FileIdentity): void {
    // A round is due already (this microtask's): it takes this file too.
    const due = this.#touched.size > 0;
    this.#touched.add(which);
    if (due) return;
    const round = Promise.resolve().then(async () => {
      const read = [...this.#touched];
      this.#touched.clear();
      try {
        await this.#store.run('readwrite', (tx) => commands.touchFiles(tx, read, Date.now()), ['entries']);
      } catch {
        // Access times only steer expiry; a failed update must not fail the view that caused it.
      } finally {
        this.#touching.delete(round);
      }
    });
    this.#touching.add(round);
  }

  /** The memory (or the subtree `options.path`) as a `claude-memory-bundle` JSON file. */
  async exportBundle(options: ExportBundleOptions = {}): Promise<Blob> {
    return this.#inTurn(async () => {
      // Loaded on first use: an app that never exports or imports does not ship the bundle code.
      const bundles = await load(import('../bundle/bundle.js'));
      return bundles.exportBundle(this.#store, options);
    });
  }

  /**
   * Checks a bundle whole, then applies it in one transaction (or only reports, with `dryRun`). The import is
   * journaled as one change (actor `user`), so `undo()` can take it back.
   */
  async importBundle(input: Blob | string, options: ImportBundleOptions = {}): Promise<ImportReport> {
    return this.#inTurn(async () => {
      const bundles = await load(import('../bundle/bundle.js'));
      let remembered: (() => void) | undefined;
      const report = await bundles.importBundle(this.#store, this.limits, input, options, this.#history, (tx, recorded) => {
        remembered = this.#remember(tx, recorded);
      });
      // The next write then need not read the import's journal entry (with every file's step) for the totals.
      remembered?.();
      if (!report.dryRun) this.#hub.publish(bundles.importChanges(report));
      return report;
    });
  }

  /** Runs `task` in its turn: after the commands called before it, with those called after it waiting for it. */
  async #inTurn<T>(task: () => Promise<T>): Promise<T> {
    for (let turn = this.#busy; turn; turn = this.#busy === turn ? undefined : this.#busy) {
      turn.waiting++;
      await turn.done;
      if (--turn.waiting === 0 && this.#busy === turn) this.#busy = undefined;
    }
    const release = this.#hold();
    try {
      return await task();
    } finally {
      release();
    }
  }

  /**
   * Takes a turn: the commands called from now on wait (`#busy`) until the returned function is called. Only right
   * after the wait loop, with no await between.
   */
  #hold(): () => void {
    let release!: () => void;
    const turn: Turn = { done: new Promise((resolve) => (release = resolve)), waiting: 0 };
    this.#busy = turn;
    return () => {
      if (turn.waiting === 0 && this.#busy === turn) this.#busy = undefined;
      release();
    };
  }

  /**
   * One write command: its body, the content checks and its journal entry, all in one transaction. When it is this
   * tool's only write under way, it starts from the totals the tool's last write left, unread, and proves them by its
   * journal record's key: the store's key generator only counts up, and every change of the totals takes a key from
   * it (journal.ts `record`), so the key right after theirs means no other write came between. Any other key
   * (another tab's or tool's write) aborts it, as does a body id taken meanwhile (the add fails), and it runs once
   * more, reading the totals in its transaction; a limit refusal first checks them there (one key lookup) and stands
   * if they were current. What it stored and published is only ever from the run that committed, and the commands
   * called meanwhile wait for it, so they still run in call order (`#busy`). Otherwise, and
   * after such a run (while other writers are busy), it checks them first, with that key lookup, until a write finds
   * no other between. `delete` and `rename` always check: one of a big folder would do all its work twice.
   */
  async #write(
    actor: string,
    command: string,
    body: (tx: MemoryTx<'readwrite'>, ctx: WriteContext) => Promise<WriteResult>,
  ): Promise<string> {
    for (let turn = this.#busy; turn; turn = this.#busy === turn ? undefined : this.#busy) {
      turn.waiting++;
      await turn.done;
      if (--turn.waiting === 0 && this.#busy === turn) this.#busy = undefined;
    }
    // With another write of this tool under way, the totals it leaves are not known yet: no use trusting these.
    const mayTrust = this.#known?.trusted === true && TRUSTING.has(command) && this.#writesInFlight === 0;
    const ctx: WriteContext = {
      limits: this.limits,
      overwrite: this.#overwrite,
      now: Date.now(),
      screen: (write) => this.#screen(write),
      filter: (write) => this.#filter(write),
      rewrites: this.#options.beforeWrite !== undefined,
    };
    let trusted = false;
    // Set by a run that found (or could not rule out) that its remembered totals were stale: it runs once more. Kept
    // here, not read from the error, which the store reports as the failure that aborted the transaction, if any.
    let stale = false;
    const attempt = async (again: boolean) => {
      // The bodies it writes become guesses only once it commits (a rerun's body ids differ).
      const ahead = new StagedReadAhead(this.#ahead);
      const done = await this.#runWrite(async (tx, remember) => {
        const known = again ? undefined : this.#knownFor(tx);
        trusted = mayTrust && known?.trusted === true;
        let written: WriteResult;
        try {
          written = await body(tx, { ...ctx, known: known?.value, trusted, ahead });
        } catch (error) {
          if (trusted && known && isMemoryToolError(error) && error.code === 'too_large') {
            // A body sent early may have failed (its id taken, a full disk) and aborted the transaction before this
            // lookup: the totals are then not known to be current, and a run from fresh ones decides.
            const current = await commands.isCurrent(tx, known.value).catch(() => false);
            if (!current) {
              stale = true;
              throw new StaleTotals();
            }
          }
          throw error;
        }
        const recorded = await record(tx, { actor, command, paths: journalPaths(written.changes), ops: written.ops, retired: written.retired }, ctx.now, this.#history, written.usage);
        // The add is the transaction's last request, or was answered before `record` returned: no round trip.
        const alone = known === undefined ? !again : (await recorded.key) === known.value.key + 1;
        if (trusted && !alone) {
          stale = true;
          throw new StaleTotals();
        }
        remember(recorded, alone);
        return written;
      });
      ahead.commit();
      return done;
    };
    let result: WriteResult;
    const release = mayTrust ? this.#hold() : undefined;
    try {
      try {
        result = await attempt(false);
      } catch (error) {
        if (!trusted || !(stale || mayBeStale(error))) throw error;
        result = await attempt(true);
      }
      // Before the wait ends: a listener's own command must not start ahead of those already waiting.
      this.#hub.publish(result.changes);
    } finally {
      release?.();
    }
    return result.reply;
  }

  /**
   * One readwrite transaction whose journal record's totals, passed to `remember`, are kept once it commits (as
   * trusted unless it says otherwise).
   */
  async #runWrite<T>(body: (tx: MemoryTx<'readwrite'>, remember: (recorded: Recorded, trusted?: boolean) => void) => Promise<T>): Promise<T> {
    let remembered: (() => void) | undefined;
    this.#writesInFlight++;
    try {
      const result = await this.#store.run('readwrite', (tx) =>
        body(tx, (recorded, trusted) => {
          remembered = this.#remember(tx, recorded, trusted);
        }),
      );
      remembered?.();
      return result;
    } finally {
      this.#writesInFlight--;
    }
  }

  /** The totals this tool's last write left, if they were written through the connection `tx` uses. */
  #knownFor(tx: MemoryTx<'readwrite'>): { value: KnownUsage; trusted: boolean } | undefined {
    return this.#known?.db === unwrap(tx).db ? this.#known : undefined;
  }

  /**
   * What to call once `tx` has committed, to remember the totals it wrote. They are tied to the connection: one
   * the browser closed or another tab's upgrade replaced may come back to a database rebuilt from scratch.
   */
  #remember(tx: MemoryTx<'readwrite'>, recorded: Recorded, trusted = true): () => void {
    const db = unwrap(tx).db;
    return () => {
      this.#known = { db, value: recorded.known(), trusted };
    };
  }

  /** The secret check (`blockSecrets`): an edit is checked around what it changed, anything else whole. */
  #screen(write: BeforeWrite): MemoryToolError | undefined {
    if (this.#options.blockSecrets === false) return undefined;
    const secret = write.changed ? findSecretAround(write.content, write.changed.from, write.changed.to) : findSecret(write.content);
    return secret ? new MemoryToolError('forbidden', reply.secret(write.path, secret)) : undefined;
  }

  /** `beforeWrite`: the text to store, rewritten or not; a throw refuses the write. */
  #filter(write: BeforeWrite): string {
    const hook = this.#options.beforeWrite;
    if (!hook) return write.content;
    let rewritten: string | undefined | void;
    try {
      rewritten = hook(write);
    } catch (error) {
      if (error instanceof MemoryToolError) throw error;
      const why = error instanceof Error ? error.message : String(error);
      throw new MemoryToolError('forbidden', reply.beforeWriteRefused(write.path, why), { cause: error });
    }
    if (rewritten === undefined) return write.content;
    if (typeof rewritten !== 'string') throw new TypeError('beforeWrite must return a string or nothing');
    return rewritten;
  }
}

/**
 * A part loaded on first use, or an `unavailable` error saying why not: the chunk could not be fetched (offline, a
 * deploy that replaced it), and the browser keeps that failure until the page is reloaded.
 */
async function load<T>(loading: Promise<T>): Promise<T> {
  try {
    return await loading;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new MemoryToolError('unavailable', reply.unavailable(why), { cause: error });
  }
}

/**
 * Handlers are public API: a caller may pass anything, so each one checks its input like the runnable tool
 * does. A wrong `command` field is fixed to the handler's own, as the SDK dispatches by it.
 */
function parse<C extends MemoryCommand>(command: C, name: C['command']): C {
  return parseMemoryCommand({ ...(command as object), command: name }) as C;
}

/** A command's turn (`#busy`): settles when it ends; `waiting` counts the commands it has yet to let go on. */
interface Turn {
  done: Promise<void>;
  waiting: number;
}

/** The commands that take remembered totals unchecked (`#write`): the ones writing one file's text. */
const TRUSTING = new Set(['create', 'str_replace', 'insert']);

/**
 * The paths a command's history entry names: the keys its changes carry (`/memories//a.md/` is `/memories/a.md`),
 * a rename's source first.
 */
function journalPaths(changes: readonly commands.MemoryChange[]): string[] {
  return changes.flatMap((change) => (change.type === 'rename' ? [change.from, change.path] : [change.path]));
}

/** How many files a tool remembers viewing, for expiry (`#viewed`). */
const RECENT_VIEWS = 1024;

/** A write that found, by its journal record's key, that another write came after the totals it started from. */
class StaleTotals extends Error {
  constructor() {
    super('the memory changed since this tool last wrote');
    this.name = 'StaleTotals';
  }
}

/**
 * A storage failure a write may owe to totals another writer has since changed, when it started from remembered
 * ones: an abort by a failed request (the body id it wrote may have been taken meanwhile: the add fails, and the
 * transaction aborts). Worth one more run from totals read afresh, as is a run that found them stale itself (it
 * threw {@link StaleTotals}, and `#write` marks it `stale`).
 */
function mayBeStale(error: unknown): boolean {
  if (!isMemoryToolError(error) || error.code !== 'storage') return false;
  const cause = error.cause as { name?: unknown } | undefined;
  return cause?.name === 'AbortError' || cause?.name === 'ConstraintError';
}
