// Remote calls as a pass makes them: a refusal of one file skipped (the rest goes on), a path in the way listed and
// tried again each pass, a precondition left to the next pass, and a move where the remote has none made of a copy
// and a delete.

import type { Skip } from './baseline.js';
import { isSyncRemoteError } from './remote.js';
import type { RemoteFile, SyncRemote } from './remote.js';

/**
 * Called for a file a remote call refused: `everyPass` when what refused it may change without this file changing
 * (a path in the way), so it is listed but not remembered, and tried again next pass.
 */
export type SkipFile = (path: string, why: Skip, everyPass?: boolean) => void;

/** Runs a remote call; a refusal of this one file is skipped (undefined), a precondition left to the next pass. */
export async function refusable<T>(call: () => Promise<T>, path: string, skip: SkipFile): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (!isSyncRemoteError(error)) throw error;
    const { kind, message: reason } = error;
    if (kind === 'precondition' || kind === 'not-found') return undefined;
    // A listing shows no folders: an empty one there (WebDAV keeps them) refuses this path on every pass, unseen. A
    // lock goes when its holder lets go, or lapses: listed, so the pass does not look as if nothing were left to do.
    if (kind === 'path-conflict' || kind === 'locked') {
      skip(path, { path, reason, refusedBy: 'remote', kind }, true);
      return undefined;
    }
    // A file there this memory cannot hold (not text, no content): refused here, left there as it is.
    if (kind === 'unreadable') {
      skip(path, { path, reason, refusedBy: 'local', kind });
      return undefined;
    }
    if (kind === 'too-large' || kind === 'full' || kind === 'refused-path') {
      skip(path, { path, reason, refusedBy: 'remote', kind });
      return undefined;
    }
    throw error;
  }
}

export async function movingRemote(remote: SyncRemote, expected: RemoteFile, to: string, signal: AbortSignal): Promise<RemoteFile> {
  if (remote.move) return remote.move(expected, to, { signal });
  // No move there: a copy under the new name, then the old one deleted if it is still what was copied.
  const read = await remote.read(expected, { signal });
  const written = await remote.write(to, read.text, null, { signal });
  await remote.delete(read.file, { signal });
  return written;
}
