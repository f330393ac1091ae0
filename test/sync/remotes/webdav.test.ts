// The WebDAV adapter against a scripted fake fetch, for what a real server will not do on cue: the weak-ETag 412 and
// its one retry, aborts mid-wait, every status a server may answer, servers without ETags, options refused. Pure
// code: runs in Node and in every browser project (the Apache tests are in webdav.node.test.ts).

import { describe, expect, it } from 'vitest';
import { webdavRemote } from '../../../src/sync/remotes/webdav.js';
import { ROOT, entry, failure, fakeDav, file, folder, multistatus, status, text } from '../../helpers/fake-dav.js';


describe('the WebDAV adapter, on a scripted server', () => {
  it("retries an update once, after a wait, when the 412 was only its own tag still weak (Apache's first second)", async () => {
    const dav = fakeDav(
      (request, i) =>
        [
          () => status(200, { 'Lock-Token': '<opaquelocktoken:t1>' }),
          () => status(412),
          () => multistatus(file('/files/me/a.md', 'W/"v1"')),
          () => status(204),
          () => text('four', { ETag: 'W/"v2"' }),
          () => status(204),
        ][i]?.() ?? status(500),
    );
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    const written = await remote.write('/a.md', 'four', { path: '/a.md', version: '"v1"' });
    expect(written).toEqual({ path: '/a.md', version: '"v2"', size: 4 });
    expect(dav.steps()).toEqual(['LOCK /a.md', 'PUT /a.md', 'PROPFIND /a.md', 'PUT /a.md', 'GET /a.md', 'UNLOCK /a.md']);
    expect(dav.seen[3]?.headers.get('If-Match')).toBe('"v1"');
    expect(dav.seen[3]?.headers.get('If')).toBe('(<opaquelocktoken:t1>)');
  });

  it('reads back what it wrote: another text there, even of the same size, is another client’s write (precondition)', async () => {
    // Apache's If-Match is not atomic with the write: both clients can be told 2xx, and the later text stays.
    const dav = fakeDav((request) => (request.method === 'PUT' ? status(201) : text('mine', { ETag: '"theirs"' })));
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    expect((await failure(remote.write('/a.md', 'ours', null))).kind).toBe('precondition');
    expect(dav.steps()).toEqual(['PUT /a.md', 'GET /a.md']);
  });

  it('reads back a file deleted right after our write as precondition, not as gone', async () => {
    const dav = fakeDav((request) => (request.method === 'PUT' ? status(201) : status(404)));
    expect((await failure(webdavRemote({ url: ROOT, fetch: dav.fetch }).write('/a.md', 'ours', null))).kind).toBe(
      'precondition',
    );
  });

  it('where CORS hides the ETag, takes a version only from a PROPFIND before and one after the GET that agree', async () => {
    let tag = '"v1"';
    const dav = fakeDav((request) => {
      if (request.method === 'PROPFIND') return multistatus(file('/files/me/a.md', tag, 3));
      // From the second read on, another client writes while our GET is answered: the PROPFIND after it sees its tag.
      tag = dav.seen.length > 4 ? '"v2"' : tag;
      return text('abc');
    });
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    expect(await remote.read({ path: '/a.md', version: '"v1"' })).toEqual({
      file: { path: '/a.md', version: '"v1"', size: 3 },
      text: 'abc',
    });
    expect(dav.steps()).toEqual(['GET /a.md', 'PROPFIND /a.md', 'GET /a.md', 'PROPFIND /a.md']);
    // Known now to hide it: the next read starts with the PROPFIND; this time a write lands between.
    expect((await failure(remote.read({ path: '/a.md', version: '"v1"' }))).kind).toBe('precondition');
    expect(dav.steps().slice(4)).toEqual(['PROPFIND /a.md', 'GET /a.md', 'PROPFIND /a.md']);
  });

  it('says a MOVE whose source another client deleted is not found (Apache answers 500)', async () => {
    const dav = fakeDav((request) => {
      if (request.method === 'MOVE') return status(500);
      if (request.method === 'PROPFIND') return new Response('', { status: 404 });
      return status(500);
    });
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    expect((await failure(remote.move?.({ path: '/a.md', version: '"v1"' }, '/b.md'))).kind).toBe('not-found');
  });

  it('takes a strong ETag from the PUT answer without a PROPFIND', async () => {
    const dav = fakeDav(() => status(201, { ETag: '"s1"' }));
    const written = await webdavRemote({ url: ROOT, fetch: dav.fetch }).write('/a.md', 'ours', null);
    expect(written).toEqual({ path: '/a.md', version: '"s1"', size: 4 });
    expect(dav.steps()).toEqual(['PUT /a.md']);
  });

  it('answers precondition at once, with no wait, when the tag on the server has another value', async () => {
    const dav = fakeDav((request) =>
      request.method === 'PROPFIND' ? multistatus(file('/files/me/a.md', 'W/"v9"')) : status(412),
    );
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    expect((await failure(remote.write('/a.md', 'x', { path: '/a.md', version: '"v1"' }))).kind).toBe('precondition');
    expect((await failure(remote.delete({ path: '/a.md', version: '"v1"' }))).kind).toBe('precondition');
    // The update's lock is refused on the changed tag: nothing is put.
    expect(dav.steps()).toEqual(['LOCK /a.md', 'PROPFIND /a.md', 'DELETE /a.md', 'PROPFIND /a.md']);
  });

  it('stops waiting for a weak tag to turn strong when the call is aborted', async () => {
    const stop = new AbortController();
    const dav = fakeDav((request) => {
      if (request.method !== 'PROPFIND') return status(412);
      setTimeout(() => stop.abort(), 10);
      return multistatus(file('/files/me/a.md', 'W/"v1"'));
    });
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    const error = await failure(remote.delete({ path: '/a.md', version: '"v1"' }, { signal: stop.signal }));
    expect(error.kind).toBe('aborted');
    expect(dav.steps()).toEqual(['DELETE /a.md', 'PROPFIND /a.md']);
  });

  it('counts a delete as done when the file is gone, also when the 412 came from it going', async () => {
    const dav = fakeDav((request, i) =>
      i === 0 ? status(404) : request.method === 'DELETE' ? status(412) : status(404),
    );
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    await remote.delete({ path: '/a.md', version: '"v1"' });
    await remote.delete({ path: '/a.md', version: '"v1"' });
    expect(dav.steps()).toEqual(['DELETE /a.md', 'DELETE /a.md', 'PROPFIND /a.md']);
  });

  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [404, 'not-found'],
    [413, 'too-large'],
    [414, 'refused-path'],
    [423, 'locked'],
    [500, 'server'],
    [502, 'server'],
    [507, 'full'],
  ] as const)('words a %i answer as %s', async (code, kind) => {
    const remote = webdavRemote({ url: ROOT, fetch: fakeDav(() => status(code)).fetch });
    expect(await failure(remote.read({ path: '/a.md', version: '"1"' }))).toMatchObject({ kind, status: code });
  });

  it('passes on Retry-After, in seconds or as a date, for 429 and 503', async () => {
    const at = new Date(Date.now() + 60_000).toUTCString();
    const answers = [status(429, { 'Retry-After': '7' }), status(503, { 'Retry-After': at })];
    const remote = webdavRemote({ url: ROOT, fetch: fakeDav((_request, i) => answers[i] ?? status(500)).fetch });
    expect(await failure(remote.list())).toMatchObject({ kind: 'rate-limited', retryAfterMs: 7000 });
    const server = await failure(remote.list());
    expect(server.kind).toBe('server');
    expect(server.retryAfterMs).toBeGreaterThan(50_000);
    expect(server.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('words a fetch that throws as network, an abort as aborted, and a timeout as server', async () => {
    const offline = webdavRemote({ url: ROOT, fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    expect((await failure(offline.list())).kind).toBe('network');
    const remote = webdavRemote({ url: ROOT, fetch: fakeDav(() => status(200)).fetch });
    const stopped = new AbortController();
    stopped.abort();
    expect((await failure(remote.list({ signal: stopped.signal }))).kind).toBe('aborted');
    const timedOut = new AbortController();
    timedOut.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    expect((await failure(remote.read({ path: '/a.md', version: '' }, { signal: timedOut.signal }))).kind).toBe(
      'server',
    );
  });

  it('refuses a PROPFIND answered with a page instead of a multistatus as protocol', async () => {
    const remote = webdavRemote({ url: ROOT, fetch: fakeDav(() => new Response('<html>login</html>')).fetch });
    expect(await failure(remote.list())).toMatchObject({ kind: 'protocol', status: 200 });
    const garbled = webdavRemote({ url: ROOT, fetch: fakeDav(() => new Response('<D:multi', { status: 207 })).fetch });
    expect((await failure(garbled.list())).kind).toBe('protocol');
  });

  it('lists a server without ETags by date and size, and guards a write with If-Unmodified-Since', async () => {
    const date = 'Tue, 12 Mar 2024 10:00:01 GMT';
    const undated = entry(
      '/files/me/a.md',
      `<D:getlastmodified>${date}</D:getlastmodified><D:getcontentlength>3</D:getcontentlength>`,
    );
    const dav = fakeDav((request) => {
      if (request.method !== 'PROPFIND') return status(412);
      return request.headers.get('Depth') === '1' ? multistatus(folder('/files/me/'), undated) : multistatus(undated);
    });
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    const [listed] = await remote.list();
    expect(listed).toEqual({ path: '/a.md', version: `modified:3:${date}`, size: 3 });
    expect((await failure(remote.write('/a.md', 'new', listed ?? null))).kind).toBe('precondition');
    expect(dav.seen[1]?.headers.get('If-Unmodified-Since')).toBe(date);
    expect(dav.seen[1]?.headers.get('If-Match')).toBeNull();
  });

  it('reads the version with a PROPFIND when the GET answer shows no ETag (a page the server did not expose it to)', async () => {
    const dav = fakeDav((request) =>
      request.method === 'GET' ? new Response('\ufeffhé') : multistatus(file('/files/me/a.md', '"v3"', 6)),
    );
    const read = await webdavRemote({ url: ROOT, fetch: dav.fetch }).read({ path: '/a.md', version: '"v1"' });
    expect(read).toEqual({ file: { path: '/a.md', version: '"v3"', size: 6 }, text: '\ufeffhé' });
  });

  it('refuses a file that is not UTF-8 text as unreadable (the engine skips it)', async () => {
    const remote = webdavRemote({
      url: ROOT,
      fetch: fakeDav(() => new Response(new Uint8Array([0xff, 0xfe, 0x41]))).fetch,
    });
    expect((await failure(remote.read({ path: '/a.bin', version: '' }))).kind).toBe('unreadable');
  });

  it('walks at most `concurrency` folders at once, and a folder removed mid-walk holds nothing', async () => {
    let inFlight = 0;
    let most = 0;
    const dav = fakeDav(async (request) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((wake) => setTimeout(wake, 5));
      inFlight--;
      const path = new URL(request.url).pathname;
      if (path === '/files/me/')
        return multistatus(folder(path), ...['a', 'b', 'c', 'd', 'e'].map((f) => folder(`${path}${f}/`)));
      if (path === '/files/me/c/') return status(404);
      return multistatus(folder(path), file(`${path}x.md`, `"${path}"`));
    });
    const files = await webdavRemote({ url: ROOT, fetch: dav.fetch, concurrency: 2 }).list();
    expect(files.map((f) => f.path).sort()).toEqual(['/a/x.md', '/b/x.md', '/d/x.md', '/e/x.md']);
    expect(most).toBe(2);
    expect(dav.seen.every((request) => request.headers.get('Depth') === '1')).toBe(true);
  });

  it('addresses a name the server keeps in another Unicode form as the server spells it', async () => {
    const nfd = encodeURIComponent('Cafe\u0301.md');
    const dav = fakeDav((request) =>
      request.method === 'PROPFIND'
        ? multistatus(folder('/files/me/'), file(`/files/me/${nfd}`, '"n1"'))
        : new Response('abc', { headers: { ETag: '"n1"' } }),
    );
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    const [listed] = await remote.list();
    expect(listed?.path).toBe('/Caf\u00e9.md');
    await remote.read({ path: '/Caf\u00e9.md', version: '"n1"' });
    expect(dav.seen[1]?.url).toBe(`${ROOT}${nfd}`);
  });

  it('sends Basic credentials as UTF-8, or a bearer token, and names itself by its root URL', async () => {
    const basic = fakeDav(() => multistatus());
    const remote = webdavRemote({
      url: 'https://dav.example/files/me',
      username: 'zoë',
      password: 'pä:ss',
      fetch: basic.fetch,
    });
    await remote.list();
    expect(basic.seen[0]?.headers.get('Authorization')).toBe('Basic em/Dqzpww6Q6c3M=');
    expect(remote).toMatchObject({ id: `webdav:${ROOT}`, kind: 'webdav', concurrency: 4, limits: {} });
    const bearer = fakeDav(() => multistatus());
    await webdavRemote({ url: ROOT, token: 'abc.def', fetch: bearer.fetch }).list();
    expect(bearer.seen[0]?.headers.get('Authorization')).toBe('Bearer abc.def');
  });

  it('refuses a write over maxFileBytes before sending anything', async () => {
    const dav = fakeDav(() => status(201));
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch, maxFileBytes: 4 });
    expect(remote.limits).toEqual({ maxFileBytes: 4 });
    expect((await failure(remote.write('/a.md', 'ééé', null))).kind).toBe('too-large');
    expect(dav.seen).toEqual([]);
  });

  it.each([
    ['a token with a password', { token: 't', username: 'u', password: 'p' }],
    ['a username without a password', { username: 'u' }],
    ['a password without a username', { password: 'p' }],
    ['a colon in a Basic username', { username: 'a:b', password: 'p' }],
    ['an empty token', { token: '' }],
    ['concurrency 0', { concurrency: 0 }],
    ['a fractional concurrency', { concurrency: 1.5 }],
    ['a negative maxFileBytes', { maxFileBytes: -1 }],
  ])('refuses %s with a TypeError', (_what, options) => {
    expect(() => webdavRemote({ url: ROOT, ...options })).toThrow(TypeError);
  });

  it('takes a 403 to MKCOL as done when the folder is there after all (a concurrent MKCOL made it first, on Apache)', async () => {
    const dav = fakeDav((request) => {
      if (request.method === 'PUT' && !request.url.endsWith('/new/a.md')) return status(500);
      if (request.method === 'PUT') return dav.seen.filter((r) => r.method === 'PUT').length === 1 ? status(409) : status(201);
      if (request.method === 'MKCOL') return status(403);
      if (request.method === 'PROPFIND' && /\/new\/?$/u.test(request.url)) return multistatus(folder('/files/me/new/'));
      if (request.method === 'GET') return text('abc', { ETag: '"v1"' });
      return status(500);
    });
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    await expect(remote.write('/new/a.md', 'abc', null)).resolves.toMatchObject({ path: '/new/a.md', version: '"v1"' });
    expect(dav.steps()).toContain('MKCOL /new/');
  });
});

