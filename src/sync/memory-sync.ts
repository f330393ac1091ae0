// createMemorySync: a mount of a remote at a local folder, its passes (on demand, after local changes, on an
// interval, when the page comes back), one tab at a time, retried with backoff, its status for any UI.

import { MEMORY_ROOT, isWithin, normalizeMemoryPath } from '../core/paths.js';
import type { IndexedDBMemoryTool } from '../tool/tool.js';
import { internalsOf } from '../tool/internals.js';
import type { ToolInternals } from '../tool/internals.js';
import { clearBaseline } from './baseline.js';
import { listConflicts, settleConflict } from './conflicts.js';
import type { SyncRemote } from './remote.js';
import { onPageReturn } from './page-events.js';
import { openPassChannel } from './pass-channel.js';
import type { HeardPass, PassChannel } from './pass-channel.js';
import { failureOf } from './retry-policy.js';
import { withSyncLock } from './sync-lock.js';
import { runPass } from './sync-pass.js';
import type { SyncReport } from './sync-report.js';
import { initialStatus } from './sync-status.js';
import type { SyncStatus } from './sync-status.js';
import type { MemorySync, MemorySyncOptions, SyncNowOptions } from './memory-sync-types.js';

export type { MemorySync, MemorySyncOptions, SyncNowOptions } from './memory-sync-types.js';

const DEFAULTS = { interval: 60_000, debounce: 2_000, min: 10, share: 0.25 };
/** Mount folders in use, per tool: an outer mount leaves the folders of the mounts inside it alone. */
const mounted = new WeakMap<object, Set<string>>();

/**
 * Mounts `options.remote` at a folder of `tool` and keeps the two in step by three-way merge: background passes start
 * at once unless `interval` is `null`. Throws a TypeError when the folder is already mounted on this tool.
 *
 * @example
 * const sync = createMemorySync(tool, { remote: memoryStoreRemote({ client, storeId: 'memstore_…' }) });
 * const report = await sync.syncNow();
 */
export function createMemorySync(tool: IndexedDBMemoryTool, options: MemorySyncOptions): MemorySync {
  return new Mount(tool, options);
}

class Mount implements MemorySync {
  readonly mount: string;
  readonly remote: SyncRemote;
  readonly #tool: ToolInternals;
  readonly #dbName: string;
  readonly #key: string;
  readonly #interval: number | null;
  readonly #debounce: number;
  readonly #guard: { min: number; share: number };
  readonly #listeners = new Set<(status: SyncStatus) => void>();
  readonly #channel: PassChannel;
  readonly #unsubscribe: () => void;
  readonly #forget: () => void;
  readonly #unlistenPage: () => void;
  readonly #owner: IndexedDBMemoryTool;
  #status = initialStatus();
  #pending = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #due = 0;
  #abort = new AbortController();
  #running: Promise<unknown> = Promise.resolve();
  #failures = 0;
  #stopped = false;
  #closed = false;

  constructor(tool: IndexedDBMemoryTool, options: MemorySyncOptions) {
    const remote = options.remote;
    if (!remote || typeof remote.list !== 'function' || typeof remote.id !== 'string') {
      throw new TypeError('createMemorySync needs a remote (memoryStoreRemote(), webdavRemote() or a SyncRemote)');
    }
    this.#tool = internalsOf(tool);
    this.#owner = tool;
    this.#dbName = tool.dbName;
    this.remote = remote;
    this.mount = normalizeMemoryPath(options.mount ?? MEMORY_ROOT);
    this.#key = `${remote.id}|${this.mount}`;
    this.#interval = checkDelay(options.interval === undefined ? DEFAULTS.interval : options.interval, 'interval');
    this.#debounce = checkDelay(options.debounce ?? DEFAULTS.debounce, 'debounce') ?? DEFAULTS.debounce;
    this.#guard = { min: options.deleteGuard?.min ?? DEFAULTS.min, share: options.deleteGuard?.share ?? DEFAULTS.share };
    const mounts = mounted.get(tool) ?? new Set<string>();
    if (mounts.has(this.mount)) throw new TypeError(`${this.mount} is already mounted on this tool`);
    mounts.add(this.mount);
    mounted.set(tool, mounts);
    this.#forget = () => mounts.delete(this.mount);
    this.#unsubscribe = tool.subscribe((event) => {
      let mine = false;
      for (const change of event.changes) {
        if (isWithin(change.path, this.mount) || ('from' in change && isWithin(change.from, this.mount))) {
          this.#pending.add(change.path);
          mine = true;
        }
      }
      if (!mine) return;
      this.#set({ pending: this.#pending.size });
      if (this.#interval !== null) this.#schedule(this.#debounce);
    });
    this.#channel = openPassChannel(this.#lockName(), (news) => this.#hear(news));
    this.#unlistenPage = onPageReturn(() => this.#schedule(0));
    if (this.#interval !== null) this.#schedule(0);
  }

