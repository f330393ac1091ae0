// How much history a tool keeps, apart from the journal so that the tool's options are checked without loading it.

/** How much history is kept: the last `maxEntries` changes, and at most `maxBytes` of records and old contents. */
export interface HistoryLimits {
  /** Default 1,000. */
  maxEntries?: number | undefined;
  /**
   * Default 32 MiB: the journal's records (their paths and steps, estimated) and the old contents they keep. A single
   * change over it is journaled without its contents (not undoable), and with its paths only if its steps are too.
   */
  maxBytes?: number | undefined;
}

/** {@link HistoryLimits} with every field filled in, as the tool uses them. */
export type ResolvedHistoryLimits = { [K in keyof HistoryLimits]-?: number };

/** The history bounds used where `history` leaves a field out: 1,000 changes and 32 MiB. */
export const DEFAULT_HISTORY_LIMITS: Readonly<ResolvedHistoryLimits> = {
  maxEntries: 1000,
  maxBytes: 32 * 1024 * 1024,
};
