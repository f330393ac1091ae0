// The three-way merge of one path: what the baseline (last agreed), the local file and the remote file say, and
// what to do about it. Pure; the pass carries it out (./README.md, "The merge rules").

import type { RemoteFile } from './remote.js';

/** A local file as the merge sees it: its body id changes on every write and stays through a rename. */
export interface LocalFile {
  bodyId: number;
  size: number;
}

/** What both sides last agreed on for a path. */
export interface Baseline {
  local: number;
  sha256: string;
  remote: RemoteFile;
}

export type Decision =
  /** Both sides are as last agreed. */
  | { kind: 'none' }
  /** Gone on both sides: only the baseline goes. */
  | { kind: 'forget' }
  /** Send the local text; `expected` is the remote file it replaces (null: the path must be free). */
  | { kind: 'push'; expected: RemoteFile | null }
  /** Bring the remote text here; `expectLocal` is the body it replaces (null: the path must be free here). */
  | { kind: 'pull'; expectLocal: number | null }
  /** Deleted here, unchanged there: delete there, if still unchanged. */
  | { kind: 'delete-remote'; expected: RemoteFile }
  /** Deleted there, unchanged here: delete here, if still unchanged. */
  | { kind: 'delete-local'; expectLocal: number }
  /** Both sides hold a file that may differ: compare their hashes (then equal, one-sided, or a conflict). */
  | { kind: 'compare' };

/**
 * With a baseline, a side changed when its version differs; a change on one side is carried to the other, and an
 * edit beats a delete (nothing is lost). Without one (a new or evicted memory, a new remote), nothing is deleted:
 * each side's files go to the other, and files on both are compared.
 */
export function decide(base: Baseline | undefined, local: LocalFile | undefined, remote: RemoteFile | undefined): Decision {
  if (!base) {
    if (local && remote) return { kind: 'compare' };
    if (local) return { kind: 'push', expected: null };
    if (remote) return { kind: 'pull', expectLocal: null };
    return { kind: 'none' };
  }
  const localChanged = local?.bodyId !== base.local;
  const remoteChanged = remote?.version !== base.remote.version;
  if (!localChanged && !remoteChanged) return { kind: 'none' };
  if (!remoteChanged) {
    // The remote is as agreed, so it is there.
    return local ? { kind: 'push', expected: remote ?? null } : { kind: 'delete-remote', expected: base.remote };
  }
  if (!localChanged) {
    // The local file is as agreed, so it is here.
    return remote ? { kind: 'pull', expectLocal: base.local } : { kind: 'delete-local', expectLocal: base.local };
  }
  if (local && remote) return { kind: 'compare' };
  // Edited on one side, deleted on the other: the edit is kept, and comes back on the side that deleted it.
  if (local) return { kind: 'push', expected: null };
  if (remote) return { kind: 'pull', expectLocal: null };
  return { kind: 'forget' };
}

/** After reading both texts' hashes: equal, carried one way, or a conflict (both changed differently). */
export function settle(
  base: Baseline | undefined,
  localSha: string,
  remoteSha: string,
): 'equal' | 'push' | 'pull' | 'conflict' {
  if (localSha === remoteSha) return 'equal';
  if (base?.sha256 === localSha) return 'pull';
  if (base?.sha256 === remoteSha) return 'push';
  return 'conflict';
}
