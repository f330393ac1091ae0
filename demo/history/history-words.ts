// The history panel's words for a change: who made it, what it did, which paths, when, and why it cannot be undone.

import type { HistoryEntry } from '../../src/index.js';

/** The journal keeps the first this many paths of a change (`paths`); a change with as many may have touched more. */
export const JOURNAL_PATHS = 20;
/** Paths listed on a change's line before "and N more". */
const SHOWN_PATHS = 3;

/** The empty history's wording for each choice of "Show" (index.html `history-actor`). */
export const NOBODY_YET: Partial<Record<string, string>> = {
  claude: ' by Claude',
  user: ' by you',
  expire: ' by expiry',
  sync: ' by sync',
};

/** Who, in words: the journal's actors are `claude`, `user`, `expire` and `sync`; any other is shown as it is. */
export function actorName(actor: string): string {
  switch (actor) {
    case 'claude':
      return 'Claude';
    case 'user':
      return 'You';
    case 'expire':
      return 'Expiry';
    case 'sync':
      return 'Sync';
    default:
      return actor;
  }
}

/** What, in words, by the command journaled. */
export function describe(entry: HistoryEntry): string {
  const n = entry.paths.length;
  const paths = `${n}${n >= JOURNAL_PATHS ? '+' : ''} path${n === 1 ? '' : 's'}`;
  switch (entry.command) {
    case 'create':
      return 'wrote a file';
    case 'str_replace':
      return 'edited a file';
    case 'insert':
      return 'inserted lines';
    case 'delete':
      return 'deleted';
    case 'rename':
      return 'moved';
    case 'import':
      return `imported a bundle (${paths})`;
    case 'expire':
      return `deleted ${n}${n >= JOURNAL_PATHS ? '+' : ''} unused file${n === 1 ? '' : 's'}`;
    case 'undo':
      return entry.undoOf === undefined ? 'undid a change' : `undid change ${entry.undoOf}`;
    case 'sync':
      // The sync's own passes bring the remote's changes; a person's are the choices that settle a conflict.
      return entry.actor === 'sync' ? `pulled changes to ${paths} from the remote` : `settled a sync conflict (${paths})`;
    default:
      return entry.command;
  }
}

/** "#4 · /memories/a.md, /memories/b.md and 3 more". */
export function shownPaths(entry: HistoryEntry): string {
  const joiner = entry.command === 'rename' ? ' → ' : ', ';
  const shown = entry.paths.slice(0, SHOWN_PATHS).join(joiner);
  const more = entry.paths.length - SHOWN_PATHS;
  return `#${entry.id} · ${shown}${more > 0 ? ` and ${more}${entry.paths.length >= JOURNAL_PATHS ? '+' : ''} more` : ''}`;
}

/** Why a change offers no Undo, or undefined when it does (or is undone, which its tag says). */
export function noUndoReason(entry: HistoryEntry, blockers: readonly number[] | undefined): string | undefined {
  if (entry.undone || entry.forgotten) return undefined;
  if (!entry.undoable) return 'Cannot be undone: its old contents were too big for the history to keep.';
  if (!blockers) return undefined;
  const ids = blockers.slice(0, 3).map((id) => `#${id}`);
  const rest = blockers.length - ids.length;
  const named = rest > 0 ? `${ids.join(', ')} and ${rest} more` : ids.join(' and ');
  return `Cannot be undone yet: ${blockers.length === 1 ? 'a later change' : 'later changes'} (${named}) changed its files since. Undo ${blockers.length === 1 ? 'that' : 'those'} first.`;
}

/** Today's changes by the time, older ones with the date. */
export function formatWhen(at: Date): string {
  const today = new Date().toDateString() === at.toDateString();
  return today ? at.toLocaleTimeString() : at.toLocaleString();
}

/** The actor as a CSS class name: its own for the known ones, `other` for any other. */
export function cssName(actor: string): string {
  return /^[a-z]+$/.test(actor) ? actor : 'other';
}
