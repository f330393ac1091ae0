// A file's text with the version that text is. The GET's own ETag names it. Where CORS hides that header, a PROPFIND
// before the GET and one after must agree: a write between the GET and a single PROPFIND would lend its tag to the
// text we read, and that file would never be pulled again.

import { SyncRemoteError, type RemoteFile } from '../remote.js';
import { remoteFile, stat, type DavContext } from './webdav-folders.js';
import { bodyBytes, discard, statusError, type DavRequest } from './webdav-http.js';
import { raceError } from './webdav-races.js';
import { shown } from './remote-bounds.js';
import { etagVersion } from './webdav-versions.js';
import type { DavEntry } from './webdav-xml.js';

export interface ReadText {
  file: RemoteFile;
  text: string;
  /** The version came from a weak tag (Apache's, in the file's first second): another text of its size may share it. */
  weak: boolean;
}

/**
 * GET `path`: its text (UTF-8, a BOM kept) and the answer's ETag, null when the server or CORS gives none. A body
 * that is not UTF-8 (an image, `.DS_Store`) or is over the read cap is `unreadable`: the engine skips the file.
 */
async function getText(
  dav: DavContext,
  path: string,
  version: string | undefined,
  signal: AbortSignal | undefined,
): Promise<{ text: string; size: number; etag: string | null }> {
  const request: DavRequest = { method: 'GET', url: dav.url(path), path, signal };
  const response = await dav.send(request);
  if (!response.ok) {
    const race = await raceError(dav, response, request, { path, version });
    if (race !== undefined) throw race;
    // The look (a PROPFIND with the same credentials) saw the file unchanged: the server refuses this one file (its
    // permissions), not us. `auth` would pause all of sync for it.
    if (response.status === 403) {
      await discard(response);
      throw new SyncRemoteError('unreadable', `WebDAV: the server refuses to send ${shown(path)} (403)`, {
        status: 403,
      });
    }
    throw await statusError(response, request);
  }
  const cap = dav.bounds.fileBytes;
  const bytes = await bodyBytes(response, request, cap);
  if (bytes === undefined) {
    throw new SyncRemoteError('unreadable', `WebDAV: ${shown(path)} is over ${cap} bytes, the most a read takes`);
  }
  let text: string;
  try {
    // ignoreBOM keeps a BOM in the text, so the file is written back byte for byte.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (cause) {
    throw new SyncRemoteError('unreadable', `WebDAV: ${shown(path)} is not UTF-8 text`, { cause });
  }
  return { text, size: bytes.byteLength, etag: response.headers.get('ETag') };
}

const fileThere = (path: string, entry: DavEntry | null): DavEntry => {
  if (entry === null || entry.collection) throw new SyncRemoteError('not-found', `WebDAV: ${shown(path)} is gone`);
  return entry;
};

/** Servers (or CORS setups) seen to answer a GET without an ETag: their reads go straight to the PROPFIND pair. */
const etagHidden = new WeakSet<DavContext>();

/** The text at `path` and its version; `precondition` when it changed while it was read (the next pass looks again). */
export async function readText(
  dav: DavContext,
  path: string,
  signal: AbortSignal | undefined,
  version?: string,
): Promise<ReadText> {
  if (!etagHidden.has(dav)) {
    const got = await getText(dav, path, version, signal);
    if (got.etag !== null) {
      return { file: { path, version: etagVersion(got.etag), size: got.size }, text: got.text, weak: got.etag.startsWith('W/') };
    }
    etagHidden.add(dav);
  }
  const before = remoteFile(path, fileThere(path, await stat(dav, path, signal)));
  const got = await getText(dav, path, version, signal);
  const entry = fileThere(path, await stat(dav, path, signal));
  const after = remoteFile(path, entry);
  if (before.version !== after.version) {
    throw new SyncRemoteError('precondition', `WebDAV: ${shown(path)} changed while it was read`);
  }
  return { file: { ...after, size: got.size }, text: got.text, weak: entry.etag?.startsWith('W/') === true };
}
