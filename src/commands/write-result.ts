// What a write command is run with (`WriteContext`) and what it answers (`WriteResult`). Types only.

import type { MemoryChange } from '../core/change-events.js';
import type { ResolvedLimits } from '../core/limits.js';
import type { WriteGuards } from '../guards/write-guards.js';
import type { RetiredBody } from '../storage/entries.js';
import type { RememberedTotals } from '../storage/optimistic-totals.js';
import type { BodyGuesses } from '../storage/read-ahead.js';
import type { JournalOp, Totals } from '../storage/schema.js';

export interface WriteResult {
  reply: string;
  changes: MemoryChange[];
  /** How to check and reverse the change (for the journal). */
  ops: JournalOp[];
  /** Bodies no file uses any more: kept by the journal, or released. */
  retired: RetiredBody[];
  /** The totals after the change, for the journal to write with its own (history/journal.ts `record`). */
  usage: Totals;
  /** Set when the command read the totals itself though told to trust them: its journal record need not prove them. */
  checked?: true;
}

/** What a write command runs with: the limits, the guards every text passes, and the totals to start from. */
export interface WriteContext extends WriteGuards {
  limits: ResolvedLimits;
  overwrite: boolean;
  now: number;
  /** The totals this tool's last write left (storage/optimistic-totals.ts `readTotals`). */
  known?: RememberedTotals | undefined;
  /** Take `known` unchecked: the journal record's key proves them afterwards (tool/write-runner.ts). */
  trusted?: boolean;
  /** The bodies of the files this tool has seen, to read beside their entries. */
  ahead?: BodyGuesses | undefined;
}