describe('credentials over plain http', () => {
  const basic = { username: 'alice', password: 'secret' };

  it('refuses Basic credentials or a token for an http:// url off loopback, saying how to proceed', () => {
    expect(() => webdavRemote({ url: 'http://nas.example/dav/', ...basic })).toThrow(/https.*allowInsecureHttp/);
    expect(() => webdavRemote({ url: 'http://192.168.1.20/dav/', token: 't' })).toThrow(TypeError);
  });

  it('sends them over https, to loopback, or when allowInsecureHttp says so', () => {
    for (const url of ['https://nas.example/dav/', 'http://127.0.0.1:8080/dav/', 'http://127.9.9.9/', 'http://localhost/', 'http://[::1]:81/']) {
      expect(() => webdavRemote({ url, ...basic })).not.toThrow();
    }
    expect(() => webdavRemote({ url: 'http://nas.example/dav/', ...basic, allowInsecureHttp: true })).not.toThrow();
    expect(() => webdavRemote({ url: 'http://nas.example/dav/' })).not.toThrow();
  });
});

describe('a 500 or 403 told by looking', () => {
  it('reads a file the server refuses alone (403, while PROPFIND sees it unchanged) as unreadable, not auth', async () => {
    const dav = fakeDav((request) =>
      request.method === 'GET' ? status(403) : multistatus(file('/files/me/locked.md', '"v1"')),
    );
    const remote = webdavRemote({ url: ROOT, fetch: dav.fetch });
    expect(await failure(remote.read({ path: '/locked.md', version: '"v1"' }))).toMatchObject({
      kind: 'unreadable',
      status: 403,
    });
    const refused = webdavRemote({ url: ROOT, fetch: fakeDav(() => status(403)).fetch });
    expect((await failure(refused.read({ path: '/a.md', version: '"v1"' }))).kind).toBe('auth');
  });

  it('calls a 500 on a write a path-conflict when a folder of that name is there now, and a gone file not-found', async () => {
    const put = fakeDav((request) => {
      if (request.method === 'PUT') return status(500);
      const path = new URL(request.url).pathname;
      return path === '/files/me/x/' || path === '/files/me/x' ? multistatus(folder('/files/me/x/')) : status(404);
    });
    expect(await failure(webdavRemote({ url: ROOT, fetch: put.fetch }).write('/x', 'a file', null))).toMatchObject({
      kind: 'path-conflict',
      conflictingPath: '/x',
    });
    const gone = fakeDav((request) => (request.method === 'GET' ? status(500) : status(404)));
    const remote = webdavRemote({ url: ROOT, fetch: gone.fetch });
    expect((await failure(remote.read({ path: '/a.md', version: '"v1"' }))).kind).toBe('not-found');
  });
});
