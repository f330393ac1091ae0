// The multistatus reader and the href ⇄ path mapping, on bodies in the shapes Apache mod_dav, Nextcloud (SabreDAV)
// and other servers send: prefixes, a default namespace, entities, absolute URLs, 404 propstats, malformed input.
// Pure code: runs in Node and in every browser project.

import { describe, expect, it } from 'vitest';
import { hrefPath, parentFolders, pathUrl, rootUrl } from '../../../src/sync/remotes/webdav-paths.js';
import { parseMultistatus } from '../../../src/sync/remotes/webdav-xml.js';

// Apache 2.4 mod_dav_fs: `D:` on the structure, live properties under `lp1:` (also DAV:), lowercase %-escapes.
const APACHE = `<?xml version="1.0" encoding="utf-8"?>
<D:multistatus xmlns:D="DAV:">
<D:response xmlns:lp1="DAV:" xmlns:lp2="http://apache.org/dav/props/">
<D:href>/dav/notes/</D:href>
<D:propstat>
<D:prop>
<lp1:resourcetype><D:collection/></lp1:resourcetype>
<lp1:getlastmodified>Sat, 05 Dec 2026 01:51:38 GMT</lp1:getlastmodified>
<lp1:getetag>W/"1000-661d93bb9feb8"</lp1:getetag>
</D:prop>
<D:status>HTTP/1.1 200 OK</D:status>
</D:propstat>
</D:response>
<D:response xmlns:lp1="DAV:" xmlns:lp2="http://apache.org/dav/props/">
<D:href>/dav/notes/h%c3%a9%20x.md</D:href>
<D:propstat>
<D:prop>
<lp1:resourcetype/>
<lp1:getcontentlength>2</lp1:getcontentlength>
<lp1:getlastmodified>Sat, 05 Dec 2026 01:51:38 GMT</lp1:getlastmodified>
<lp1:getetag>"2-661d93bb9feb8"</lp1:getetag>
<lp2:executable>F</lp2:executable>
</D:prop>
<D:status>HTTP/1.1 200 OK</D:status>
</D:propstat>
</D:response>
</D:multistatus>
`;

// Nextcloud / ownCloud (SabreDAV): `d:` prefixes, oc:/nc: namespaces, quotes of the ETag as entities, and what a
// resource lacks in a 404 propstat of its own.
const NEXTCLOUD = `<?xml version="1.0"?>
<d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
 <d:response>
  <d:href>/remote.php/dav/files/alice%40example.org/memory/</d:href>
  <d:propstat>
   <d:prop>
    <d:resourcetype><d:collection/></d:resourcetype>
    <d:getetag>&quot;65f0c1a2b3c4d&quot;</d:getetag>
    <d:getlastmodified>Tue, 12 Mar 2024 10:00:00 GMT</d:getlastmodified>
   </d:prop>
   <d:status>HTTP/1.1 200 OK</d:status>
  </d:propstat>
  <d:propstat>
   <d:prop><d:getcontentlength/></d:prop>
   <d:status>HTTP/1.1 404 Not Found</d:status>
  </d:propstat>
 </d:response>
 <d:response>
  <d:href>/remote.php/dav/files/alice%40example.org/memory/Caf%C3%A9%20%26%20more.md</d:href>
  <d:propstat>
   <d:prop>
    <d:resourcetype/>
    <d:getcontentlength>42</d:getcontentlength>
    <d:getetag>&quot;a1b2c3&quot;</d:getetag>
    <oc:fileid>1234</oc:fileid>
    <d:getlastmodified>Tue, 12 Mar 2024 10:00:01 GMT</d:getlastmodified>
   </d:prop>
   <d:status>HTTP/1.1 200 OK</d:status>
  </d:propstat>
 </d:response>
</d:multistatus>`;

