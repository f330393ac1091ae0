// What a tool is built from: its options checked (before the database opens), and the units they make: the limits,
// the history bounds, the change hub, the write runner, the access times and the command context.

import { ChangeHub } from '../core/change-events.js';
import type { ResolvedLimits } from '../core/limits.js';
import { positiveIntegers, resolveLimits } from '../core/limits.js';
import { checkOptionKeys } from '../core/option-keys.js';
import type { ResolvedHistoryLimits } from '../history/history-limits.js';
import { DEFAULT_HISTORY_LIMITS } from '../history/history-limits.js';
import { ReadAhead } from '../storage/read-ahead.js';
import { MemoryStore } from '../storage/store.js';
import { AccessTimes } from './access-times.js';
import { CallOrder } from './call-order.js';
import type { HistoryActionContext } from './history-actions.js';
import type { ToolInternals } from './internals.js';
import type { IndexedDBMemoryToolOptions } from './options.js';
import { type WritePart, parts } from './lazy-parts.js';
import type { CommandContext, WriteRunner } from './write-runner.js';

export type { CommandContext } from './write-runner.js';

/** The keys `init()` takes: any other is a TypeError naming the nearest (a typo must not open another database). */
const INIT_KEYS = ['dbName', 'overwrite', 'limits', 'history', 'blockSecrets', 'beforeWrite', 'approve'];

/** Refuses bad options before the database is opened: unknown keys, bad limits, bad history bounds. */
export async function checkInitOptions(options: IndexedDBMemoryToolOptions): Promise<void> {
  await checkOptionKeys(options, INIT_KEYS);
  resolveLimits(options.limits);
  if (options.history !== false) positiveIntegers(DEFAULT_HISTORY_LIMITS, options.history, 'history');
}

/**
 * Opens the database while the write path loads (./README.md, "Size"): an app's first script does not carry it, and
 * the first write does not wait for it. If either fails, nothing is left open.
 */
export async function openWithWritePath(dbName: string): Promise<{ store: MemoryStore; writing: WritePart }> {
  const loading = parts.writing();
  loading.catch(() => undefined); // awaited below; an opening that fails first must not leave it unhandled
  const store = await MemoryStore.open(dbName);
  try {
    return { store, writing: await loading };
  } catch (error) {
    store.close();
    throw error;
  }
}

export interface ToolUnits {
  /** The write path, loaded by `init()` (./write-part.ts). */
  writing: WritePart;
  limits: Readonly<ResolvedLimits>;
  history: ResolvedHistoryLimits | undefined;
  order: CallOrder;
  hub: ChangeHub;
  writes: WriteRunner;
  ahead: ReadAhead;
  access: AccessTimes;
  /** What the app's actions on the history run with. */
  actions: HistoryActionContext;
  /** What Claude's write commands run with. */
  context: CommandContext;
}

/** The units of a tool on `store`, the write path (`writing`) loaded. */
export function toolUnits(store: MemoryStore, options: IndexedDBMemoryToolOptions, writing: WritePart): ToolUnits {
  const limits = Object.freeze(resolveLimits(options.limits));
  const history =
    options.history === false ? undefined : positiveIntegers(DEFAULT_HISTORY_LIMITS, options.history, 'history');
  const order = new CallOrder();
  const hub = new ChangeHub(store.dbName);
  const ahead = new ReadAhead();
  const writes = new writing.WriteRunner(store, order, hub, history, ahead);
  const access = new AccessTimes(store);
  return {
    writing,
    limits,
    history,
    order,
    hub,
    writes,
    ahead,
    access,
    actions: { store, writes, hub, history, limits, access },
    context: {
      limits,
      overwrite: options.overwrite ?? true,
      ...writing.writeGuards(options.blockSecrets !== false, options.beforeWrite),
    },
  };
}

/** What a feature built on the tool (sync) reaches through `internalsOf`: the units, and the tool's call order. */
export function toolInternals(
  store: MemoryStore,
  units: ToolUnits,
  inTurn: <T>(task: () => Promise<T>) => Promise<T>,
): ToolInternals {
  const { limits, context, history, writes, hub } = units;
  return {
    store,
    limits,
    context,
    history,
    write: (body) => writes.run(body),
    publish: (changes) => hub.publish(changes),
    inTurn,
  };
}
