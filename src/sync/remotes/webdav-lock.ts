// A write lock (RFC 4918 §9.10) held around the PUT that replaces a file. Apache checks If-Match before it reads the
// body, not atomically with the write, so two clients that saw one version can both be told 204 and the text that
// lands last was written without seeing the other (../README.md, WebDAV). A LOCK taken only if the file still has
// the version we saw makes the check and the write one step for every client that locks: the other one's LOCK or PUT
// is refused with 423 until we let go. Apache 2.4's lock database can lose a change when two lock requests reach it
// at once (a lock let go comes back until it lapses, a granted one goes), so one client sends one at a time.

import { SyncRemoteError, isSyncRemoteError } from '../remote.js';
import { shown } from './remote-bounds.js';
import { bodyText, discard, statusError, transportError, type DavRequest } from './webdav-http.js';
import { folderInTheWay, stat, throwIfBlocked, type DavContext } from './webdav-folders.js';

const LOCKINFO =
  '<?xml version="1.0" encoding="utf-8"?>' +
  '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
  '<D:locktype><D:write/></D:locktype></D:lockinfo>';

/** A LOCK's answer is one activelock: more is not a lock answer we can read. */
const LOCK_ANSWER_BYTES = 64 * 1024;

/** Runs a write with the headers that prove the lock (none when it runs unlocked). */
export type LockedWrite<T> = (lockHeaders: Record<string, string>) => Promise<T>;

export interface DavLocks {
  /**
   * Runs `write` holding an exclusive lock on the file at `path`, taken only if it still has `version` (else
   * `precondition`, or `path-conflict` for a folder there); another client's lock on it is `locked` (it is being
   * changed, or the lock was left behind: the next pass tries again). Unlocked on a server without locks, when a
   * page's LOCK gets no answer (its CORS may allow PUT but not LOCK), and for a version that is not an ETag.
   */
  around<T>(path: string, version: string, signal: AbortSignal | undefined, write: LockedWrite<T>): Promise<T>;
}

/**
 * The token of a LOCK's answer: its Lock-Token header, else the text of the first href after `locktoken` in the body
 * (found by indexOf: linear in a hostile body). Only a token that can go back in a header (printable ASCII, no `<>`).
 */
function lockToken(header: string | null, body: string): string | undefined {
  let token = header?.trim().replace(/^<|>$/g, '');
  if (!token) {
    const at = body.indexOf('locktoken');
    const href = at < 0 ? -1 : body.indexOf('href', at);
    const start = href < 0 ? -1 : body.indexOf('>', href);
    const end = start < 0 ? -1 : body.indexOf('<', start);
    token = end < 0 ? undefined : body.slice(start + 1, end).trim();
  }
  return token !== undefined && /^[\x21-\x3b\x3d\x3f-\x7e]{1,1024}$/.test(token) ? token : undefined;
}

/** Locks on `dav`, for requests of `timeoutMs`: a lock lasts as long as four of them, then lapses by itself. */
export function davLocks(dav: DavContext, timeoutMs: number): DavLocks {
  // Learned once: the server refused LOCK (400, 403, 405, 501) or locked without a token.
  let unsupported = false;
  const seconds = Math.ceil((4 * timeoutMs) / 1000);
  // The LOCK and UNLOCK requests of this client, one at a time: each waits for the answer of the one before.
  let queue: Promise<unknown> = Promise.resolve();
  function inTurn(request: DavRequest, stop?: AbortSignal): Promise<Response> {
    const sent = queue.then(() => {
      // A LOCK whose pass stopped while it waited is not sent at all.
      if (stop?.aborted) throw transportError(stop.reason, { ...request, signal: stop });
      return dav.send(request);
    });
    queue = sent.catch(() => undefined);
    return sent;
  }

  async function unlock(path: string, token: string): Promise<void> {
    // Without the pass's signal: a stopped pass still lets go (else the lock lapses only at its timeout).
    const headers = { 'Lock-Token': `<${token}>` };
    const request: DavRequest = { method: 'UNLOCK', url: dav.url(path), path, headers, signal: undefined };
    await inTurn(request).then(discard, () => undefined);
  }

  /** The lock a LOCK's answer grants, if any (the answer is let go). */
  async function tokenOf(response: Response, request: DavRequest): Promise<string | undefined> {
    if (!response.ok) {
      await discard(response);
      return undefined;
    }
    return lockToken(response.headers.get('Lock-Token'), await bodyText(response, request, LOCK_ANSWER_BYTES));
  }

  /**
   * The LOCK's answer, or `aborted` as soon as `signal` fires. The LOCK itself is not cut off (one the server took
   * after we stopped listening could not be let go): its late answer is read, and a lock it grants let go.
   */
  async function answer(request: DavRequest, signal: AbortSignal | undefined): Promise<Response> {
    const sending = inTurn(request, signal);
    if (signal === undefined) return sending;
    let stop!: () => void;
    const stopped = new Promise<'stopped'>((done) => {
      stop = () => done('stopped');
      signal.addEventListener('abort', stop, { once: true });
      if (signal.aborted) stop();
    });
    const first = await Promise.race([sending, stopped]).finally(() => signal.removeEventListener('abort', stop));
    if (first !== 'stopped') return first;
    void sending
      .then((late) => tokenOf(late, request))
      .then((token) => (token === undefined ? undefined : unlock(request.path, token)))
      .catch(() => undefined);
    throw transportError(signal.reason, { ...request, signal });
  }

  return {
    async around(path, version, signal, write) {
      if (unsupported || !version.startsWith('"')) return write({});
      if (signal?.aborted) throw transportError(signal.reason, { method: 'LOCK', path, signal });
      const request: DavRequest = {
        method: 'LOCK',
        url: dav.url(path),
        path,
        headers: {
          'Content-Type': 'application/xml; charset=utf-8',
          Depth: '0',
          Timeout: `Second-${seconds}`,
          // The If header's tag test, unlike If-Match, also passes while Apache still calls the tag weak.
          If: `([${version}])`,
        },
        body: LOCKINFO,
        signal: undefined,
      };
      let response: Response;
      try {
        response = await answer(request, signal);
      } catch (error) {
        // No answer: offline (the write fails too), or a page whose server's CORS allows PUT but not LOCK. Not
        // remembered: a connection dropped once must not leave every later write of this remote unlocked.
        if (isSyncRemoteError(error) && error.kind === 'network') return write({});
        throw error;
      }
      if (response.status === 423) {
        await discard(response);
        throw new SyncRemoteError('locked', `WebDAV: ${shown(path)} is locked: another client is changing it`, {
          status: 423,
        });
      }
      // Apache answers 400 to a LOCK below a file: another client made a file of one of its folders.
      if (response.status === 400) await throwIfBlocked(dav, response, path, signal);
      if (response.status === 412 || response.status === 404) {
        await discard(response);
        const now = await stat(dav, path, signal);
        if (now?.collection === true) throw folderInTheWay(path, response.status);
        throw new SyncRemoteError('precondition', `WebDAV: ${shown(path)} changed since it was seen`, {
          status: response.status,
        });
      }
      if ((response.status >= 500 && response.status !== 501) || response.status === 401 || response.status === 429) {
        throw await statusError(response, request);
      }
      const token = await tokenOf(response, request);
      if (token === undefined) {
        // 400, 403, 405, 501, or a lock without a token: this server's writes go unlocked, as before.
        unsupported = true;
        return write({});
      }
      try {
        if (signal?.aborted) throw transportError(signal.reason, { ...request, signal });
        return await write({ If: `(<${token}>)` });
      } finally {
        await unlock(path, token);
      }
    },
  };
}
