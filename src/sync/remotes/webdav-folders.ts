// The WebDAV adapter's view of the tree: PROPFIND (a listing walked one folder at a time, what is at a path),
// MKCOL for the folders a write needs, and finding the file or folder that stands in a path's way.

import { eachLimited } from '../pool.js';
import { SyncRemoteError, isSyncRemoteError, type RemoteFile } from '../remote.js';
import { bodyText, discard, statusError, transportError, type DavRequest, type DavSend } from './webdav-http.js';
import { hrefPath, parentFolders } from './webdav-paths.js';
import { entryVersion } from './webdav-versions.js';
import { parseMultistatus, type DavEntry } from './webdav-xml.js';

/** What the adapter's operations share. */
export interface DavContext {
  root: URL;
  send: DavSend;
  /** The URL of `path` (with `folder`, ending in `/`), spelled as the server listed it. */
  url(path: string, folder?: boolean): string;
  /** Listed names the server keeps in another Unicode form than NFC, by NFC path (filled by {@link listTree}). */
  names: Map<string, string>;
}

const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?>\n<D:propfind xmlns:D="DAV:"><D:prop>' +
  '<D:resourcetype/><D:getetag/><D:getcontentlength/><D:getlastmodified/></D:prop></D:propfind>';

const okStatus = (status: number | undefined) => status === undefined || (status >= 200 && status <= 299);

/** PROPFIND with an explicit Depth (none means infinity, which Apache refuses); null when nothing is there. */
async function propfind(
  dav: DavContext,
  path: string,
  depth: 0 | 1,
  signal: AbortSignal | undefined,
): Promise<DavEntry[] | null> {
  const request: DavRequest = {
    method: 'PROPFIND',
    url: dav.url(path, depth === 1),
    path,
    headers: { Depth: String(depth), 'Content-Type': 'application/xml; charset=utf-8' },
    body: PROPFIND_BODY,
    signal,
  };
  const response = await dav.send(request);
  if (response.status === 404) {
    await discard(response);
    return null;
  }
  if (response.status !== 207)
    throw await statusError(response, request, response.ok ? ' (not a WebDAV multistatus)' : '');
  const xml = await bodyText(response, request);
  try {
    return parseMultistatus(xml);
  } catch (cause) {
    throw new SyncRemoteError(
      'protocol',
      `WebDAV PROPFIND ${path}: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
  }
}

/** What is at `path` now (PROPFIND Depth 0), or null when nothing is. */
export async function stat(dav: DavContext, path: string, signal: AbortSignal | undefined): Promise<DavEntry | null> {
  const entry = (await propfind(dav, path, 0, signal))?.[0];
  return entry === undefined || !okStatus(entry.status) ? null : entry;
}

/** The file at `path` as a listing shows it; a server that gives neither ETag nor date cannot be synced. */
export function remoteFile(path: string, entry: DavEntry): RemoteFile {
  const version = entryVersion(entry);
  if (version === undefined)
    throw new SyncRemoteError('protocol', `WebDAV: ${path} has neither getetag nor getlastmodified`);
  return entry.contentLength === undefined ? { path, version } : { path, version, size: entry.contentLength };
}

/**
 * Every file below the root: PROPFIND Depth 1 on each folder, a level at a time, `concurrency` at once. A root that
 * is not there is a new, empty remote; a folder removed while the walk runs holds nothing.
 */
export async function listTree(
  dav: DavContext,
  concurrency: number,
  signal: AbortSignal | undefined,
): Promise<RemoteFile[]> {
  const files: RemoteFile[] = [];
  const seen = new Set<string>(['/']);
  dav.names.clear();
  let level = ['/'];
  try {
    while (level.length > 0) {
      const next: string[] = [];
      await eachLimited(
        level,
        concurrency,
        async (folder) => {
          for (const entry of (await propfind(dav, folder, 1, signal)) ?? []) {
            if (!okStatus(entry.status)) continue;
            const { path, name } = hrefPath(dav.root, entry.href);
            // The folder itself comes first in its own listing; `seen` also keeps a looping server from walking on.
            if (path === folder || seen.has(path)) continue;
            seen.add(path);
            if (name !== path) dav.names.set(path, name);
            if (entry.collection) next.push(path);
            else files.push(remoteFile(path, entry));
          }
        },
        signal,
      );
      level = next;
    }
  } catch (error) {
    // The pool rethrows a bare abort reason when the signal fires between two requests.
    throw isSyncRemoteError(error) ? error : transportError(error, { method: 'PROPFIND', path: '/', signal });
  }
  return files;
}

/** The error naming what is in `path`'s way: a file where one of its folders must be, or a folder where it must be. */
function conflict(blocker: string, path: string, why: string): SyncRemoteError {
  return new SyncRemoteError('path-conflict', `WebDAV: ${path} cannot be written: ${why}`, {
    conflictingPath: blocker,
  });
}

/**
 * Looks, from the top down, for a file standing where one of `path`'s folders must be (and, unless `path` is to be a
 * folder itself, for a folder standing at `path`): the cause when a server refuses a write with 400, 405 or 409.
 */
export async function findConflict(
  dav: DavContext,
  path: string,
  asFolder: boolean,
  signal: AbortSignal | undefined,
): Promise<SyncRemoteError | undefined> {
  if (path === '/') return undefined;
  for (const folder of asFolder ? [...parentFolders(path), path] : parentFolders(path)) {
    const entry = await stat(dav, folder, signal);
    if (entry === null) return undefined;
    if (!entry.collection) return conflict(folder, path, `${folder} is a file`);
  }
  if (asFolder) return undefined;
  const entry = await stat(dav, path, signal);
  return entry?.collection === true ? conflict(path, path, 'a folder is there') : undefined;
}

/**
 * Makes the folders `path` needs (MKCOL, RFC 4918 §9.3), the root too when it is missing. The deepest first, since
 * most exist: a 409 means its parent is missing, made first; a 405 means something is there already (a file there
 * makes the write that follows fail, and that failure is then explained).
 */
export async function makeParents(dav: DavContext, path: string, signal: AbortSignal | undefined): Promise<void> {
  const folders = ['/', ...parentFolders(path)];
  const make = async (index: number): Promise<void> => {
    const folder = folders[index];
    if (folder === undefined) return;
    const request: DavRequest = { method: 'MKCOL', url: dav.url(folder, true), path: folder, signal };
    let response = await dav.send(request);
    if (response.status === 409 && index > 0) {
      await discard(response);
      await make(index - 1);
      response = await dav.send(request);
    }
    if (response.ok || response.status === 405) {
      await discard(response);
      return;
    }
    // Two MKCOLs of one new folder at once: Apache answers the loser 403 ("File exists"), the folder being there.
    if (response.status === 403 && (await stat(dav, folder, signal))?.collection === true) {
      await discard(response);
      return;
    }
    // Apache answers 400 for a folder below a file (the rest of the URL is "extraneous path components").
    const blocker = await findConflict(dav, folder, true, signal);
    if (blocker === undefined) throw await statusError(response, request);
    await discard(response);
    throw blocker;
  };
  await make(folders.length - 1);
}
