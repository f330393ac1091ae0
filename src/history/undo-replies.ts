// The wording of undo and expiry, apart from replies.ts so that it loads with them, on first use.

/** Undo and expiry (undo.ts, expire.ts). */
export const undoReply = {
  expired: (files: number) => `Expired ${files} file${files === 1 ? '' : 's'}.`,
  undone: (id: number) => `Undid change ${id}.`,
  undoMissing: (id: number) =>
    `There is no change ${id} in the history (it may have been dropped as the history is bounded).`,
  nothingToUndo: () => 'There is no change left to undo.',
  alreadyUndone: (id: number) => `Change ${id} has already been undone.`,
  notUndoable: (id: number) => `Change ${id} was too large to keep in the history, so it cannot be undone.`,
  undoConflict: (id: number, path: string) =>
    `Change ${id} cannot be undone cleanly: ${path} has changed since. Nothing was changed.`,
  undoPastLimits: (id: number, moved: string, past: string) =>
    `Change ${id} cannot be undone: ${moved} would be ${past}. Nothing was changed.`,
  undoTooLarge: (id: number) => `Undoing change ${id} would put the memory over its limits. Nothing was changed.`,
} as const;
