// A WebDAV file's version for optimistic concurrency: its ETag, sent back as If-Match; for a server without ETags,
// its Last-Modified and size, sent back as If-Unmodified-Since (one-second granularity: weaker, and said so).

import type { DavEntry } from './webdav-xml.js';

const MODIFIED = 'modified:';

/**
 * How long to wait before retrying an If-Match that failed only because the server's tag was still weak. Apache's
 * tag is strong once the request comes more than a second after the file's modification time.
 */
export const WEAK_ETAG_WAIT_MS = 1200;

/**
 * The version an ETag stands for, `W/` removed: Apache's tag is weak for about a second after a write, then the same
 * value is strong. A bare token (a server that forgot the quotes) is quoted, so both spellings are one version.
 */
export function etagVersion(etag: string): string {
  const value = (etag.startsWith('W/') ? etag.slice(2) : etag).trim();
  return value.startsWith('"') ? value : `"${value}"`;
}

/** The version of a file from its ETag, else its Last-Modified and size; undefined when the server sent neither. */
export function versionOf(
  etag: string | null | undefined,
  lastModified: string | null | undefined,
  size: number | undefined,
): string | undefined {
  if (etag !== null && etag !== undefined && etag !== '') return etagVersion(etag);
  if (lastModified !== null && lastModified !== undefined && lastModified !== '')
    return `${MODIFIED}${size ?? ''}:${lastModified}`;
  return undefined;
}

export const entryVersion = (entry: DavEntry): string | undefined =>
  versionOf(entry.etag, entry.lastModified, entry.contentLength);

/** The request headers that make a change happen only if the file still has `version` (RFC 9110 §13.1). */
export function conditionHeaders(version: string): Record<string, string> {
  if (!version.startsWith(MODIFIED)) return { 'If-Match': version };
  const rest = version.slice(MODIFIED.length);
  return { 'If-Unmodified-Since': rest.slice(rest.indexOf(':') + 1) };
}

/**
 * True when a 412 was only the weak form of our own tag: the server still has `version`, but If-Match compares
 * strongly and a weak tag never matches. Apache's tag turns strong a second after the write; a retry then passes.
 */
export function weakTwin(entry: DavEntry | null, version: string): boolean {
  return (
    entry !== null && !entry.collection && entry.etag?.startsWith('W/') === true && etagVersion(entry.etag) === version
  );
}
