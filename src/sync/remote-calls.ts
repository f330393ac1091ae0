// Remote calls as a pass makes them: a refusal of one file skipped (the rest goes on), a precondition left to the
// next pass, and a move where the remote has none made of a copy and a delete.

import type { Skip } from './baseline.js';
import { isSyncRemoteError } from './remote.js';
import type { RemoteFile, SyncRemote } from './remote.js';

/** Runs a remote call; a refusal of this one file is skipped (undefined), a precondition left to the next pass. */
export async function refusable<T>(
  call: () => Promise<T>,
  path: string,
  skip: (path: string, why: Skip) => void,
): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (!isSyncRemoteError(error)) throw error;
    if (error.kind === 'precondition' || error.kind === 'not-found' || error.kind === 'path-conflict') return undefined;
    if (error.kind === 'too-large' || error.kind === 'full' || error.kind === 'refused-path') {
      skip(path, { path, reason: error.message, refusedBy: 'remote' });
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
