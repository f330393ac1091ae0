// Empty folders on a remote that keeps folders of its own (WebDAV): one emptied on both sides is removed, so a file of
// its name can be written there. A listing shows no folders, so the remote tells which ones it walked empty, and a
// pass knows which ones its own deletes and moves emptied.

import { eachLimited } from './pool.js';
import { isSyncRemoteError } from './remote.js';
import type { RemoteErrorKind, SyncRemote } from './remote.js';
import { foldersAbove } from './renames.js';

/** Someone put something there meanwhile, or it is gone already: left as it is. */
const LEFT: ReadonlySet<RemoteErrorKind> = new Set(['path-conflict', 'not-found', 'precondition', 'locked']);

/** Removes the folders the last listing walked empty that hold no file here either (each only if still empty). */
export async function removeEmptyFolders(
  remote: SyncRemote,
  localFiles: ReadonlyMap<string, unknown>,
  signal: AbortSignal,
): Promise<void> {
  if (!remote.emptyFoldersSeen || !remote.removeEmptyFolder) return;
  const here = [...localFiles.keys()];
  const empty = remote.emptyFoldersSeen().filter((folder) => folder.length > 1 && !here.some((path) => path.startsWith(folder + '/')));
  await eachLimited(empty, remote.concurrency, (folder) => removeIfEmpty(remote, folder, signal), signal);
}

/**
 * Removes the folders this pass emptied (its deletes and moves there took their last file) where it is about to write
 * a file of the same name: each with the emptied folders below it, deepest first, each only if still empty. The folder
 * is a file here (the push's own path), so nothing here lies under it. Any other emptied folder waits for the next
 * listing, which walks it empty.
 */
export async function removeEmptiedFolders(
  remote: SyncRemote,
  pass: {
    /** Remote paths this pass deleted or moved away. */
    freed: readonly string[];
    /** Remote paths the listing showed: those not freed are still there and keep their folders. */
    listed: Iterable<string>;
    /** Remote paths this pass moved files to. */
    arrived: Iterable<string>;
    /** Remote paths this pass is about to write. */
    pushed: readonly string[];
  },
  signal: AbortSignal,
): Promise<void> {
  if (!remote.emptyFoldersSeen || !remote.removeEmptyFolder || pass.freed.length === 0) return;
  const gone = new Set(pass.freed);
  const kept = foldersAbove([...[...pass.listed].filter((path) => !gone.has(path)), ...pass.arrived]);
  const emptied = [...foldersAbove(pass.freed)].filter((folder) => !kept.has(folder));
  const inTheWay = pass.pushed.filter((path) => emptied.includes(path));
  await eachLimited(
    inTheWay,
    remote.concurrency,
    async (path) => {
      // Deepest first: a folder holding an emptied folder is not empty until that one goes.
      const below = emptied.filter((folder) => folder === path || folder.startsWith(path + '/'));
      below.sort((a, b) => depth(b) - depth(a));
      for (const folder of below) await removeIfEmpty(remote, folder, signal);
    },
    signal,
  );
}

const depth = (path: string): number => path.split('/').length;

async function removeIfEmpty(remote: SyncRemote, folder: string, signal: AbortSignal): Promise<void> {
  if (!remote.removeEmptyFolder) return;
  try {
    await remote.removeEmptyFolder(folder, { signal });
  } catch (error) {
    if (!isSyncRemoteError(error) || !LEFT.has(error.kind)) throw error;
  }
}
