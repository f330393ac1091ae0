// A WebDAV folder (RFC 4918; Apache mod_dav, Nextcloud, …) as a SyncRemote over fetch: PROPFIND to list, GET, and
// PUT/DELETE/MOVE guarded by If-Match (optimistic concurrency; a PUT that replaces a file also holds a LOCK), with the
// folders a write needs made by MKCOL.
// Runs in pages, workers and Node; a page on another origin needs the server's CORS (see the sync README).

import { sleep } from '../../offline/abortable-sleep.js';
import { utf8Length } from '../../core/utf8.js';
import { SyncRemoteError } from '../remote.js';
import type { RemoteCallOptions, RemoteFile, SyncRemote } from '../remote.js';
import {
  goneBelowFile,
  listTree,
  makeParents,
  remoteFile,
  stat,
  throwIfBlocked,
  type DavContext,
} from './webdav-folders.js';
import { removeEmptyFolder } from './webdav-empty-folders.js';
import { davSender, discard, statusError, transportError, type DavRequest } from './webdav-http.js';
import { authorization, davBounds, refuseUnknownKeys, type WebdavRemoteOptions } from './webdav-options.js';
import { encryptedRemote, refuseKeyFile } from './webdav-crypto.js';
import { pathUrl, rootUrl } from './webdav-paths.js';
import { raceError } from './webdav-races.js';
import { readText } from './webdav-read.js';
import { weakWrites } from './webdav-weak-writes.js';
import { davLocks } from './webdav-lock.js';
import { changedAgain, guarded, putText, type PutContext } from './webdav-write.js';
import { shown } from './remote-bounds.js';
import { WEAK_ETAG_WAIT_MS, conditionHeaders, etagVersion, weakTwin } from './webdav-versions.js';

export type { WebdavRemoteOptions } from './webdav-options.js';
export type { WebdavEncryption } from './webdav-crypto.js';

/** A {@link SyncRemote} on a WebDAV folder (end-to-end encrypted with `encryption`). TypeError: options refused. */
export function webdavRemote(options: WebdavRemoteOptions): SyncRemote {
  refuseUnknownKeys(options);
  const { encryption, ...plain } = options;
  if (encryption === undefined) return plainRemote(plain, false);
  return encryptedRemote(plainRemote(plain, true), rootUrl(options.url).href, encryption);
}

