// Which changes Undo can take back now, worked out from the history alone, so the panel offers Undo only where it
// applies. The tool's undo checks that each file still holds the very text the change left; history() gives paths,
// not texts, so this asks the same of paths: has a later change still in force touched one of them? Pure: no DOM.

/** What the check reads of a change: `HistoryEntry`, with every path it touched (`paths` may list only some). */
export interface UndoFacts {
  id: number;
  /** Every path the change touched, moves' both ends included. */
  paths: readonly string[];
  undoOf?: number;
  undone: boolean;
  undoable: boolean;
}

/**
 * For each change of `entries` that the tool would undo but that a later change now stands in the way of, the ids
 * of those later changes, oldest first. `entries` must hold every change from the oldest one asked about to the
 * newest (any order): one left out could hide a later change.
 *
 * A later change D stands in the way of C when a path of D is a path of C, or a folder above or below one, and D's
 * effect is still there: D is not undone, or an undo of its undo put it back (the undos of one change form a chain,
 * and its effect is there when the chain is of even length). An undo that reverted a change made after C leaves
 * the files as C left them, so it never counts by itself. An undo of a change older than C counts (conservative).
 */
export function blockedUndos(entries: readonly UndoFacts[]): Map<number, number[]> {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const undoer = new Map<number, UndoFacts>();
  for (const entry of entries) if (entry.undoOf !== undefined) undoer.set(entry.undoOf, entry);

  /** The change at the start of `entry`'s chain of undos; undefined when it is older than `entries`. */
  const rootOf = (entry: UndoFacts): UndoFacts | undefined => {
    let at: UndoFacts | undefined = entry;
    while (at?.undoOf !== undefined) at = byId.get(at.undoOf);
    return at;
  };
  /** Whether `root`'s effect is in the memory now: undone an even number of times (an undo not journaled counts). */
  const inForce = (root: UndoFacts): boolean => {
    let depth = 0;
    for (let at: UndoFacts | undefined = root; at?.undone; at = undoer.get(at.id)) depth++;
    return depth % 2 === 0;
  };

  // Each later change by the paths it touched and by every folder above them, to find overlaps without a scan.
  const atPath = new Map<string, UndoFacts[]>();
  const belowPath = new Map<string, UndoFacts[]>();
  const add = (map: Map<string, UndoFacts[]>, key: string, entry: UndoFacts) => {
    const list = map.get(key);
    if (list) list.push(entry);
    else map.set(key, [entry]);
  };
  for (const entry of entries) {
    for (const path of new Set(entry.paths)) {
      add(atPath, path, entry);
      for (const folder of foldersAbove(path)) add(belowPath, folder, entry);
    }
  }

  const out = new Map<number, number[]>();
  for (const change of entries) {
    if (!change.undoable) continue;
    const counts = (later: UndoFacts): boolean => {
      if (later.id <= change.id) return false;
      const root = rootOf(later);
      if (root === undefined || root.id < change.id) return true;
      return root === later && root.id > change.id && inForce(root);
    };
    const blockers = new Set<number>();
    for (const path of change.paths) {
      const near = [...(atPath.get(path) ?? []), ...(belowPath.get(path) ?? [])];
      for (const folder of foldersAbove(path)) near.push(...(atPath.get(folder) ?? []));
      for (const later of near) if (counts(later)) blockers.add(later.id);
    }
    if (blockers.size > 0) out.set(change.id, [...blockers].sort((a, b) => a - b));
  }
  return out;
}

/** The change `undo()` with no id takes back: the newest not undone and not itself an undo (as the tool picks it). */
export function lastUndoTarget<T extends UndoFacts>(newestFirst: readonly T[]): T | undefined {
  return newestFirst.find((entry) => !entry.undone && entry.undoOf === undefined);
}

/** `/memories/a/b.md` → `/memories/a`, `/memories` (the folders above, nearest first). */
function foldersAbove(path: string): string[] {
  const out: string[] = [];
  for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) out.push(path.slice(0, cut));
  return out;
}
