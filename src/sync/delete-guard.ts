// The mass-deletion guard: a pass that would delete, in one direction, more than `min` files and more than `share` of
// the synced ones holds them instead (a wiped remote or a wiped memory is held, not mirrored), unless confirmed.

import type { HeldDelete } from './sync-report.js';

export interface DeleteGuard {
  min: number;
  share: number;
}

/** Empties each side's list of deletes that the guard holds, and returns them as held (remote paths). */
export function holdMassDeletes(
  guard: DeleteGuard,
  confirmed: boolean,
  synced: number,
  deletes: { remote: { path: string }[]; local: { path: string }[] },
): HeldDelete[] {
  const held: HeldDelete[] = [];
  const tooMany = (count: number): boolean => !confirmed && count > guard.min && count > guard.share * synced;
  for (const side of ['remote', 'local'] as const) {
    const list = deletes[side];
    if (!tooMany(list.length)) continue;
    held.push(...list.map((gone) => ({ path: gone.path, side })));
    list.length = 0;
  }
  return held;
}
