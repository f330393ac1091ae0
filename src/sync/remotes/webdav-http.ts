// The WebDAV adapter's HTTP: one place that sends a request with the credentials, and one that words what went wrong
// (a status, a failed fetch, an abort, a deadline, a redirect) as a SyncRemoteError of the right kind.

import { SyncRemoteError, type RemoteErrorKind } from '../remote.js';
import { bytesUpTo, deadline, shown, shownError } from './remote-bounds.js';

export type DavMethod = 'GET' | 'PUT' | 'DELETE' | 'MOVE' | 'MKCOL' | 'PROPFIND' | 'LOCK' | 'UNLOCK';

export interface DavRequest {
  method: DavMethod;
  url: string;
  /** The remote path, for messages. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  signal: AbortSignal | undefined;
  /** Set by the sender at each send: fires at the request's deadline (reading the body included). */
  expired?: AbortSignal;
}

/** Each answer's deadline, cleared once its body is read or let go (`bodyBytes`, `discard`). */
const deadlines = new WeakMap<Response, () => void>();

/** Sends one request; rejects only with a SyncRemoteError (`network`, `aborted`, `server` for a timeout). */
export type DavSend = (request: DavRequest) => Promise<Response>;

/** `Basic` of UTF-8 `user:password` (RFC 7617; btoa alone takes only Latin-1). */
export function basicAuthorization(username: string, password: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(`${username}:${password}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** Why a fetch (or reading its body) threw: the caller's abort, a timeout, or no answer at all. */
export function transportError(
  error: unknown,
  request: Pick<DavRequest, 'method' | 'path' | 'signal' | 'expired'>,
): SyncRemoteError {
  const what = `WebDAV ${request.method} ${shown(request.path)}`;
  const reason: unknown = request.signal?.aborted ? request.signal.reason : error;
  const name = typeof reason === 'object' && reason !== null && 'name' in reason ? reason.name : undefined;
  // A caller's own AbortSignal.timeout() counts as a deadline too; our deadline only when the caller did not stop us.
  if (name === 'TimeoutError' || (request.expired?.aborted === true && !request.signal?.aborted)) {
    return new SyncRemoteError('server', `${what} timed out`, { cause: reason });
  }
  if (request.signal?.aborted || name === 'AbortError')
    return new SyncRemoteError('aborted', `${what} was stopped`, { cause: reason });
  // fetch's TypeError: offline, DNS, a refused connection, or (in a page) a CORS refusal it will not tell apart.
  return new SyncRemoteError('network', `${what}: no answer (${shownError(error)})`, { cause: error });
}

const redirected = (request: DavRequest, where: string) =>
  new SyncRemoteError(
    'protocol',
    `WebDAV ${request.method} ${shown(request.path)}: the server redirected it ${where}; not followed`,
  );

/**
 * Sends with the credentials and a deadline. Redirects: a read (GET, PROPFIND) follows them within the root's origin
 * only, checked on `response.url` (a page cannot see the hops); a change is never redirected, so a body (a memory's
 * text) goes nowhere but where it was addressed (`manual`: Node shows the 3xx, a page an opaque answer).
 */
export function davSender(
  fetchImpl: typeof fetch,
  authorization: string | undefined,
  origin: string,
  timeoutMs: number,
): DavSend {
  return async (request) => {
    const headers: Record<string, string> = { ...request.headers };
    if (authorization !== undefined) headers['Authorization'] = authorization;
    const read = request.method === 'GET' || request.method === 'PROPFIND';
    // Sent again after no answer at all, as a read is: a lock taken twice is refused (423), an unlock twice is a 400.
    const again = read || request.method === 'LOCK' || request.method === 'UNLOCK';
    const { signal, expired, clear } = deadline(request.signal, timeoutMs);
    request.expired = expired;
    // no-store: a page's HTTP cache must not answer a GET or PROPFIND with what the file held earlier.
    const send = () =>
      fetchImpl(request.url, {
        method: request.method,
        headers,
        body: request.body ?? null,
        signal,
        cache: 'no-store',
        redirect: read ? 'follow' : 'manual',
      });
    let response: Response;
    try {
      response = await send().catch((error: unknown) => {
        // A read that got no answer at all (in Node, e.g. one sent on a kept-alive connection the server just
        // closed) is sent once more, as browsers do by themselves; a change never is: it may have reached the server.
        if (!again || signal.aborted) throw error;
        return send();
      });
    } catch (error) {
      clear();
      throw transportError(error, request);
    }
    deadlines.set(response, clear);
    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status <= 399)) {
      await discard(response);
      throw redirected(request, `with ${response.status || 'a redirect'}`);
    }
    // An empty url is a fetch that does not say (a test's fake); where it says, it must be the root's origin.
    if (response.url !== '' && new URL(response.url).origin !== origin) {
      await discard(response);
      throw redirected(request, 'to another origin');
    }
    return response;
  };
}

/** The body's bytes up to `cap`, undefined past it (the rest is let go); a failed read worded by kind. */
export async function bodyBytes(response: Response, request: DavRequest, cap: number): Promise<Uint8Array | undefined> {
  try {
    return await bytesUpTo(response, cap);
  } catch (error) {
    throw transportError(error, request);
  } finally {
    deadlines.get(response)?.();
  }
}

/** The body as text (decoded as UTF-8, lenient: for XML), refused as `protocol` past `cap` bytes. */
export async function bodyText(response: Response, request: DavRequest, cap: number): Promise<string> {
  const bytes = await bodyBytes(response, request, cap);
  if (bytes === undefined) {
    throw new SyncRemoteError(
      'protocol',
      `WebDAV ${request.method} ${shown(request.path)}: the answer is over ${cap} bytes (maxListingBytes)`,
      { status: response.status },
    );
  }
  return new TextDecoder().decode(bytes);
}

/** Lets a connection go back to the pool without reading an answer we do not need. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
  deadlines.get(response)?.();
}

/** `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now. */
export function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function kindOf(status: number): RemoteErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404 || status === 410) return 'not-found';
  if (status === 409) return 'path-conflict';
  if (status === 412) return 'precondition';
  // Another client is changing it under a lock (./webdav-lock.ts), or left one that lapses: the next pass tries again.
  if (status === 423) return 'locked';
  if (status === 413) return 'too-large';
  if (status === 414) return 'refused-path';
  if (status === 429) return 'rate-limited';
  if (status === 507) return 'full';
  if (status === 408 || status >= 500) return 'server';
  return 'protocol';
}

/** The error for a status the operation does not handle itself; the body is let go. */
export async function statusError(response: Response, request: DavRequest, detail = ''): Promise<SyncRemoteError> {
  await discard(response);
  const kind = kindOf(response.status);
  const options: { status: number; retryAfterMs?: number } = { status: response.status };
  const wait =
    kind === 'rate-limited' || kind === 'server' ? retryAfterMs(response.headers.get('Retry-After')) : undefined;
  if (wait !== undefined) options.retryAfterMs = wait;
  const text = `${response.status}${response.statusText === '' ? '' : ` ${shown(response.statusText)}`}`;
  return new SyncRemoteError(kind, `WebDAV ${request.method} ${shown(request.path)}: ${text}${detail}`, options);
}
