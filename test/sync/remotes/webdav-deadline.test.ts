// Each WebDAV request's deadline is disarmed once its answer is read: an armed one keeps the request's signals alive
// for the whole timeout, which on a big pull is a minute of requests. Pure code: runs in Node and every browser.

import { describe, expect, it } from 'vitest';
import { webdavRemote } from '../../../src/sync/remotes/webdav.js';

const ROOT = 'https://dav.example/files/me/';
const TIMEOUT_MS = 40;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A fetch answering `answer()`, keeping the signal each request was sent with. */
function signalsKept(answer: () => Response) {
  const signals: AbortSignal[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    if (init?.signal) signals.push(init.signal);
    return Promise.resolve(answer());
  };
  return { fetch, signals };
}

const listing = () =>
  new Response(
    '<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/files/me/a.md</D:href>' +
      '<D:propstat><D:prop><D:resourcetype/><D:getetag>"v1"</D:getetag></D:prop>' +
      '<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>',
    { status: 207 },
  );

describe("a WebDAV request's deadline", () => {
  it('is disarmed once a read or a listing is answered: its signal never fires afterwards', async () => {
    const read = signalsKept(() => new Response('hi', { status: 200, headers: { ETag: '"v1"' } }));
    expect(await webdavRemote({ url: ROOT, fetch: read.fetch, timeoutMs: TIMEOUT_MS }).read({ path: '/a.md', version: '"v1"' })).toMatchObject({ text: 'hi' });
    const listed = signalsKept(listing);
    expect(await webdavRemote({ url: ROOT, fetch: listed.fetch, timeoutMs: TIMEOUT_MS }).list()).toHaveLength(1);
    await sleep(TIMEOUT_MS * 3);
    const signals = [...read.signals, ...listed.signals];
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.map((signal) => signal.aborted)).toEqual(signals.map(() => false));
  });

  it('is disarmed once an answer it does not read is let go', async () => {
    const refused = signalsKept(() => new Response('', { status: 404 }));
    expect(await webdavRemote({ url: ROOT, fetch: refused.fetch, timeoutMs: TIMEOUT_MS }).list()).toEqual([]);
    await sleep(TIMEOUT_MS * 3);
    expect(refused.signals.length).toBeGreaterThan(0);
    expect(refused.signals.some((signal) => signal.aborted)).toBe(false);
  });
});
