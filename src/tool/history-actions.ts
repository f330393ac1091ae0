// The person's actions on the history, each one write: undo a change, expire old files, forget a path for good, clear
// the history. Each is a part loaded on first use with the steps it runs (./undo-action.ts, ./expire-action.ts,
// ./forget-action.ts); the tool checks their input and keeps them in call order. Types only.

import type { ChangeHub } from '../core/change-events.js';
import type { ResolvedLimits } from '../core/limits.js';
import type { ResolvedHistoryLimits } from '../history/journal.js';
import type { MemoryStore } from '../storage/store.js';
import type { AccessTimes } from './access-times.js';
import type { WriteRunner } from './write-runner.js';

/** What an action on the history runs with: the tool's own units. */
export interface HistoryActionContext {
  /** For what runs after the write: the search index's scrub. */
  store: MemoryStore;
  writes: WriteRunner;
  hub: ChangeHub;
  history: ResolvedHistoryLimits | undefined;
  limits: Readonly<ResolvedLimits>;
  access: AccessTimes;
}
