// A failure on a path another device is changing, told by looking. Apache answers 500 to a PUT that loses a race with
// a folder of the same name being made, and 403 to a GET whose file another client is deleting: neither is a dead
// server or a refused password, and taking them for those stops or pauses sync for a race the next pass settles.

import { SyncRemoteError } from '../remote.js';
import { findConflict, remoteFile, stat, type DavContext } from './webdav-folders.js';
import { discard, type DavRequest } from './webdav-http.js';
import { shown } from './remote-bounds.js';

/** What the caller expected at the path: a version, null for a free path (a create), undefined for nothing known. */
export interface Expected {
  path: string;
  version?: string | null | undefined;
}

/**
 * For a 500 or 403, PROPFINDs the path's folders (top-down) and the path: a file or folder in the way is
 * `path-conflict`, the file gone is `not-found`, another version there (or a file where a free path was expected)
 * is `precondition`; each settles on the next pass. Undefined (the answer left unread) when the look explains
 * nothing: the status then means what it says.
 */
export async function raceError(
  dav: DavContext,
  response: Response,
  request: DavRequest,
  expected: Expected,
): Promise<SyncRemoteError | undefined> {
  if (response.status !== 500 && response.status !== 403) return undefined;
  const { path, version } = expected;
  const { status } = response;
  const write = request.method === 'PUT' || request.method === 'MKCOL';
  const blocker = await findConflict(dav, path, request.method === 'MKCOL', request.signal);
  if (blocker !== undefined) {
    await discard(response);
    return new SyncRemoteError('path-conflict', blocker.message, {
      status,
      ...(blocker.conflictingPath === undefined ? {} : { conflictingPath: blocker.conflictingPath }),
    });
  }
  if (request.method === 'MKCOL') return undefined;
  const now = await stat(dav, path, request.signal);
  const changed = (why: string, kind: 'not-found' | 'precondition') => {
    void discard(response);
    return new SyncRemoteError(kind, `WebDAV ${request.method} ${shown(path)}: ${status}; ${why}`, { status });
  };
  if (now === null || now.collection) {
    if (!write) return changed('another client removed it meanwhile', 'not-found');
    return typeof version === 'string' ? changed('another client removed it meanwhile', 'precondition') : undefined;
  }
  if (version === null) return changed('another client wrote it meanwhile', 'precondition');
  if (version !== undefined && remoteFile(path, now).version !== version) {
    return changed('another client changed it meanwhile', 'precondition');
  }
  return undefined;
}
