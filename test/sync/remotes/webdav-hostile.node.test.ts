// The WebDAV adapter against a hostile or broken server on loopback (test/servers/scripted-http.ts): answers without
// end, answers that never come, redirects to another origin, hrefs that map to no path, a tree without bottom. Each
// must end in a bounded failure of a known kind (or an entry listed refused), never a hang or a leak.

import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { webdavRemote, type WebdavRemoteOptions } from '../../../src/sync/remotes/webdav.js';
import { failure } from '../../helpers/fake-dav.js';
import { startScriptedServer, writeEndlessly, type ScriptedServer, type Script } from '../../servers/scripted-http.js';

const MIB = 1024 * 1024;
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: Script): Promise<ScriptedServer> {
  const server = await startScriptedServer(script);
  servers.push(server);
  return server;
}

const remoteOn = (server: ScriptedServer, options: Partial<WebdavRemoteOptions> = {}) =>
  webdavRemote({ url: `${server.origin}/dav/`, username: 'alice', password: 'secret', ...options });

const entry = (href: string, props: string) =>
  `<D:response><D:href>${href}</D:href><D:propstat><D:prop>${props}</D:prop>` +
  '<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>';
const file = (href: string, etag = '"e1"') =>
  entry(href, `<D:resourcetype/><D:getetag>${etag}</D:getetag><D:getcontentlength>3</D:getcontentlength>`);
const folder = (href: string) => entry(href, '<D:resourcetype><D:collection/></D:resourcetype>');
const multistatus = (res: ServerResponse, ...responses: string[]) => {
  res.writeHead(207, { 'Content-Type': 'application/xml; charset=utf-8' });
  res.end(`<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">${responses.join('')}</D:multistatus>`);
};

describe('a WebDAV server that answers without end', () => {
  it('stops reading a file at maxFileBytes: unreadable, the rest of the stream let go', { timeout: 30_000 }, async () => {
    const server = await serve((_, res) => {
      res.writeHead(200, { ETag: '"big"' });
      void writeEndlessly(res, 'a'.repeat(64 * 1024), 32 * MIB);
    });
    const error = await failure(remoteOn(server, { maxFileBytes: 100_000 }).read({ path: '/big.md', version: '"big"' }));
    expect(error.kind).toBe('unreadable');
    expect(error.message).toContain('100000');
  });

  it('stops reading a listing at maxListingBytes: the listing fails as protocol', { timeout: 30_000 }, async () => {
    const server = await serve((_, res) => {
      res.writeHead(207, { 'Content-Type': 'application/xml' });
      res.write('<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">');
      void writeEndlessly(res, file('/dav/a.md'), 32 * MIB);
    });
    const error = await failure(remoteOn(server, { maxListingBytes: MIB }).list());
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('maxListingBytes');
  });

  it('fails a listing whose folders never end at maxFolders, and one too long at maxEntries', { timeout: 30_000 }, async () => {
    // Every folder holds one deeper folder: a tree without bottom.
    const deep = await serve((request, res) => {
      const path = new URL(request.url, 'http://x').pathname;
      multistatus(res, folder(path), folder(`${path}d/`));
    });
    const error = await failure(remoteOn(deep, { maxFolders: 50 }).list());
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('maxFolders');
    expect(deep.requests.length).toBeLessThanOrEqual(51);

    const wide = await serve((_, res) =>
      multistatus(res, folder('/dav/'), ...Array.from({ length: 300 }, (_, i) => file(`/dav/f${i}.md`))),
    );
    expect(await failure(remoteOn(wide, { maxEntries: 100 }).list())).toMatchObject({ kind: 'protocol' });
    expect((await remoteOn(wide, { maxEntries: 300 }).list()).length).toBe(300);
  });
});

describe('a WebDAV server that does not answer', () => {
  it('gives up on a request at timeoutMs, as server (retried), also when the body stalls', { timeout: 30_000 }, async () => {
    const silent = await serve(() => undefined);
    const error = await failure(remoteOn(silent, { timeoutMs: 100 }).list());
    expect(error.kind).toBe('server');
    expect(error.message).toContain('timed out');

    const stalling = await serve((_, res) => {
      res.writeHead(200, { ETag: '"s"', 'Content-Length': '1000' });
      res.write('half');
    });
    const stalled = await failure(remoteOn(stalling, { timeoutMs: 100 }).read({ path: '/a.md', version: '"s"' }));
    expect(stalled.kind).toBe('server');
  });

  it('refuses a timeout that is not a positive integer', async () => {
    const server = await serve(() => undefined);
    expect(() => remoteOn(server, { timeoutMs: 0 })).toThrow(TypeError);
    expect(() => remoteOn(server, { maxListingBytes: 1.5 })).toThrow(TypeError);
  });
});

describe('a WebDAV server that redirects', () => {
  it("never re-sends a write's text elsewhere: a 307 on PUT is refused, the other origin gets nothing", async () => {
    const elsewhere = await serve((_, res) => res.writeHead(201).end());
    const server = await serve((request, res) => {
      res.writeHead(307, { Location: `${elsewhere.origin}/steal${new URL(request.url, 'http://x').pathname}` }).end();
    });
    const error = await failure(remoteOn(server).write('/secret.md', 'the memory', null));
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('redirect');
    expect(elsewhere.requests).toEqual([]);
  });

  it('follows a read redirected within the origin, and refuses one to another origin', async () => {
    const elsewhere = await serve((_, res) => res.writeHead(200, { ETag: '"x"' }).end('from elsewhere'));
    const server = await serve((request, res) => {
      const path = new URL(request.url, 'http://x').pathname;
      if (path === '/dav/here.md') res.writeHead(302, { Location: '/dav/moved.md' }).end();
      else if (path === '/dav/moved.md') res.writeHead(200, { ETag: '"m"' }).end('moved');
      else res.writeHead(302, { Location: `${elsewhere.origin}/x.md` }).end();
    });
    const remote = remoteOn(server);
    expect((await remote.read({ path: '/here.md', version: '"m"' })).text).toBe('moved');
    const error = await failure(remote.read({ path: '/away.md', version: '"x"' }));
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('another origin');
  });
});

describe('a WebDAV listing with entries the memory cannot take', () => {
  it('lists a bad href or an entry without a version as refused, cut, and the rest as usual', async () => {
    const huge = `/dav/${'%ff'.repeat(2 * MIB)}`;
    const server = await serve((_, res) =>
      multistatus(
        res,
        folder('/dav/'),
        file('/dav/good.md'),
        file(huge),
        file('/elsewhere/outside.md'),
        entry('/dav/undated.md', '<D:resourcetype/>'),
      ),
    );
    const files = await remoteOn(server).list();
    expect(files.find((listed) => listed.path === '/good.md')).toEqual({ path: '/good.md', version: '"e1"', size: 3 });
    const refused = files.filter((listed) => listed.refused !== undefined);
    expect(refused).toHaveLength(3);
    for (const listed of refused) {
      expect(listed.path.length).toBeLessThan(400);
      expect(listed.refused?.length).toBeLessThan(800);
    }
    expect(refused.find((listed) => listed.path === '/undated.md')?.refused).toContain('getetag');
  });

  it("cuts a remote string in every message: a status text, a server's path", async () => {
    const server = await serve((_, res) => {
      res.statusMessage = 'x'.repeat(100_000);
      res.writeHead(418).end();
    });
    const error = await failure(remoteOn(server).read({ path: `/${'n'.repeat(100_000)}.md`, version: '"v"' }));
    expect(error.message.length).toBeLessThan(1000);
  });
});
