// Remote paths ⇄ WebDAV URLs: each segment percent-encoded as UTF-8 below the root URL, and a multistatus href
// (an absolute path or URL, encoded as the server likes) read back into a path below the root, NFC.

import { SyncRemoteError } from '../remote.js';
import { shown } from './remote-bounds.js';

/** The root as a URL ending in `/` (`/dav` and `/dav/` are one folder; Apache serves only the second). */
export function rootUrl(url: string): URL {
  let root: URL;
  try {
    root = new URL(url);
  } catch (cause) {
    throw new TypeError(`webdavRemote: url ${JSON.stringify(url)} is not an absolute URL`, { cause });
  }
  if (root.protocol !== 'https:' && root.protocol !== 'http:')
    throw new TypeError('webdavRemote: url must be http: or https:');
  if (root.username !== '' || root.password !== '') {
    throw new TypeError('webdavRemote: give credentials as username and password (or token), not in the url');
  }
  if (root.search !== '' || root.hash !== '')
    throw new TypeError('webdavRemote: url must not have a query or a fragment');
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  return root;
}

/** The segments of `/a/b.md`; a segment a URL would resolve away (`.`, `..`) or an empty one is refused. */
export function pathSegments(path: string): string[] {
  const segments = path.split('/').slice(1);
  if (!path.startsWith('/') || segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new SyncRemoteError('refused-path', `WebDAV cannot address the path ${shown(path)}`);
  }
  return segments;
}

/** The URL of the file at `path` (or of a folder, with `folder`: a trailing `/`); `/` is the root itself. */
export function pathUrl(root: URL, path: string, folder = false): string {
  if (path === '/') return root.href;
  // encodeURIComponent also encodes `%`, `?`, `#` and `/` inside a name; `.` segments are refused above.
  const encoded = pathSegments(path).map(encodeURIComponent).join('/');
  return `${root.href}${encoded}${folder ? '/' : ''}`;
}

/** The folders that must exist for `path`: `/a/b/c.md` → `/a`, `/a/b`. */
export function parentFolders(path: string): string[] {
  const segments = pathSegments(path);
  return segments.slice(0, -1).map((_, i) => `/${segments.slice(0, i + 1).join('/')}`);
}

function decodedSegments(pathname: string, href: string): string[] {
  const segments = pathname.split('/').slice(1);
  // A collection's href ends in `/`; the folder is the same path.
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  return segments.map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch (cause) {
      throw new SyncRemoteError('protocol', `WebDAV href ${shown(href)} is not valid percent-encoded UTF-8`, {
        cause,
      });
    }
  });
}

/**
 * The path below the root that a multistatus href names: `path` in NFC, `name` as the server spells it (they differ
 * only for a name stored in another Unicode form). Only the URL's path counts: a server behind a proxy may name
 * another host. An href outside the root, or a name holding `/`, is a protocol error.
 */
export function hrefPath(root: URL, href: string): { path: string; name: string } {
  let url: URL;
  try {
    // Raw `\`, `?` and `#` are parts of a name here: the URL parser would take them for `/`, a query, a fragment.
    url = new URL(
      href.replace(/[\\?#]/g, (char) => encodeURIComponent(char)),
      root,
    );
  } catch (cause) {
    throw new SyncRemoteError('protocol', `WebDAV href ${shown(href)} is not a URL`, { cause });
  }
  const base = decodedSegments(root.pathname, root.href).map((segment) => segment.normalize('NFC'));
  const segments = decodedSegments(url.pathname, href);
  const inside =
    segments.length >= base.length && base.every((segment, i) => segments[i]?.normalize('NFC') === segment);
  const rest = segments.slice(base.length);
  if (!inside || rest.some((segment) => segment === '' || segment.includes('/'))) {
    throw new SyncRemoteError('protocol', `WebDAV href ${shown(href)} is not a path below ${root.href}`);
  }
  const name = `/${rest.join('/')}`;
  return { path: name.normalize('NFC'), name };
}
