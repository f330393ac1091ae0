// The wording of undo, expiry and forgetting, apart from replies.ts so that it loads with them, on first use.

/** Undo, expiry and forgetting (undo.ts, expire.ts, forget.ts). */
export const undoReply = {
  expired: (files: number) => `Expired ${files} file${files === 1 ? '' : 's'}.`,
  undone: (id: number) => `Undid change ${id}.`,
  undoMissing: (id: number) =>
    `There is no change ${id} in the history (it may have been dropped as the history is bounded).`,
  nothingToUndo: () => 'There is no change left to undo.',
  alreadyUndone: (id: number) => `Change ${id} has already been undone.`,
  notUndoable: (id: number) => `Change ${id} was too large to keep in the history, so it cannot be undone.`,
  partlyForgotten: (id: number) =>
    `Change ${id} cannot be undone: part of what it changed has been forgotten for good. Nothing was changed.`,
  forgetRoot: () =>
    'Cannot forget the /memories directory itself. Forget a file or folder in it, or clear the whole history. ' +
    'Nothing was changed.',
  nothingToForget: (path: string) =>
    `There is nothing at ${path}, in the memory or in its history, to forget. Nothing was changed.`,
  undoConflict: (id: number, path: string) =>
    `Change ${id} cannot be undone cleanly: ${path} has changed since. Nothing was changed.`,
  undoPastLimits: (id: number, moved: string, past: string) =>
    `Change ${id} cannot be undone: ${moved} would be ${past}. Nothing was changed.`,
  undoTooLarge: (id: number) => `Undoing change ${id} would put the memory over its limits. Nothing was changed.`,
} as const;
