// What a WebDAV listing keeps alive once read: the entries of a PROPFIND answer must not hold the answer's text.
// Node only: it reads V8's live heap after a forced GC, which no browser lets a test do. A heap figure, not a timing.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { entryVersion } from '../../../src/sync/remotes/webdav-versions.js';
import { parseMultistatus } from '../../../src/sync/remotes/webdav-xml.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The live heap after a full GC, in bytes. */
function live(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const PADDING_BYTES = 16 * 2 ** 20;

/** A multistatus of `files` entries in Apache's shape, padded by a comment to `PADDING_BYTES`, as a flat string. */
function multistatus(files: number): string {
  const responses = Array.from(
    { length: files },
    (_, i) => `<D:response xmlns:lp1="DAV:">
<D:href>/dav/notes/file-${String(i).padStart(5, '0')}.md</D:href>
<D:propstat><D:prop><lp1:resourcetype/><lp1:getcontentlength>1024</lp1:getcontentlength>
<lp1:getlastmodified>Sat, 05 Dec 2026 01:51:38 GMT</lp1:getlastmodified>
<lp1:getetag>"400-661d93bb9f${String(i).padStart(3, '0')}"</lp1:getetag></D:prop>
<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`,
  ).join('\n');
  const padding = `<!--${'x'.repeat(PADDING_BYTES)}-->`;
  return [`<?xml version="1.0" encoding="utf-8"?>`, padding, `<D:multistatus xmlns:D="DAV:">`, responses, `</D:multistatus>`].join('\n');
}

describe('a WebDAV listing read', () => {
  it('keeps no part of the PROPFIND answer alive through the versions, hrefs and dates it keeps', () => {
    const before = live();
    let xml: string | undefined = multistatus(100);
    const entries = parseMultistatus(xml);
    const versions = entries.map((entry) => entryVersion(entry));
    xml = undefined;
    const grown = live() - before;
    expect(versions).toHaveLength(100);
    expect(versions[7]).toBe('"400-661d93bb9f007"');
    expect(entries[7]?.href).toBe('/dav/notes/file-00007.md');
    expect(entries[7]?.lastModified).toBe('Sat, 05 Dec 2026 01:51:38 GMT');
    // The answer (16 MB) is let go: what stays is 100 small entries, well under a megabyte.
    expect(grown).toBeLessThan(PADDING_BYTES / 16);
  });
});
