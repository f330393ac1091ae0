// What keeps a hostile or broken remote from exhausting the page, shared by the adapters: remote strings cut before
// they reach a message, a deadline on every request, and an answer's body read as a stream up to a cap.

import { showText } from '../../core/shown-text.js';

/** The longest remote string (a path, an href, a status text, a server's message) a message carries. */
export const SHOWN_MAX = 200;

/** Each request's deadline unless an adapter's `timeoutMs` says otherwise: an answer, its body included. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * A remote string as a message shows it: hidden characters escaped and cut past {@link SHOWN_MAX}. Only the start is
 * looked at, so a 50 MB href costs no more than a short one.
 */
export function shown(text: string): string {
  if (text.length <= SHOWN_MAX) return showText(text, SHOWN_MAX);
  return `${showText(text.slice(0, SHOWN_MAX), SHOWN_MAX)}… (${text.length} characters)`;
}

/** `error`'s message, cut: a transport's message may quote what the server sent. */
export const shownError = (error: unknown): string => shown(error instanceof Error ? error.message : String(error));

/** Checks a timeout option: a positive whole number of milliseconds. */
export function timeoutOption(name: string, value: number | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(value) || value <= 0) throw new TypeError(`${name}: timeoutMs must be a positive integer`);
  return value;
}

/** A request's deadline: see {@link deadline}. */
export interface Deadline {
  /** Fires when the caller's signal does or at the deadline. */
  signal: AbortSignal;
  /** Fires at the deadline only, to tell it from the caller's stop. */
  expired: AbortSignal;
  /** Disarms it once the answer is read. */
  clear(): void;
}

/**
 * A signal that fires when `signal` does or when `ms` have passed, whichever is first. It stays armed while the body
 * is read, which is part of the answer's time, and is cleared once it is read: an armed timer keeps its signals (and
 * `AbortSignal.any`'s) alive for the whole `ms`, so `AbortSignal.timeout`, which cannot be cleared, held a minute of
 * requests' signals on a big pull (about 0.5 MB in Chromium, pulling 10,000 files).
 */
export function deadline(signal: AbortSignal | undefined, ms: number): Deadline {
  const timer = new AbortController();
  const id = setTimeout(() => timer.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  // As AbortSignal.timeout's does not, a deadline never keeps Node running (an answer left unread leaves it armed).
  (id as { unref?: () => void }).unref?.();
  const expired = timer.signal;
  return {
    signal: signal === undefined ? expired : AbortSignal.any([signal, expired]),
    expired,
    clear: () => clearTimeout(id),
  };
}

/** The body's bytes, or undefined when it holds more than `cap` (the read stops there and the rest is let go). */
export async function bytesUpTo(response: Response, cap: number): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get('Content-Length') ?? Number.NaN);
  if (declared > cap) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
