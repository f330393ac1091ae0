// What a feature built on a tool (sync) reaches beyond the public API: the store, the guards and the write runner,
// looked up by tool so none of it is a public member an app could call by mistake.

import type { MemoryChange } from '../core/change-events.js';
import type { ResolvedLimits } from '../core/limits.js';
import type { ResolvedHistoryLimits } from '../history/journal.js';
import type { MemoryStore, MemoryTx } from '../storage/store.js';
import type { CommandContext, Remember } from './write-runner.js';

export interface ToolInternals {
  store: MemoryStore;
  limits: Readonly<ResolvedLimits>;
  /** The guards and settings every write command runs with. */
  context: CommandContext;
  history: ResolvedHistoryLimits | undefined;
  /** One readwrite transaction that keeps the tool's remembered totals right (pass its journal record to `remember`). */
  write<T>(body: (tx: MemoryTx<'readwrite'>, remember: Remember) => Promise<T>): Promise<T>;
  /** Tells listeners here and in other tabs of committed changes. */
  publish(changes: MemoryChange[]): void;
  /** Runs `task` in the tool's call order, as its own app methods run. */
  inTurn<T>(task: () => Promise<T>): Promise<T>;
}

const table = new WeakMap<object, ToolInternals>();

export function registerInternals(tool: object, internals: ToolInternals): void {
  table.set(tool, internals);
}

/** The internals of an `IndexedDBMemoryTool`; a TypeError for anything else (a wrapper, a plain object). */
export function internalsOf(tool: object): ToolInternals {
  const found = table.get(tool);
  if (!found) throw new TypeError('expected an IndexedDBMemoryTool (from IndexedDBMemoryTool.init())');
  return found;
}
