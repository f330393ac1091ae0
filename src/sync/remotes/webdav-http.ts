// The WebDAV adapter's HTTP: one place that sends a request with the credentials, and one that words what went wrong
// (a status, a failed fetch, an abort) as a SyncRemoteError of the right kind.

import { SyncRemoteError, type RemoteErrorKind } from '../remote.js';

export type DavMethod = 'GET' | 'PUT' | 'DELETE' | 'MOVE' | 'MKCOL' | 'PROPFIND';

export interface DavRequest {
  method: DavMethod;
  url: string;
  /** The remote path, for messages. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  signal: AbortSignal | undefined;
}

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
  request: Pick<DavRequest, 'method' | 'path' | 'signal'>,
): SyncRemoteError {
  const what = `WebDAV ${request.method} ${request.path}`;
  const reason: unknown = request.signal?.aborted ? request.signal.reason : error;
  const name = typeof reason === 'object' && reason !== null && 'name' in reason ? reason.name : undefined;
  if (name === 'TimeoutError') return new SyncRemoteError('server', `${what} timed out`, { cause: reason });
  if (request.signal?.aborted || name === 'AbortError')
    return new SyncRemoteError('aborted', `${what} was stopped`, { cause: reason });
  // fetch's TypeError: offline, DNS, a refused connection, or (in a page) a CORS refusal it will not tell apart.
  return new SyncRemoteError(
    'network',
    `${what}: no answer (${error instanceof Error ? error.message : String(error)})`,
    {
      cause: error,
    },
  );
}

export function davSender(fetchImpl: typeof fetch, authorization: string | undefined): DavSend {
  return async (request) => {
    const headers: Record<string, string> = { ...request.headers };
    if (authorization !== undefined) headers['Authorization'] = authorization;
    try {
      // no-store: a page's HTTP cache must not answer a GET or PROPFIND with what the file held earlier.
      return await fetchImpl(request.url, {
        method: request.method,
        headers,
        body: request.body ?? null,
        signal: request.signal ?? null,
        cache: 'no-store',
      });
    } catch (error) {
      throw transportError(error, request);
    }
  };
}

/** The body as text (decoded as UTF-8, lenient: for XML and messages). */
export async function bodyText(response: Response, request: DavRequest): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw transportError(error, request);
  }
}

/** Lets a connection go back to the pool without reading an answer we do not need. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
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
  const text = `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  return new SyncRemoteError(kind, `WebDAV ${request.method} ${request.path}: ${text}${detail}`, options);
}
