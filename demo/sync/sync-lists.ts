// The Sync panel's lists: conflicts (each with Keep current and Keep the copy), skipped files with their reasons, and
// deletes held back. A list is redrawn only when what it lists changes, so a background pass does not sweep a
// focused button away; when a redraw does remove it, focus goes to the next one (or where the panel says).

import type { SyncConflict, SyncStatus } from '../../src/entries/sync.js';
import { byId, el, focusLost } from '../page/dom.js';
import './sync-lists.css';

export interface SyncListActions {
  /** Settles the conflict of `path` whose other version is in `copy`. Reports its own failure; never rejects. */
  resolve(path: string, copy: string, keep: 'current' | 'copy'): Promise<void>;
  /** Focus was on something a redraw removed, and no button is left in its list to take it. */
  focusLost(): void;
}

/** Draws the lists from a status; `undefined` (disconnected) empties and hides them. */
export function setupSyncLists(actions: SyncListActions): (status: SyncStatus | undefined) => void {
  const conflicts = { part: byId('sync-conflicts-part', HTMLElement), list: byId('sync-conflicts', HTMLUListElement) };
  const skipped = { part: byId('sync-skipped-part', HTMLElement), list: byId('sync-skipped', HTMLUListElement) };
  const held = { part: byId('sync-held-part', HTMLElement), list: byId('sync-held', HTMLUListElement) };
  /** What each list shows now, as JSON of its items. */
  const drawn = new Map<HTMLElement, string>();

  const draw = (where: { part: HTMLElement; list: HTMLElement }, key: string, items: () => HTMLElement[]) => {
    if (drawn.get(where.list) === key) return;
    drawn.set(where.list, key);
    const hadFocus = where.part.contains(document.activeElement);
    const made = items();
    where.list.replaceChildren(...made);
    where.part.hidden = made.length === 0;
    if (hadFocus && focusLost()) focusIn(where);
  };
  /** Focus to the first button left in the list, else where the panel says. */
  const focusIn = (where: { part: HTMLElement; list: HTMLElement }) => {
    const next = where.part.hidden ? null : where.list.querySelector('button');
    if (next) next.focus();
    else actions.focusLost();
  };

  const conflictItem = (conflict: SyncConflict, index: number): HTMLElement => {
    const id = `sync-conflict-${index}`;
    const name = conflict.copy.slice(conflict.copy.lastIndexOf('/') + 1);
    const made = conflict.at ? `, made ${conflict.at.toLocaleString()}` : '';
    const current = el('button', { text: 'Keep current', attrs: { type: 'button', 'aria-describedby': id } });
    const copy = el('button', { text: 'Keep the copy', attrs: { type: 'button', 'aria-describedby': id } });
    const choose = (keep: 'current' | 'copy', button: HTMLButtonElement) => {
      current.disabled = true;
      copy.disabled = true;
      void actions.resolve(conflict.path, conflict.copy, keep).finally(() => {
        // Settled, this item is gone with the redraw; refused, it stays to choose again. Either way the keyboard,
        // dropped when the button was disabled, is put back near where it was.
        current.disabled = false;
        copy.disabled = false;
        if (!focusLost()) return;
        if (button.isConnected) button.focus();
        else focusIn(conflicts);
      });
    };
    current.addEventListener('click', () => choose('current', current));
    copy.addEventListener('click', () => choose('copy', copy));
    return el(
      'li',
      { className: 'sync-item' },
      el('p', { className: 'sync-path', text: conflict.path, attrs: { id } }),
      el('p', { className: 'help', text: `The other version is in the copy ${name}${made}.` }),
      el('div', { className: 'buttons' }, current, copy),
    );
  };

  return (status) => {
    const found = status?.conflicts ?? [];
    draw(conflicts, JSON.stringify(found.map((conflict) => conflict.copy)), () => found.map(conflictItem));
    const refused = status?.skipped ?? [];
    draw(skipped, JSON.stringify(refused), () =>
      refused.map(({ path, reason, refusedBy }) =>
        el(
          'li',
          { className: 'sync-item' },
          el('span', { className: 'sync-path', text: path }),
          el('span', { text: ` — ${reason} (refused ${refusedBy === 'remote' ? 'by the remote' : 'here'})` }),
        ),
      ),
    );
    const deletes = status?.held ?? [];
    draw(held, JSON.stringify(deletes), () =>
      deletes.map(({ path, side }) =>
        el('li', { className: 'sync-item sync-path', text: `${path} (${side === 'local' ? 'here' : 'on the remote'})` }),
      ),
    );
  };
}
