// Sorts every path a pass has not settled otherwise into what the three-way merge decided for it: nothing, a push, a
// pull, a delete on either side, or a compare of the two texts (./README.md, "A pass").

import type { BaselineUpdate } from './baseline.js';
import { decide } from './merge-plan.js';
import type { Baseline, LocalFile } from './merge-plan.js';
import type { RemoteFile } from './remote.js';
import type { Pull } from './renames.js';

export interface Compare {
  path: string;
  local: LocalFile;
  remote: RemoteFile;
  base: Baseline | undefined;
}

export interface Push {
  path: string;
  bodyId: number;
  expected: RemoteFile | null;
}

export interface Sorted {
  compares: Compare[];
  remoteDeletes: { path: string; expected: RemoteFile }[];
  localDeletes: { path: string; expect: number }[];
}

interface Sides {
  synced: ReadonlyMap<string, Baseline>;
  here: ReadonlyMap<string, LocalFile>;
  there: ReadonlyMap<string, RemoteFile>;
  /** Paths a rename, a clash or a refusal already took care of. */
  handled: ReadonlySet<string>;
}

/** Adds pushes, pulls and forgotten baselines to the lists given; returns the compares and the deletes. */
export function sortThreeWays(sides: Sides, pushes: Push[], pulls: Pull[], updates: BaselineUpdate[]): Sorted {
  const sorted: Sorted = { compares: [], remoteDeletes: [], localDeletes: [] };
  const paths = new Set([...sides.here.keys(), ...sides.there.keys(), ...sides.synced.keys()]);
  for (const path of paths) {
    if (sides.handled.has(path)) continue;
    const base = sides.synced.get(path);
    const here = sides.here.get(path);
    const there = sides.there.get(path);
    const decision = decide(base, here, there);
    switch (decision.kind) {
      case 'none':
        break;
      case 'forget':
        updates.push({ path, clear: true });
        break;
      case 'push':
        if (here) pushes.push({ path, bodyId: here.bodyId, expected: decision.expected });
        break;
      case 'pull':
        if (there) pulls.push({ path, remote: there, expectLocal: decision.expectLocal, base });
        break;
      case 'delete-remote':
        sorted.remoteDeletes.push({ path, expected: decision.expected });
        break;
      case 'delete-local':
        sorted.localDeletes.push({ path, expect: decision.expectLocal });
        break;
      case 'compare':
        if (here && there) sorted.compares.push({ path, local: here, remote: there, base });
    }
  }
  return sorted;
}
