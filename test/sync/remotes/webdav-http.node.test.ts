// The WebDAV sender: a read that got no answer at all is sent once more; a change never is.

import { describe, expect, it } from 'vitest';
import { davSender } from '../../../src/sync/remotes/webdav-http.js';
import type { DavMethod } from '../../../src/sync/remotes/webdav-http.js';
import { isSyncRemoteError } from '../../../src/sync/remote.js';

const ORIGIN = 'http://dav.test';

/** A fetch that fails with `fetch failed` (as Node's does on a closed connection) `failures` times, then answers. */
function flakyFetch(failures: number): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  const fake = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${String(url)}`);
    if (calls.length <= failures) throw new TypeError('fetch failed');
    return new Response('ok', { status: 200 });
  }) as typeof fetch;
  return { fetch: fake, calls };
}

const request = (method: DavMethod, signal?: AbortSignal) => ({
  method,
  url: `${ORIGIN}/a.md`,
  path: '/a.md',
  signal,
  ...(method === 'PUT' ? { body: 'text' } : {}),
});

describe('davSender', () => {
  it.each(['GET', 'PROPFIND'] as const)('sends a %s once more when it got no answer', async (method) => {
    const flaky = flakyFetch(1);
    const send = davSender(flaky.fetch, undefined, ORIGIN, 5000);
    const response = await send(request(method));
    expect(await response.text()).toBe('ok');
    expect(flaky.calls).toEqual([`${method} ${ORIGIN}/a.md`, `${method} ${ORIGIN}/a.md`]);
  });

  it('sends a read at most twice: a second failure is a network error', async () => {
    const flaky = flakyFetch(5);
    const send = davSender(flaky.fetch, undefined, ORIGIN, 5000);
    const error: unknown = await send(request('GET')).catch((e: unknown) => e);
    expect(isSyncRemoteError(error) && error.kind).toBe('network');
    expect(flaky.calls).toHaveLength(2);
  });

  const changes = ['PUT', 'DELETE', 'MOVE', 'MKCOL'] as const;
  it.each(changes)('never sends a %s again: it may have reached the server', async (method) => {
    const flaky = flakyFetch(1);
    const send = davSender(flaky.fetch, undefined, ORIGIN, 5000);
    const error: unknown = await send(request(method)).catch((e: unknown) => e);
    expect(isSyncRemoteError(error) && error.kind).toBe('network');
    expect(flaky.calls).toHaveLength(1);
  });

  it('does not send again a read its caller stopped', async () => {
    const stop = new AbortController();
    const calls: string[] = [];
    const fake = (async () => {
      calls.push('GET');
      stop.abort();
      throw new DOMException('stopped', 'AbortError');
    }) as typeof fetch;
    const send = davSender(fake, undefined, ORIGIN, 5000);
    const error: unknown = await send(request('GET', stop.signal)).catch((e: unknown) => e);
    expect(isSyncRemoteError(error) && error.kind).toBe('aborted');
    expect(calls).toHaveLength(1);
  });
});