  status(): SyncStatus {
    return { ...this.#status };
  }

  subscribe(listener: (status: SyncStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  syncNow(options: SyncNowOptions = {}): Promise<SyncReport> {
    const pass = this.#running.catch(() => undefined).then(() => this.#pass(true, options.confirmDeletes ?? false));
    this.#running = pass;
    return pass.then((result) => {
      if (result === 'busy') throw new Error('unreachable: a waiting pass always runs');
      return result;
    });
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#abort.abort(new DOMException('sync stopped', 'AbortError'));
    this.#abort = new AbortController();
    this.#set({ state: 'stopped' });
  }

  start(): void {
    if (!this.#stopped || this.#closed) return;
    this.#stopped = false;
    this.#set({ state: 'idle' });
    if (this.#interval !== null) this.#schedule(0);
  }

  /** Stops for good and lets go of the mount (another `createMemorySync` may take it). */
  close(): void {
    this.#closed = true;
    this.stop();
    this.#unsubscribe();
    this.#unlistenPage();
    this.#channel.close();
    this.#forget();
  }

  async resolve(copy: string, keep: 'current' | 'copy'): Promise<void> {
    await settleConflict(this.#tool, this.mount, this.#key, copy, keep);
    await this.#refreshConflicts();
  }

  async resetBaseline(): Promise<void> {
    await this.#tool.inTurn(() => this.#tool.write((tx) => clearBaseline(tx, this.#key)));
  }

  #lockName(): string {
    return `idb-memory-tool sync ${this.#dbName} ${this.mount}`;
  }

  async #pass(wait: boolean, confirmDeletes: boolean): Promise<SyncReport | 'busy'> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const heard = new Set(this.#pending);
    this.#pending.clear();
    const signal = this.#abort.signal;
    this.#set({ state: 'syncing', pending: 0 });
    try {
      const outcome = await withSyncLock(this.#lockName(), wait, () =>
        runPass({
          tool: this.#tool,
          remote: this.remote,
          mountFolder: this.mount,
          mountKey: this.#key,
          excluded: [...(mounted.get(this.#owner) ?? [])].filter((m) => m !== this.mount && isWithin(m, this.mount)),
          confirmDeletes,
          deleteGuard: this.#guard,
          signal,
        }),
      );
      if (outcome === 'busy') {
        for (const path of heard) this.#pending.add(path);
        this.#set({ state: 'other-tab', pending: this.#pending.size });
        // Tried again later, so this tab takes over when the one syncing closes.
        if (this.#interval !== null) this.#schedule(this.#interval);
        return 'busy';
      }
      const report = outcome.done;
      // Changes this pass made here were heard as local changes: they are not pending.
      for (const path of [...report.pulled, ...report.deleted]) this.#pending.delete(path);
      this.#failures = 0;
      const lastSync = new Date();
      this.#set({
        state: this.#stopped ? 'stopped' : 'idle',
        lastSync,
        lastReport: report,
        skipped: report.skipped,
        held: report.held,
        error: null,
        pending: this.#pending.size,
      });
      this.#channel.post({ lastSync: lastSync.getTime(), report });
      await this.#refreshConflicts();
      if (this.#pending.size > 0 && this.#interval !== null) this.#schedule(this.#debounce);
      else if (this.#interval !== null) this.#schedule(this.#interval);
      return report;
    } catch (error) {
      for (const path of heard) this.#pending.add(path);
      const retrying = !this.#stopped && this.#interval !== null;
      const { error: failure, retryable } = failureOf(error, this.#failures + 1, retrying);
      if (retryable) this.#failures++;
      this.#set({ state: this.#stopped ? 'stopped' : 'error', error: failure, pending: this.#pending.size });
      if (failure.retryAt) this.#schedule(failure.retryAt.getTime() - Date.now());
      throw error;
    }
  }

  /** Plans a background pass in `delay` ms, unless one is already planned sooner. */
  #schedule(delay: number): void {
    if (this.#stopped || this.#interval === null) return;
    const due = Date.now() + Math.max(0, delay);
    if (this.#timer !== undefined && this.#due <= due) return;
    clearTimeout(this.#timer);
    this.#due = due;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const pass = this.#running.catch(() => undefined).then(() => this.#pass(false, false));
      this.#running = pass;
      // A background failure is in the status; nobody awaits it.
      pass.catch(() => undefined);
    }, Math.max(0, delay));
    // In Node, background passes alone do not keep a process alive (a script ends; syncNow() is awaited).
    unref(this.#timer);
  }

  /** Another tab's pass: its result is this mount's, and what it carried is no longer pending here. */
  #hear({ lastSync, report }: HeardPass): void {
    for (const path of [...report.pushed, ...report.pulled, ...report.deleted]) this.#pending.delete(path);
    const state = this.#status.state === 'other-tab' ? 'idle' : this.#status.state;
    const { skipped, held } = report;
    this.#set({ state, lastSync: new Date(lastSync), lastReport: report, skipped, held, pending: this.#pending.size });
    // A tool closed meanwhile has no conflicts to show.
    this.#refreshConflicts().catch(() => undefined);
  }

  async #refreshConflicts(): Promise<void> {
    this.#set({ conflicts: await listConflicts(this.#tool, this.mount) });
  }

  #set(patch: Partial<SyncStatus>): void {
    this.#status = { ...this.#status, ...patch };
    const status = this.status();
    for (const listener of this.#listeners) {
      try {
        listener(status);
      } catch {
        // A failing listener must not stop the others, nor the pass.
      }
    }
  }
}

/** Node's `unref()` on a timer, where there is one. */
function unref(handle: unknown): void {
  (handle as { unref?: () => void } | undefined)?.unref?.();
}

function checkDelay(value: number | null, name: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`${name} must be a number of milliseconds (0 or more) or null, got ${String(value)}`);
  }
  return value;
}
