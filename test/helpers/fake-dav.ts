// A scripted WebDAV server for the adapter's tests: a fake fetch that answers by a handler and records each request,
// and the answers such a server gives (multistatus entries, texts, bare statuses).

import { expect } from 'vitest';
import { SyncRemoteError } from '../../src/sync/remote.js';

export interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
}

export const ROOT = 'https://dav.example/files/me/';

/** A fetch that answers with `handler` and records each request; an aborted signal rejects as fetch does. */
export function fakeDav(handler: (request: Seen, index: number) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request: Seen = {
      method: init?.method ?? 'GET',
      url: String(input),
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
    };
    seen.push(request);
    init?.signal?.throwIfAborted();
    return handler(request, seen.length - 1);
  };
  const steps = () =>
    seen.map((request) => `${request.method} ${new URL(request.url).pathname.slice('/files/me'.length)}`);
  return { fetch, seen, steps };
}

export const entry = (href: string, props: string) =>
  `<D:response><D:href>${href}</D:href><D:propstat><D:prop>${props}</D:prop>` +
  '<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>';
export const file = (href: string, etag: string, size = 3) =>
  entry(href, `<D:resourcetype/><D:getetag>${etag}</D:getetag><D:getcontentlength>${size}</D:getcontentlength>`);
export const folder = (href: string) => entry(href, '<D:resourcetype><D:collection/></D:resourcetype>');
export const multistatus = (...responses: string[]) =>
  new Response(`<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">${responses.join('')}</D:multistatus>`, {
    status: 207,
  });
export const text = (body: string, headers: Record<string, string> = {}) => new Response(body, { status: 200, headers });
export const status = (code: number, headers: Record<string, string> = {}) =>
  new Response(code === 204 ? null : '', { status: code, headers });

export async function failure(promise: Promise<unknown> | undefined): Promise<SyncRemoteError> {
  const error: unknown = await (promise ?? Promise.resolve()).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SyncRemoteError);
  return error as SyncRemoteError;
}
