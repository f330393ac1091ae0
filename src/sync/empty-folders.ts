// Empty folders on a remote that keeps folders of its own (WebDAV): one emptied on both sides is removed, so a file of
// its name can be written there. A listing shows no folders, so the remote tells which ones it walked empty.

import { eachLimited } from './pool.js';
import { isSyncRemoteError } from './remote.js';
import type { RemoteErrorKind, SyncRemote } from './remote.js';

/** Someone put something there meanwhile, or it is gone already: left as it is. */
const LEFT: ReadonlySet<RemoteErrorKind> = new Set(['path-conflict', 'not-found', 'precondition']);

/** Removes the folders the last listing walked empty that hold no file here either (each only if still empty). */
export async function removeEmptyFolders(
  remote: SyncRemote,
  localFiles: ReadonlyMap<string, unknown>,
  signal: AbortSignal,
): Promise<void> {
  const remove = remote.removeEmptyFolder;
  if (!remote.emptyFoldersSeen || !remove) return;
  const here = [...localFiles.keys()];
  const empty = remote.emptyFoldersSeen().filter((folder) => folder.length > 1 && !here.some((path) => path.startsWith(folder + '/')));
  await eachLimited(
    empty,
    remote.concurrency,
    async (folder) => {
      try {
        await remove.call(remote, folder, { signal });
      } catch (error) {
        if (!isSyncRemoteError(error) || !LEFT.has(error.kind)) throw error;
      }
    },
    signal,
  );
}
