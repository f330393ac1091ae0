// Renames in a pass: a local file whose body left a synced path for a new one (a rename here keeps the body id), a
// remote file whose id did (Memory Stores keeps a memory's id), the same rename on both sides; and the tree shapes a
// rename must not land on.

import type { LocalStep } from './local-apply.js';
import type { LocalSnapshot } from './local-files.js';
import type { Baseline } from './merge-plan.js';
import type { RemoteFile, SyncRemote } from './remote.js';

/** A move to make there: a rename here, or a file moved aside from a folder's name. */
export interface RemoteMove {
  from: string;
  to: string;
  expected: RemoteFile;
  bodyId?: number;
  base?: Baseline;
  /** Edited there since agreed: the move carries the edit, and the next pass brings it here (`agreedAfter`). */
  editedThere?: true;
}

/**
 * What both sides agree on after a rename here was moved there: the body and the file moved; when the move carried an
 * edit made there, under the version agreed before it, so the next pass sees the remote changed and brings it here.
 */
export function agreedAfter(move: RemoteMove, bodyId: number, base: Baseline, moved: RemoteFile): Baseline {
  const remote: RemoteFile = move.editedThere ? { ...moved, version: base.remote.version } : moved;
  return { local: bodyId, sha256: base.sha256, remote };
}

/** A remote file to bring here, with the body it must replace (null: the path must be free). */
export interface Pull {
  path: string;
  remote: RemoteFile;
  expectLocal: number | null;
  base: Baseline | undefined;
}

/**
 * Pairs renames: a local file whose body left a synced path for a new one, a remote file whose id did. Returns the
 * baseline a compare without one borrows from the same rename made on both sides (`sameRenames`).
 */
export function findRenames(
  local: LocalSnapshot,
  remoteFiles: ReadonlyMap<string, RemoteFile>,
  remote: SyncRemote,
  handled: Set<string>,
  remoteMoves: RemoteMove[],
  localSteps: LocalStep[],
  pulls: Pull[],
  freeThere: (path: string) => boolean,
  freeHere: (path: string) => boolean,
): RenamedAlike {
  const newHere = new Map<number, string>();
  for (const [path, file] of local.files) if (!local.synced.has(path) && !remoteFiles.has(path)) newHere.set(file.bodyId, path);
  const newThere = new Map<string, RemoteFile>();
  for (const [path, file] of remoteFiles) if (file.id && !local.synced.has(path) && !local.files.has(path)) newThere.set(file.id, file);
  for (const [path, base] of local.synced) {
    if (local.files.has(path) && remoteFiles.has(path)) continue;
    const there = remoteFiles.get(path);
    // Moved here (a rename keeps the body, so its text is the agreed one): moved there too, keeping its identity (a
    // Memory Stores id, a WebDAV resource). Edited there meanwhile, the edit goes with it: no copy at the old name.
    const to = newHere.get(base.local);
    const same = there !== undefined && (there.id === undefined || there.id === base.remote.id);
    if (!local.files.has(path) && to !== undefined && remote.move && same && freeThere(to)) {
      newHere.delete(base.local);
      handled.add(path).add(to);
      const edited = there.version === base.remote.version ? {} : { editedThere: true as const };
      remoteMoves.push({ from: path, to, expected: there, bodyId: base.local, base, ...edited });
      continue;
    }
    // Moved there, unchanged here: moved here too, then brought up to date if its text changed as well.
    const moved = base.remote.id === undefined ? undefined : newThere.get(base.remote.id);
    if (!there && moved && local.files.get(path)?.bodyId === base.local && freeHere(moved.path)) {
      newThere.delete(base.remote.id ?? '');
      handled.add(path).add(moved.path);
      const same = moved.sha256 !== undefined && moved.sha256 === base.sha256;
      localSteps.push({
        op: 'move',
        from: path,
        to: moved.path,
        expect: base.local,
        ...(same ? { agreed: { sha256: base.sha256, remote: moved } } : {}),
      });
      if (!same) pulls.push({ path: moved.path, remote: moved, expectLocal: base.local, base: undefined });
    }
  }
  return sameRenames(local, remoteFiles);
}