/** The plain remote; `sealed`: it lies under an encrypted one, whose key file its listing then keeps. */
function plainRemote(options: WebdavRemoteOptions, sealed: boolean): SyncRemote {
  const root = rootUrl(options.url);
  const concurrency = options.concurrency ?? 4;
  const { timeoutMs, ...bounds } = davBounds(options);
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const names = new Map<string, string>();
  const dav: DavContext = {
    root,
    send: davSender(fetchImpl, authorization(options, root), root.origin, timeoutMs),
    url: (path, folder = false) => pathUrl(root, names.get(path) ?? path, folder),
    names,
    bounds,
    emptyFolders: [],
  };
  const maxFileBytes = options.maxFileBytes;
  const weak = weakWrites((path) => readText(dav, path, undefined));
  const put: PutContext = { dav, weak, locks: davLocks(dav, timeoutMs) };

  /**
   * The file at `path` after our move: a strong ETag from the answer, else what a PROPFIND now says (Apache's MOVE
   * answers carry none). Another size there means another client wrote in between: its version is not ours, so the
   * change is reported as the precondition failure it is, and the engine looks again. A write is read back instead.
   */
  async function settled(
    path: string,
    response: Response,
    size: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RemoteFile> {
    await discard(response);
    const etag = response.headers.get('ETag');
    if (etag !== null && !etag.startsWith('W/') && size !== undefined) {
      return { path, version: etagVersion(etag), size };
    }
    const now = await stat(dav, path, signal);
    const file = now === null || now.collection ? undefined : remoteFile(path, now);
    if (file === undefined || (size !== undefined && file.size !== undefined && file.size !== size)) {
      throw changedAgain(path);
    }
    return size === undefined ? file : { ...file, size };
  }

  return {
    id: `webdav:${root.href}`,
    kind: 'webdav',
    limits: maxFileBytes === undefined ? {} : { maxFileBytes },
    concurrency,

    async list(callOptions?: RemoteCallOptions) {
      const files = await weak.check(await listTree(dav, concurrency, callOptions?.signal));
      if (!sealed) refuseKeyFile(files);
      return files;
    },

    read: async (file, callOptions) => {
      const { file: seen, text } = await readText(dav, file.path, callOptions?.signal, file.version);
      weak.read(file.path);
      return { file: seen, text };
    },

    emptyFoldersSeen: () => [...dav.emptyFolders],

    removeEmptyFolder: (path, callOptions) => removeEmptyFolder(dav, path, callOptions?.signal),

    async write(path, text, expected, callOptions) {
      const signal = callOptions?.signal;
      const size = utf8Length(text);
      if (maxFileBytes !== undefined && size > maxFileBytes) {
        throw new SyncRemoteError(
          'too-large',
          `WebDAV: ${shown(path)} is ${size} bytes; the server takes at most ${maxFileBytes}`,
        );
      }
      return putText(put, path, text, size, expected, signal);
    },

    async delete(expected, callOptions) {
      const signal = callOptions?.signal;
      const request: DavRequest = {
        method: 'DELETE',
        url: dav.url(expected.path),
        path: expected.path,
        signal,
        headers: conditionHeaders(expected.version),
      };
      const { response, now } = await guarded(dav, request, expected.path, expected.version);
      // Gone already (before, or between the 412 and our look, or a file now where its folder was) is what was asked.
      if (
        response.ok ||
        response.status === 404 ||
        (response.status === 412 && now === null) ||
        (await goneBelowFile(dav, response, expected.path, false, signal))
      ) {
        await discard(response);
        return;
      }
      const race = await raceError(dav, response, request, expected);
      if (race?.kind === 'not-found') return;
      if (race !== undefined) throw race;
      throw await statusError(response, request, response.status === 412 ? ' (the file changed)' : '');
    },

    async move(expected, to, callOptions) {
      const signal = callOptions?.signal;
      const from = expected.path;
      if (to === from) throw new TypeError(`webdavRemote: move of ${shown(from)} onto itself`);
      if (to.lastIndexOf('/') > 0) await makeParents(dav, to, signal);
      const request: DavRequest = {
        method: 'MOVE',
        url: dav.url(from),
        path: from,
        // Destination must be an absolute URL (Apache answers 400 to a path); Overwrite F: a taken `to` is a 412.
        headers: { Destination: dav.url(to), Overwrite: 'F', ...conditionHeaders(expected.version) },
        signal,
      };
      let response = await dav.send(request);
      if (response.status === 412) {
        await discard(response);
        // Tell the two 412s apart: `to` taken, or the source changed (or only its tag still weak).
        const there = await stat(dav, to, signal);
        if (there !== null) {
          const [kind, what] = there.collection
            ? (['path-conflict', 'folder'] as const)
            : (['precondition', 'file'] as const);
          throw new SyncRemoteError(kind, `WebDAV: cannot move ${shown(from)} to ${shown(to)}: a ${what} is there`, {
            status: 412,
            conflictingPath: to,
          });
        }
        const source = await stat(dav, from, signal);
        if (source === null) throw new SyncRemoteError('not-found', `WebDAV: ${shown(from)} is gone`, { status: 412 });
        if (!weakTwin(source, expected.version)) {
          throw new SyncRemoteError('precondition', `WebDAV: ${shown(from)} changed since it was seen`, {
            status: 412,
          });
        }
        await sleep(WEAK_ETAG_WAIT_MS, signal).catch((error: unknown) => {
          throw transportError(error, request);
        });
        response = await dav.send(request);
      }
      if (response.ok) return settled(to, response, expected.size, signal);
      // Apache answers 500 ("Could not rename resource") to a MOVE whose source another client deleted meanwhile, and
      // 400 to one whose source's folder another client replaced with a file.
      if (
        (response.status === 500 && (await stat(dav, from, signal)) === null) ||
        (await goneBelowFile(dav, response, from, false, signal))
      ) {
        await discard(response);
        throw new SyncRemoteError('not-found', `WebDAV: ${shown(from)} is gone`, { status: 500 });
      }
      const race =
        (await raceError(dav, response, { ...request, path: to, method: 'PUT' }, { path: to })) ??
        (await raceError(dav, response, request, expected));
      if (race !== undefined) throw race;
      if (response.status === 400 || response.status === 409) await throwIfBlocked(dav, response, to, signal);
      throw await statusError(
        response,
        request,
        response.status === 412 ? ' (the file changed, or the destination is taken)' : '',
      );
    },
  };
}
