// How a transaction failed: a command's own refusal, the browser giving up the connection, or an IndexedDB error
// turned into a `storage` MemoryToolError (./README.md, "Transactions").

import { MemoryToolError, isMemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';

export function abortQuietly(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // Already finished or aborted by the browser: nothing left to undo.
  }
}

/** How {@link MemoryStore.run}'s tries fail: the error the caller gets, whether or not a rerun follows. */
export class Failed {
  constructor(
    readonly cause: MemoryToolError,
    /** Thrown by the command itself: it stands, whatever happened to the connection. */
    readonly refusal: boolean,
  ) {}
}

/**
 * Whether `tx` was aborted by the browser giving up its connection rather than by the command or a failed request.
 * Firefox and WebKit mark the connection closing before they abort its transactions (it then refuses new ones);
 * Chromium may abort first and close after, so the abort's own error says it: `UnknownError` (Chromium, WebKit:
 * Safari's lost connection) or `AbortError` (Firefox, Chromium). A command's own abort leaves no error, and a failed
 * request leaves its own name (`ConstraintError`, `QuotaExceededError`).
 */
export function connectionLost(tx: IDBTransaction, error: unknown): boolean {
  if (abortedByBrowser(tx.error)) return true;
  // Only an IndexedDB failure can mean it: a command's own error (a stale-totals rerun) costs no probe.
  if (!abortedByBrowser(error) && !isClosedConnection(error)) return false;
  try {
    tx.db.transaction(tx.db.objectStoreNames[0] ?? 'entries', 'readonly').abort();
    return false;
  } catch (probe) {
    return isClosedConnection(probe);
  }
}

export function abortedByBrowser(error: unknown): boolean {
  const name = (error as { name?: unknown } | null | undefined)?.name;
  return name === 'UnknownError' || name === 'AbortError';
}

export function isClosedConnection(error: unknown): boolean {
  const name = (error as { name?: unknown } | null | undefined)?.name;
  return name === 'InvalidStateError' || name === 'TransactionInactiveError';
}

/** A MemoryToolError as is; anything IndexedDB threw as a `storage` error naming what happened. */
export function toMemoryError(error: unknown): MemoryToolError {
  if (isMemoryToolError(error)) return error;
  const name = error instanceof Error || isDomException(error) ? error.name : '';
  if (name === 'QuotaExceededError') {
    return new MemoryToolError('storage', reply.quota(), { cause: error });
  }
  const detail = error instanceof Error || isDomException(error) ? `${error.name}: ${error.message}` : String(error);
  return new MemoryToolError('storage', reply.storage(detail), { cause: error });
}

function isDomException(error: unknown): error is { name: string; message: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { name?: unknown }).name === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}
