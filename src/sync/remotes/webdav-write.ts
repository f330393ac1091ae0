// A text put on a WebDAV server: the PUT and its condition (under a lock when it replaces a file), the folders it
// needs, the races Apache answers with 500 or 403, and the read-back that tells our write from another client's.

import { sleep } from '../../offline/abortable-sleep.js';
import { SyncRemoteError, isSyncRemoteError } from '../remote.js';
import type { RemoteFile } from '../remote.js';
import { shown } from './remote-bounds.js';
import { folderInTheWay, makeParents, stat, throwIfBlocked, type DavContext } from './webdav-folders.js';
import { discard, statusError, transportError, type DavRequest } from './webdav-http.js';
import type { DavLocks } from './webdav-lock.js';
import { raceError } from './webdav-races.js';
import { readText } from './webdav-read.js';
import { WEAK_ETAG_WAIT_MS, conditionHeaders, etagVersion, weakTwin } from './webdav-versions.js';
import type { WeakWrites } from './webdav-weak-writes.js';
import type { DavEntry } from './webdav-xml.js';

/** An answer, and what a PROPFIND after its 412 found at the path (null: nothing), when one was made. */
export interface Sent {
  response: Response;
  now?: DavEntry | null;
}

export const changedAgain = (path: string) =>
  new SyncRemoteError('precondition', `WebDAV: ${shown(path)} changed again right after our change`);

/** Sends `request`; on a 412 that was only our tag still being weak, waits and sends it once more. */
export async function guarded(dav: DavContext, request: DavRequest, path: string, version: string): Promise<Sent> {
  const response = await dav.send(request);
  if (response.status !== 412) return { response };
  await discard(response);
  const now = await stat(dav, path, request.signal);
  if (!weakTwin(now, version)) return { response, now };
  await sleep(WEAK_ETAG_WAIT_MS, request.signal).catch((error: unknown) => {
    throw transportError(error, request);
  });
  return { response: await dav.send(request) };
}

/**
 * The file at `path` after our PUT. Apache answers with no ETag, and its If-Match is not atomic with the write: two
 * clients can both be told 204. So what is there is read back, and another text is the other client's write, not
 * ours: the precondition failure it is, and the engine looks again. Apache's tag is size and mtime, so a text of our
 * size written in the same mtime tick, after our read, would share our tag: a weak one is looked at again later.
 */
async function written(
  dav: DavContext,
  weak: WeakWrites,
  path: string,
  response: Response,
  text: string,
  size: number,
  signal: AbortSignal | undefined,
): Promise<RemoteFile> {
  await discard(response);
  const etag = response.headers.get('ETag');
  if (etag !== null && !etag.startsWith('W/')) return { path, version: etagVersion(etag), size };
  const there = await readText(dav, path, signal).catch((error: unknown) => {
    throw isSyncRemoteError(error) && error.kind === 'not-found' ? changedAgain(path) : error;
  });
  if (there.text !== text) throw changedAgain(path);
  if (there.weak) weak.note(path, there.file.version, text);
  return there.file;
}

/** What a PUT of one text needs besides its path, its text and the version it replaces. */
export interface PutContext {
  dav: DavContext;
  weak: WeakWrites;
  locks: DavLocks;
}

/**
 * Puts `text` (`size` UTF-8 bytes) at `path`: a new file when `expected` is null (If-None-Match), else in place of
 * that version, under a lock (./webdav-lock.ts) and If-Match (a server whose locks do not hold still checks it).
 */
export function putText(
  { dav, weak, locks }: PutContext,
  path: string,
  text: string,
  size: number,
  expected: RemoteFile | null,
  signal: AbortSignal | undefined,
): Promise<RemoteFile> {
  // Not for a new file: a LOCK on a path with nothing there makes an empty file (RFC 4918 §7.3).
  if (expected === null) return put({ 'If-None-Match': '*' });
  return locks.around(path, expected.version, signal, (lockHeaders) =>
    put({ ...conditionHeaders(expected.version), ...lockHeaders }),
  );

  async function put(conditions: Record<string, string>): Promise<RemoteFile> {
    const version = expected?.version ?? null;
    const request: DavRequest = {
      method: 'PUT',
      url: dav.url(path),
      path,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', ...conditions },
      body: text,
      signal,
    };
    const send = (): Promise<Sent> =>
      version === null ? dav.send(request).then((response) => ({ response })) : guarded(dav, request, path, version);
    const attempt = async (): Promise<Sent> => {
      const sent = await send();
      // 409: a folder on the way is missing (RFC 4918 §9.7.1), or a folder stands at the path; some servers say 404.
      if (sent.response.status !== 409 && sent.response.status !== 404) return sent;
      await discard(sent.response);
      await makeParents(dav, path, signal);
      return send();
    };
    let { response, now } = await attempt();
    // A 500 or 403 may be a race with another client's change of this path (a folder of this name made at the
    // same moment): told by looking. A 500 the look does not explain is sent once more, as the race is over.
    const race = await raceError(dav, response, request, { path, version });
    if (race !== undefined) throw race;
    if (response.status === 500) {
      await discard(response);
      ({ response, now } = await attempt());
      const again = await raceError(dav, response, request, { path, version });
      if (again !== undefined) throw again;
    }
    if (response.ok) return written(dav, weak, path, response, text, size, signal);
    if (response.status === 412) {
      // Taken by a folder is a path conflict; by a file (or a changed file) the precondition it looks like.
      now ??= await stat(dav, path, signal);
      if (now?.collection === true) {
        await discard(response);
        throw folderInTheWay(path, 412);
      }
      // Still the version we saw, so the lock's test failed: the server lost our lock (one client's lock requests
      // can undo another's on Apache 2.4). Nothing was written; the next pass tries again.
      const etag = now?.etag;
      if (conditions['If'] !== undefined && etag?.startsWith('"') === true && etagVersion(etag) === version) {
        await discard(response);
        throw new SyncRemoteError('locked', `WebDAV: the lock on ${shown(path)} was lost before our change`, {
          status: 412,
        });
      }
    } else if (response.status === 400 || response.status === 405 || response.status === 409) {
      await throwIfBlocked(dav, response, path, signal);
    }
    throw await statusError(
      response,
      request,
      response.status === 412 ? (version === null ? ' (the path is taken)' : ' (the file changed)') : '',
    );
  }
}
