// A zip entry's times: the MS-DOS fields every zip has (local time, to two seconds, 1980 to 2107), the extended
// timestamp extra field Info-ZIP reads and writes (0x5455, UTC seconds), and the NTFS one (0x000a, 100 ns).

import { EARLIEST_TIME, LATEST_TIME } from './iso-time.js';
import { extraField, u16, u32 } from './zip-records.js';

export const EXTRA_TIMESTAMP = 0x5455;
const EXTRA_NTFS = 0x000a;

/** The times an entry states, in milliseconds; undefined where it states none that can be read. */
export interface ZipTimes {
  modified: number | undefined;
  created: number | undefined;
}

/**
 * The times of an entry, best first: the extended timestamp (central, then local header), the NTFS field, then the
 * MS-DOS date read in this machine's time zone, as unzip does. A date that does not exist counts as none.
 */
export function zipTimes(central: Uint8Array, local: Uint8Array, dos: number): ZipTimes {
  const ntfs = ntfsTimes(extraField(central, EXTRA_NTFS) ?? extraField(local, EXTRA_NTFS));
  const modified =
    unixTime(extraField(central, EXTRA_TIMESTAMP)) ?? unixTime(extraField(local, EXTRA_TIMESTAMP)) ?? ntfs.modified;
  return { modified: modified ?? dosTime(dos), created: ntfs.created };
}

/** The extended timestamp field holding `ms` as its modification time, or undefined outside its 32 bits. */
export function timestampField(ms: number): Uint8Array | undefined {
  const seconds = Math.floor(ms / 1000);
  if (!(seconds >= 0 && seconds <= 0xffffffff)) return undefined;
  const field = new Uint8Array(5);
  field[0] = 1; // flags: the modification time follows
  new DataView(field.buffer).setUint32(1, seconds, true);
  return field;
}

/** `ms` held within what the MS-DOS fields can say (fflate writes them from the Date's local time). */
export function dosDate(ms: number): Date {
  const first = new Date(1980, 0, 1).getTime();
  const last = new Date(2099, 11, 31, 23, 59, 58).getTime();
  return new Date(Number.isFinite(ms) ? Math.min(Math.max(ms, first), last) : first);
}

/** Read as unsigned: Info-ZIP writes times after 2038 so, and none before 1970. */
function unixTime(field: Uint8Array | undefined): number | undefined {
  if (field === undefined || field.length < 5 || (field[0] ?? 0) % 2 === 0) return undefined;
  return inRange(u32(field, 1) * 1000);
}

function ntfsTimes(field: Uint8Array | undefined): ZipTimes {
  const times: ZipTimes = { modified: undefined, created: undefined };
  // Four reserved bytes, then tags; tag 1 holds the modification, access and creation times.
  for (let at = 4; field !== undefined && at + 4 <= field.length; ) {
    const tag = u16(field, at);
    const size = u16(field, at + 2);
    if (tag === 1 && size >= 24 && at + 28 <= field.length) {
      times.modified = fileTime(field, at + 4);
      times.created = fileTime(field, at + 20);
    }
    at += 4 + size;
  }
  return times;
}

/** A Windows FILETIME (100 ns since 1601 UTC) in milliseconds; a double holds it to well under a millisecond. */
function fileTime(bytes: Uint8Array, at: number): number | undefined {
  const ticks = u32(bytes, at + 4) * 2 ** 32 + u32(bytes, at);
  if (ticks === 0) return undefined;
  return inRange(Math.floor(ticks / 10_000) - 11_644_473_600_000);
}

function dosTime(dos: number): number | undefined {
  const date = dos >>> 16;
  const [year, month, day] = [1980 + (date >>> 9), (date >>> 5) & 15, date & 31];
  const [hour, minute, second] = [(dos >>> 11) & 31, (dos >>> 5) & 63, (dos & 31) * 2];
  const time = new Date(year, month - 1, day, hour, minute, second);
  // A field that does not name a real date (the zeros some tools write) rolls over: then there is no time.
  const real =
    time.getFullYear() === year &&
    time.getMonth() === month - 1 &&
    time.getDate() === day &&
    time.getHours() === hour &&
    time.getMinutes() === minute &&
    time.getSeconds() === second;
  return real ? time.getTime() : undefined;
}

function inRange(ms: number): number | undefined {
  return ms >= EARLIEST_TIME && ms <= LATEST_TIME ? ms : undefined;
}
