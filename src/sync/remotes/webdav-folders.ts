// The WebDAV adapter's view of the tree: PROPFIND (a listing walked one folder at a time, what is at a path),
// MKCOL for the folders a write needs, and finding the file or folder that stands in a path's way.

import { eachLimited } from '../pool.js';
import { SyncRemoteError, isSyncRemoteError, type RemoteFile } from '../remote.js';
import { bodyText, discard, statusError, transportError, type DavRequest, type DavSend } from './webdav-http.js';
import { shown } from './remote-bounds.js';
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
  /** The caps on what the server may make us hold or walk (webdav.ts gives the defaults). */
  bounds: DavBounds;
  /** The folders the last listing found empty (filled by {@link listTree}). */
  emptyFolders: string[];
}

export interface DavBounds {
  /** Bytes of a GET's body. */
  fileBytes: number;
  /** Bytes of one PROPFIND answer. */
  listingBytes: number;
  /** Folders one listing walks, the root included. */
  folders: number;
  /** Entries (files and folders) one listing takes. */
  entries: number;
}

const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?>\n<D:propfind xmlns:D="DAV:"><D:prop>' +
  '<D:resourcetype/><D:getetag/><D:getcontentlength/><D:getlastmodified/></D:prop></D:propfind>';

const okStatus = (status: number | undefined) => status === undefined || (status >= 200 && status <= 299);

/**
 * PROPFIND with an explicit Depth (none means infinity, which Apache refuses); null when nothing is there, also when
 * a file stands where one of the path's folders (or, Depth 1, the folder itself) must be: Apache answers that 400.
 */
export async function propfind(
  dav: DavContext,
  path: string,
  depth: 0 | 1,
  signal: AbortSignal | undefined,
  explain400 = true,
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
  if (response.status === 404 || (explain400 && (await goneBelowFile(dav, response, path, depth === 1, signal)))) {
    await discard(response);
    return null;
  }
  if (response.status !== 207)
    throw await statusError(response, request, response.ok ? ' (not a WebDAV multistatus)' : '');
  const xml = await bodyText(response, request, dav.bounds.listingBytes);
  try {
    return parseMultistatus(xml);
  } catch (cause) {
    const why = shown(cause instanceof Error ? cause.message : String(cause));
    throw new SyncRemoteError('protocol', `WebDAV PROPFIND ${shown(path)}: ${why}`, { cause });
  }
}

/** What is at `path` now (PROPFIND Depth 0), or null when nothing is. */
export async function stat(dav: DavContext, path: string, signal: AbortSignal | undefined): Promise<DavEntry | null> {
  const entry = (await propfind(dav, path, 0, signal))?.[0];
  return entry === undefined || !okStatus(entry.status) ? null : entry;
}

const noVersion = (path: string) =>
  new SyncRemoteError('protocol', `WebDAV: ${shown(path)} has neither getetag nor getlastmodified`);

/** The file at `path` as a listing shows it; a server that gives neither ETag nor date cannot be synced. */
export function remoteFile(path: string, entry: DavEntry): RemoteFile {
  const version = entryVersion(entry);
  if (version === undefined) throw noVersion(path);
  return entry.contentLength === undefined ? { path, version } : { path, version, size: entry.contentLength };
}

/**
 * A listed entry the memory cannot take, with the reason; never walked or read. Its path is the one it maps to, else
 * its href (cut), only for showing.
 */
function refusedEntry(entry: DavEntry, error: unknown, path: string | undefined): RemoteFile {
  const reason = isSyncRemoteError(error) ? error.message : String(error);
  const shownPath = path ?? shown(entry.href);
  return {
    path: shownPath.startsWith('/') ? shownPath : `/${shownPath}`,
    version: entryVersion(entry) ?? '',
    refused: shown(reason),
  };
}

const overBound = (what: string, bound: number, option: string) =>
  new SyncRemoteError('protocol', `WebDAV: the listing holds over ${bound} ${what} (${option}); nothing was synced`);

/**
 * Every file below the root: PROPFIND Depth 1 on each folder, a level at a time, `concurrency` at once. A root that
 * is not there is a new, empty remote; a folder removed while the walk runs holds nothing. An entry that maps to no
 * path (a bad href) or has no version is listed `refused`, not walked; past the walk's bounds the listing fails as
 * `protocol` (a listing cut short would read as deletes). Folders found empty are kept for `emptyFoldersSeen()`.
 */