// A default namespace, absolute URLs as hrefs (a server behind a proxy naming its own host), an entity in an href,
// a CDATA ETag, a comment, and a member the server could not describe (a response status instead of propstats).
const DEFAULT_NS = `<?xml version="1.0" encoding="UTF-8"?>
<!-- generated -->
<multistatus xmlns="DAV:"><response><href>http://backend:8080/files/</href><propstat><prop>
<resourcetype><collection/></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response>
<response><href>http://backend:8080/files/a&amp;b.md</href><propstat><prop><resourcetype/>
<getetag><![CDATA["e<1>"]]></getetag><getcontentlength>7</getcontentlength></prop>
<status>HTTP/1.1 200 OK</status></propstat></response>
<response><href>/files/locked.md</href><status>HTTP/1.1 423 Locked</status></response></multistatus>`;

describe('parseMultistatus', () => {
  it('reads Apache mod_dav answers, whose live properties use an lp1: prefix for DAV:', () => {
    expect(parseMultistatus(APACHE)).toEqual([
      {
        href: '/dav/notes/',
        collection: true,
        etag: 'W/"1000-661d93bb9feb8"',
        lastModified: 'Sat, 05 Dec 2026 01:51:38 GMT',
      },
      {
        href: '/dav/notes/h%c3%a9%20x.md',
        collection: false,
        contentLength: 2,
        etag: '"2-661d93bb9feb8"',
        lastModified: 'Sat, 05 Dec 2026 01:51:38 GMT',
      },
    ]);
  });

  it('reads Nextcloud answers: d: prefixes, entity-quoted ETags, other namespaces ignored, 404 propstats skipped', () => {
    const [folder, file] = parseMultistatus(NEXTCLOUD);
    expect(folder).toEqual({
      href: '/remote.php/dav/files/alice%40example.org/memory/',
      collection: true,
      etag: '"65f0c1a2b3c4d"',
      lastModified: 'Tue, 12 Mar 2024 10:00:00 GMT',
    });
    expect(file).toMatchObject({ collection: false, contentLength: 42, etag: '"a1b2c3"' });
  });

  it('reads a default namespace, CDATA, comments, entities in hrefs and a response with a status of its own', () => {
    expect(parseMultistatus(DEFAULT_NS)).toEqual([
      { href: 'http://backend:8080/files/', collection: true },
      { href: 'http://backend:8080/files/a&b.md', collection: false, etag: '"e<1>"', contentLength: 7 },
      { href: '/files/locked.md', collection: false, status: 423 },
    ]);
  });

  it('matches elements by namespace, not by prefix', () => {
    const xml = `<x:multistatus xmlns:x="DAV:" xmlns:D="urn:not-dav"><x:response><x:href>/a</x:href><x:propstat>
      <x:prop><D:getetag>"fake"</D:getetag><x:getetag>"real"</x:getetag></x:prop></x:propstat></x:response></x:multistatus>`;
    expect(parseMultistatus(xml)).toEqual([{ href: '/a', collection: false, etag: '"real"' }]);
  });

  it('decodes numeric character references and keeps a BOM out', () => {
    const xml = `\ufeff<D:multistatus xmlns:D='DAV:'><D:response><D:href>/caf&#xE9;/&#128512;.md</D:href></D:response></D:multistatus>`;
    expect(parseMultistatus(xml)[0]?.href).toBe('/café/😀.md');
  });

  it.each([
    ['a DOCTYPE (no entity expansion)', '<!DOCTYPE x [<!ENTITY a "b">]><D:multistatus xmlns:D="DAV:"/>'],
    ['an undeclared prefix', '<D:multistatus xmlns:D="DAV:"><Z:response/></D:multistatus>'],
    ['a mismatched end tag', '<D:multistatus xmlns:D="DAV:"><D:response></D:multistatus>'],
    ['a document cut short', '<D:multistatus xmlns:D="DAV:"><D:response><D:href>/a</D:href>'],
    [
      'an unknown entity',
      '<D:multistatus xmlns:D="DAV:"><D:response><D:href>&nbsp;</D:href></D:response></D:multistatus>',
    ],
    [
      'a bare ampersand',
      '<D:multistatus xmlns:D="DAV:"><D:response><D:href>a & b</D:href></D:response></D:multistatus>',
    ],
    ['another root element', '<html><body>Not WebDAV</body></html>'],
    ['no XML at all', 'Forbidden'],
    ['a response without an href', '<D:multistatus xmlns:D="DAV:"><D:response/></D:multistatus>'],
  ])('refuses %s with a SyntaxError', (_what, xml) => {
    expect(() => parseMultistatus(xml)).toThrow(SyntaxError);
  });
});

