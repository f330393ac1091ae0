// The Memory Stores remote's failures: an SDK error (read by its fields, the SDK never imported) as a SyncRemoteError
// of the kind the engine acts on, worded with the path the call was about.

import { SyncRemoteError, isSyncRemoteError, type RemoteErrorKind } from '../remote.js';
import { shown } from './remote-bounds.js';

/** The fields of an SDK error this adapter reads, checked at run time: the SDK is never imported here. */
interface SdkError {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  headers?: { get?: (name: string) => string | null };
  error?: { error?: { type?: unknown; message?: unknown; conflicting_path?: unknown } };
}

const sdkError = (error: unknown): SdkError => (typeof error === 'object' && error !== null ? error : {});

/** Rethrows all but a 404, which it answers as undefined (the memory is not there). */
export function unless404(error: unknown): undefined {
  if (sdkError(error).status === 404) return undefined;
  throw error;
}

/** Milliseconds to wait, from `retry-after-ms` or `retry-after` (seconds or a date), when the answer gives them. */
function retryAfterOf(headers: SdkError['headers']): number | undefined {
  const ms = Number(headers?.get?.('retry-after-ms') ?? Number.NaN);
  if (ms >= 0) return ms;
  const after = headers?.get?.('retry-after');
  if (typeof after !== 'string' || after === '') return undefined;
  const seconds = Number(after);
  const wait = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  return Number.isNaN(wait) ? undefined : Math.max(0, wait);
}

/** What a call was doing, for the wording of its failure and the kinds that depend on the call. */
export interface Attempt {
  /** The remote path the call was about. */
  path: string;
  /** The store path a create or rename asked for: a conflict on that very path means it is taken. */
  target?: string;
  /** The kind of a 404. */
  gone: RemoteErrorKind;
  signal: AbortSignal | undefined;
}

/** An SDK error as a SyncRemoteError of the kind the engine acts on; `belowRoot` maps a store path to the remote's. */
export function failure(error: unknown, attempt: Attempt, belowRoot: (path: string) => string | undefined): SyncRemoteError {
  if (isSyncRemoteError(error)) return error;
  const sdk = sdkError(error);
  const say = (
    kind: RemoteErrorKind,
    what: string,
    extra: { status?: number; retryAfterMs?: number; conflictingPath?: string } = {},
  ) =>
    new SyncRemoteError(kind, `Memory Stores, ${shown(attempt.path)}: ${what} (${shown(String(sdk.message ?? error))})`, {
      ...extra,
      cause: error,
    });
  if (attempt.signal?.aborted || sdk.name === 'APIUserAbortError' || sdk.name === 'AbortError') {
    return say('aborted', 'stopped');
  }
  if (typeof sdk.status !== 'number') {
    if (sdk.name === 'APIConnectionTimeoutError') return say('server', 'no answer in time');
    return say(sdk.name === 'APIConnectionError' ? 'network' : 'protocol', 'no answer');
  }
  const status = sdk.status;
  const body = sdk.error?.error;
  const message = typeof body?.message === 'string' ? body.message : '';
  const retryAfterMs = retryAfterOf(sdk.headers);
  const retry = retryAfterMs === undefined ? { status } : { status, retryAfterMs };
  if (status === 401 || status === 403) return say('auth', 'the key was refused', { status });
  if (status === 404) return say(attempt.gone, 'not there', { status });
  if (status === 429) return say('rate-limited', 'too many requests', retry);
  if (status === 408 || status >= 500) return say('server', 'the service failed', retry);
  if (status === 409 && body?.type === 'memory_path_conflict_error') {
    const conflicting = typeof body.conflicting_path === 'string' ? body.conflicting_path : undefined;
    const below = conflicting === undefined ? undefined : belowRoot(conflicting);
    const at = below === undefined ? { status } : { status, conflictingPath: below };
    // The very path asked for holds another memory: a file appeared there since it was seen free.
    if (conflicting === attempt.target) return say('precondition', 'the path is taken', at);
    return say('path-conflict', `the path overlaps ${conflicting === undefined ? 'another memory' : shown(conflicting)}`, at);
  }
  if (status === 409) return say('precondition', 'it changed since it was seen', { status });
  if (status === 413) return say('too-large', 'the content is too large', { status });
  if (status === 400 || status === 422) {
    // The count limit has no error type of its own: only its wording tells it from the other refusals.
    const full = /memories/i.test(message) && /maximum|limit|at most|too many|full/i.test(message);
    if (full) return say('full', 'the store is full', { status });
    if (/\bpath\b/i.test(message)) return say('refused-path', 'the path is refused', { status });
    if (/content|bytes|size|large/i.test(message)) return say('too-large', 'the content is too large', { status });
  }
  return say('protocol', 'an answer this adapter does not understand', { status });
}

