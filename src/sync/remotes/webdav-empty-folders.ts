// Removing a folder that holds nothing. A WebDAV DELETE of a folder is recursive, so it is made conditional on the
// folder's ETag as a Depth 1 PROPFIND saw it empty: a file put there meanwhile changes the tag and the DELETE is
// refused (412). Apache's tag is weak for a second after a change and If-Match compares strongly: that second is
// waited out first. (Apache checks If-Match before it deletes, not atomically with it: a PUT in the same instant can
// still be lost; the next pass no longer lists it and the device that made it pushes it again.)

import { sleep } from '../../offline/abortable-sleep.js';
import { SyncRemoteError } from '../remote.js';
import { shown } from './remote-bounds.js';
import { goneBelowFile, propfind, type DavContext } from './webdav-folders.js';
import { discard, statusError, transportError, type DavRequest } from './webdav-http.js';
import { hrefPath } from './webdav-paths.js';
import { WEAK_ETAG_WAIT_MS } from './webdav-versions.js';

const inTheWay = (path: string, blocker: string, why: string) =>
  new SyncRemoteError('path-conflict', `WebDAV: the folder ${shown(path)} is not removed: ${why}`, {
    conflictingPath: blocker,
  });

/** Removes the folder at `path` if it still holds nothing; gone already is done; holding something is `path-conflict`. */
export async function removeEmptyFolder(dav: DavContext, path: string, signal: AbortSignal | undefined): Promise<void> {
  if (path === '/') throw new TypeError('webdavRemote: the root folder is never removed');
  for (let look = 0; look < 3; look += 1) {
    const listed = await propfind(dav, path, 1, signal);
    if (listed === null) return;
    const entries = listed.filter((entry) => entry.status === undefined || (entry.status >= 200 && entry.status <= 299));
    const self = entries.find((entry) => {
      try {
        return hrefPath(dav.root, entry.href).path === path;
      } catch {
        return false;
      }
    });
    if (self === undefined || !self.collection) throw inTheWay(path, path, 'a file is there');
    const member = entries.find((entry) => entry !== self);
    if (member !== undefined) {
      let at = path;
      try {
        at = hrefPath(dav.root, member.href).path;
      } catch {
        // A member with a bad href still holds the folder.
      }
      throw inTheWay(path, at, 'it holds something');
    }
    const request: DavRequest = { method: 'DELETE', url: dav.url(path, true), path, signal };
    if (self.etag?.startsWith('W/') === true) {
      await sleep(WEAK_ETAG_WAIT_MS, signal).catch((error: unknown) => {
        throw transportError(error, request);
      });
      continue;
    }
    if (self.etag !== undefined) request.headers = { 'If-Match': self.etag };
    const response = await dav.send(request);
    // Gone already: removed, or a file put where it (or a folder above it) was since our look.
    if (response.ok || response.status === 404 || (await goneBelowFile(dav, response, path, true, signal))) {
      await discard(response);
      return;
    }
    if (response.status !== 412) throw await statusError(response, request);
    await discard(response);
  }
  throw inTheWay(path, path, 'it changed while it was being removed');
}