describe('WebDAV paths and URLs', () => {
  const root = rootUrl('https://cloud.example/remote.php/dav/files/alice%40example.org/memory');

  it('adds the trailing slash to the root URL and refuses what fetch cannot send', () => {
    expect(root.href).toBe('https://cloud.example/remote.php/dav/files/alice%40example.org/memory/');
    expect(() => rootUrl('/relative/')).toThrow(TypeError);
    expect(() => rootUrl('ftp://host/dav/')).toThrow(TypeError);
    expect(() => rootUrl('https://user:pw@host/dav/')).toThrow(TypeError);
    expect(() => rootUrl('https://host/dav/?x=1')).toThrow(TypeError);
  });

  it('percent-encodes each segment as UTF-8, URL punctuation included', () => {
    expect(pathUrl(root, '/a b/é#?%.md')).toBe(`${root.href}a%20b/%C3%A9%23%3F%25.md`);
    expect(pathUrl(root, '/a b', true)).toBe(`${root.href}a%20b/`);
    expect(pathUrl(root, '/')).toBe(root.href);
    expect(() => pathUrl(root, '/a/../b.md')).toThrow(expect.objectContaining({ kind: 'refused-path' }));
    expect(() => pathUrl(root, '/a//b.md')).toThrow(expect.objectContaining({ kind: 'refused-path' }));
    expect(parentFolders('/a/b/c.md')).toEqual(['/a', '/a/b']);
  });

  it('reads hrefs as absolute paths or URLs, any host, any escaping, back into paths below the root', () => {
    const base = '/remote.php/dav/files/alice@example.org/memory';
    expect(hrefPath(root, `${base}/`)).toEqual({ path: '/', name: '/' });
    expect(hrefPath(root, `${base}/Caf%C3%A9%20%26%20more.md`).path).toBe('/Café & more.md');
    expect(hrefPath(root, `http://internal:8080${base}/sub/`).path).toBe('/sub');
    expect(hrefPath(root, `${base}/h%c3%a9.md`).path).toBe('/hé.md');
    expect(hrefPath(root, `${base}/raw é space.md`).path).toBe('/raw é space.md');
    expect(hrefPath(root, `${base}/what?#.md`).path).toBe('/what?#.md');
  });

  it('gives a name stored in another Unicode form as an NFC path, keeping the server spelling to address it', () => {
    const nfd = 'Cafe\u0301.md';
    const { path, name } = hrefPath(
      root,
      `/remote.php/dav/files/alice%40example.org/memory/${encodeURIComponent(nfd)}`,
    );
    expect(path).toBe('/Caf\u00e9.md');
    expect(name).toBe(`/${nfd}`);
    expect(pathUrl(root, name)).toBe(`${root.href}Cafe%CC%81.md`);
  });

  it('refuses an href outside the root, or one naming a slash inside a name, as protocol', () => {
    expect(() => hrefPath(root, '/elsewhere/a.md')).toThrow(expect.objectContaining({ kind: 'protocol' }));
    expect(() => hrefPath(root, '/remote.php/dav/files/alice%40example.org/memory/a%2Fb.md')).toThrow(
      expect.objectContaining({ kind: 'protocol' }),
    );
    expect(() => hrefPath(root, '/remote.php/dav/files/alice%40example.org/memory/%E9.md')).toThrow(
      expect.objectContaining({ kind: 'protocol' }),
    );
  });
});
