// What a failed pass becomes in the status: its kind, and when the engine tries again by itself — exponential
// backoff with jitter for what may pass (the network, the server, too many requests, storage), never for the rest.

import { isMemoryToolError } from '../core/errors.js';
import { isSyncRemoteError, RETRYABLE_KINDS } from './remote.js';
import type { SyncError } from './sync-status.js';

const BACKOFF = { first: 1_000, max: 5 * 60_000 };

/**
 * The status error for `error` after `failures` failures in a row (this one included); `retrying` false (stopped,
 * no background passes) never plans a retry.
 */
export function failureOf(error: unknown, failures: number, retrying: boolean): { error: SyncError; retryable: boolean } {
  const at = new Date();
  const message = error instanceof Error ? error.message : String(error);
  const kind = isSyncRemoteError(error)
    ? error.kind
    : isMemoryToolError(error)
      ? 'storage'
      : (error as { name?: string } | null)?.name === 'AbortError'
        ? 'aborted'
        : 'unknown';
  const retryable = kind === 'storage' || (isSyncRemoteError(error) && RETRYABLE_KINDS.has(error.kind));
  if (!retryable || !retrying) return { error: { kind, message, at, retryAt: null }, retryable };
  const backoff = Math.min(BACKOFF.max, BACKOFF.first * 2 ** Math.max(0, failures - 1));
  const asked = isSyncRemoteError(error) ? (error.retryAfterMs ?? 0) : 0;
  // Jitter, so tabs and devices that failed together do not come back together.
  const delay = Math.max(asked, backoff * (0.75 + Math.random() * 0.5));
  return { error: { kind, message, at, retryAt: new Date(at.getTime() + delay) }, retryable };
}