/**
 * The baseline a path new on both sides borrows, if any: `there` is the remote file at `path`, `thereSha` the hash of
 * its text, `readThere(sha)` the paths whose texts the pass read there and found of that hash (the listing's hashes
 * are known already).
 */
export type RenamedAlike = (
  path: string,
  hereBody: number,
  there: RemoteFile,
  thereSha: string,
  readThere: (sha256: string) => Iterable<string>,
) => Baseline | undefined;

/**
 * The same rename made on both sides: a path new on both, compared without a baseline, borrows the baseline of a synced
 * path that holds its agreed file on neither side any more (moved, deleted or replaced) when one side of the new path
 * is still that file: here its body (a rename keeps it), there its agreed text (WebDAV lists no id, and an id says
 * nothing of an edit). That side is unchanged since, so the other side's edit is carried over it, not made a copy.
 * Not where the other side shows that file elsewhere (its body, its id or its agreed text at another path): the two
 * sides renamed it to two names, and what stands at this one over there is another file, kept beside it.
 */
function sameRenames(local: LocalSnapshot, remoteFiles: ReadonlyMap<string, RemoteFile>): RenamedAlike {
  const byBody = new Map<number, Baseline>();
  const byText = new Map<string, Baseline>();
  for (const [path, base] of local.synced) {
    if (local.files.get(path)?.bodyId === base.local || remoteFiles.get(path)?.version === base.remote.version) continue;
    byBody.set(base.local, base);
    byText.set(base.sha256, base);
  }
  // Most passes have no such baseline: they index nothing.
  if (byBody.size === 0) return () => undefined;
  // Body 0 is every empty file's: it says nothing of where one file went.
  const bodyAt = new Map<number, string>();
  for (const [path, file] of local.files) if (file.bodyId !== 0) bodyAt.set(file.bodyId, path);
  const idAt = new Map<string, string>();
  const listedAt = new Map<string, string[]>();
  for (const [path, file] of remoteFiles) {
    if (file.id !== undefined) idAt.set(file.id, path);
    if (file.sha256 !== undefined) listedAt.set(file.sha256, [...(listedAt.get(file.sha256) ?? []), path]);
  }
  const elsewhere = (at: string | undefined, path: string) => at !== undefined && at !== path;
  return (path, hereBody, there, thereSha, readThere) => {
    const here = byBody.get(hereBody);
    const agreedThere = byText.get(thereSha);
    // Each side still the agreed file of another path: two renames onto one name, both versions kept.
    if (here && agreedThere) return here === agreedThere ? here : undefined;
    if (here) {
      const id = here.remote.id;
      if (id !== undefined && there.id !== undefined && there.id !== id) return undefined;
      if (id !== undefined && elsewhere(idAt.get(id), path)) return undefined;
      for (const at of [...(listedAt.get(here.sha256) ?? []), ...readThere(here.sha256)]) {
        if (at !== path) return undefined;
      }
      return here;
    }
    if (agreedThere && !elsewhere(bodyAt.get(agreedThere.local), path)) return agreedThere;
    return undefined;
  };
}

/** Whether a folder above `path` is a file in `files`. */
export function aboveIsFile(path: string, files: ReadonlyMap<string, unknown>): boolean {
  for (let at = path.indexOf('/', 1); at !== -1; at = path.indexOf('/', at + 1)) if (files.has(path.slice(0, at))) return true;
  return false;
}

/** Every folder above the given paths (`/a/b/c.md` → `/a`, `/a/b`). */
export function foldersAbove(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const path of paths) {
    for (let at = path.indexOf('/', 1); at !== -1; at = path.indexOf('/', at + 1)) folders.add(path.slice(0, at));
  }
  return folders;
}

/** The folders above the files that stay: a folder that holds only files a pass deletes takes no part in a clash. */
export function foldersKept<T>(files: ReadonlyMap<string, T>, goes: (path: string, file: T) => boolean): Set<string> {
  return foldersAbove([...files].filter(([path, file]) => !goes(path, file)).map(([path]) => path));
}
