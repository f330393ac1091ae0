// The cutoff `expire({ olderThan })` deletes before, checked before the expiry's transaction: a wrong value must
// delete nothing (../tool/expire-action.ts calls it before its write; the steps are ./expire.ts).

/**
 * The time `expire` deletes before: a Date not in the future, or `now` minus an age of 0 ms or more. Anything else
 * (a string, null, a future Date, a negative age) would put the cutoff at or past now and delete every file.
 */
export function expiryCutoff(options: unknown, now: number): number {
  const olderThan = (options as { olderThan?: unknown } | null | undefined)?.olderThan;
  if (typeof olderThan === 'number' && Number.isFinite(olderThan) && olderThan >= 0) return now - olderThan;
  const at = timeOf(olderThan);
  if (at !== undefined && Number.isFinite(at) && at <= now) return at;
  throw new TypeError(
    'expire: olderThan must be a Date in the past or a number of milliseconds, 0 or more; ' +
      `got ${shownOption(olderThan, at)}. Nothing was deleted.`,
  );
}

/** A Date's time, also one from another realm (getTime checks the brand), or undefined for anything else. */
function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    return Date.prototype.getTime.call(value);
  } catch {
    return undefined;
  }
}

/** A refused option value in a few words, never its whole text. */
function shownOption(value: unknown, time: number | undefined): string {
  if (time !== undefined) {
    return Number.isFinite(time) ? `${new Date(time).toISOString()}, a time in the future` : 'an invalid Date';
  }
  if (typeof value === 'string') {
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  }
  if (typeof value === 'number') return String(value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
