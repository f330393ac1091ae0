// A bundle's times: the ISO 8601 date-times an import accepts and an export writes. Only what round-trips: a real
// calendar date and a four-digit year once in UTC, so every time written reads back as the same instant.

/** `0001-01-01T00:00:00.000Z`, the earliest instant a bundle holds. */
export const EARLIEST_TIME = -62_135_596_800_000;
/** `9999-12-31T23:59:59.999Z`, the latest. */
export const LATEST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

// Extended format only, date and time in one (`toISOString()` and its relatives): seconds and their fraction
// optional, the zone required, as `Z` or `±hh:mm`.
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/u;

/**
 * Milliseconds of an ISO 8601 date-time that round-trips, else undefined: a month, day, hour, minute and second
 * that exist (`2026-02-30` is refused, not turned into 2 March), an offset below 24 hours, and a year from 1 to
 * 9999 once in UTC (`9999-12-31T23:59:59.999-12:00` is in year 10000 there). Digits past the millisecond are cut.
 */
export function parseIsoTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = ISO_TIME.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 4, 5, 6, 9, 10].map((at) =>
    Number(match[at] ?? 0),
  ) as [number, number, number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  // No 24:00 and no leap second: a Date holds neither, so neither could be written back as sent.
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number((match[7] ?? '').slice(0, 3).padEnd(3, '0')));
  const offset = (match[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const ms = date.getTime() - offset;
  return ms >= EARLIEST_TIME && ms <= LATEST_TIME ? ms : undefined;
}

/**
 * A stored time as an export writes it (`toISOString()`), held within the years 1 to 9999 so that it always imports
 * again; `otherwise` for a time that is no number at all.
 */
export function isoTime(ms: number, otherwise: Date): string {
  const time = Number.isFinite(ms) ? Math.min(Math.max(ms, EARLIEST_TIME), LATEST_TIME) : otherwise.getTime();
  return new Date(time).toISOString();
}

/** True for a Date an export can write as its `exportedAt`. */
export function isWritableDate(date: unknown): date is Date {
  if (!(date instanceof Date)) return false;
  const ms = date.getTime();
  return ms >= EARLIEST_TIME && ms <= LATEST_TIME;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