export async function listTree(
  dav: DavContext,
  concurrency: number,
  signal: AbortSignal | undefined,
): Promise<RemoteFile[]> {
  const files: RemoteFile[] = [];
  const seen = new Set<string>(['/']);
  const empty: string[] = [];
  const { folders: maxFolders, entries: maxEntries } = dav.bounds;
  let walked = 0;
  let taken = 0;
  dav.names.clear();
  let level = ['/'];
  try {
    while (level.length > 0) {
      const next: string[] = [];
      walked += level.length;
      if (walked > maxFolders) throw overBound('folders', maxFolders, 'maxFolders');
      await eachLimited(
        level,
        concurrency,
        async (folder) => {
          const listed = await propfind(dav, folder, 1, signal);
          let members = 0;
          for (const entry of listed ?? []) {
            if (!okStatus(entry.status)) continue;
            let found: { path: string; name: string } | undefined;
            try {
              found = hrefPath(dav.root, entry.href);
              if (!entry.collection && entryVersion(entry) === undefined) throw noVersion(found.path);
            } catch (error) {
              members += 1;
              if (++taken > maxEntries) throw overBound('entries', maxEntries, 'maxEntries');
              files.push(refusedEntry(entry, error, found?.path));
              continue;
            }
            const { path, name } = found;
            // The folder itself comes first in its own listing; `seen` also keeps a looping server from walking on.
            if (path === folder) continue;
            members += 1;
            if (seen.has(path)) continue;
            seen.add(path);
            if (++taken > maxEntries) throw overBound('entries', maxEntries, 'maxEntries');
            if (name !== path) dav.names.set(path, name);
            if (entry.collection) next.push(path);
            else files.push(remoteFile(path, entry));
          }
          if (listed !== null && members === 0 && folder !== '/') empty.push(folder);
        },
        signal,
      );
      level = next;
    }
  } catch (error) {
    // The pool rethrows a bare abort reason when the signal fires between two requests.
    throw isSyncRemoteError(error) ? error : transportError(error, { method: 'PROPFIND', path: '/', signal });
  }
  dav.emptyFolders = empty;
  return files;
}

/** The error naming what is in `path`'s way: a file where one of its folders must be, or a folder where it must be. */
function conflict(blocker: string, path: string, why: string): SyncRemoteError {
  return new SyncRemoteError('path-conflict', `WebDAV: ${shown(path)} cannot be written: ${shown(why)}`, {
    conflictingPath: blocker,
  });
}

/** A write of the file at `path` refused (with `status`) because a folder stands there. */
export const folderInTheWay = (path: string, status: number): SyncRemoteError =>
  new SyncRemoteError('path-conflict', `WebDAV: ${shown(path)} cannot be written: a folder is there`, {
    status,
    conflictingPath: path,
  });

/**
 * The file standing where one of `path`'s folders (and, `asFolder`, `path` itself) must be, looked for from the top
 * down; undefined when none does, or a folder on the way is missing.
 */
async function fileAbove(
  dav: DavContext,
  path: string,
  asFolder: boolean,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  if (path === '/') return undefined;
  for (const folder of asFolder ? [...parentFolders(path), path] : parentFolders(path)) {
    // Not explained again: top down, a folder's own look cannot be below a file unless the tree changed meanwhile.
    const entry = (await propfind(dav, folder, 0, signal, false))?.[0];
    if (entry === undefined || !okStatus(entry.status)) return undefined;
    if (!entry.collection) return folder;
  }
  return undefined;
}

/**
 * Whether `response` is Apache's 400 to a request below a file ("extraneous path components"), told by looking: the
 * path is then gone, not the request malformed. The caller lets the answer go.
 */
export async function goneBelowFile(
  dav: DavContext,
  response: Response,
  path: string,
  asFolder: boolean,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  return response.status === 400 && (await fileAbove(dav, path, asFolder, signal)) !== undefined;
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
  const file = await fileAbove(dav, path, asFolder, signal);
  if (file !== undefined) return conflict(file, path, `${file} is a file`);
  if (path === '/' || asFolder) return undefined;
  const entry = await stat(dav, path, signal);
  return entry?.collection === true ? conflict(path, path, 'a folder is there') : undefined;
}

/** Throws the conflict when the tree stands in `path`'s way (a file above it, a folder at it); lets `response` go. */
export async function throwIfBlocked(
  dav: DavContext,
  response: Response,
  path: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const blocker = await findConflict(dav, path, false, signal);
  if (blocker === undefined) return;
  await discard(response);
  throw blocker;
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
