// A zip's structure, read from a Blob a window at a time: the end record (ZIP64 too), the central directory, which
// is what every unzip goes by, and each entry's local header, which must agree with it. Nothing is inflated here.

import { refused } from './refusal.js';
import { bundleReply } from './replies.js';

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const END64 = 0x06064b50;
const END64_LOCATOR = 0x07064b50;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
/** What one read takes from the Blob, so that the headers of small entries come in one read, and no more. */
const WINDOW = 1024 * 1024;
/**
 * The most central directory bytes an entry may take on average: 46 fixed, a name of at most 1,280 (a memory path and
 * a top folder), its Unicode Path field again as much, and room for the usual extra fields (times, ZIP64, modes).
 */
const MAX_RECORD_BYTES = 4096;

/** True when `bytes` start as a zip does: a local header, or the end record of an empty archive. */
export function isZipSignature(bytes: Uint8Array): boolean {
  const signature = u32(bytes, 0);
  return bytes.length >= 4 && (signature === LOCAL || signature === END);
}

/** One entry of the central directory, with where its data lies once its local header is read. */
export interface ZipRecord {
  /** 1-based, in central directory order: how refusals name it. */
  number: number;
  name: Uint8Array;
  flags: number;
  method: number;
  /** The MS-DOS date (high 16 bits) and time (low 16 bits). */
  dos: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** The host system (0 MS-DOS, 3 Unix, 19 macOS…), from "version made by". */
  host: number;
  externalAttributes: number;
  centralExtra: Uint8Array;
  localOffset: number;
  /** Set by {@link readLocalHeaders}: where the compressed data starts, and the local header's extra field. */
  dataStart: number;
  localExtra: Uint8Array;
}

/** Reads a Blob by offsets, keeping one window of it: the headers and data of a zip are read in order. */
export class BlobWindow {
  readonly #blob: Blob;
  #start = 0;
  #bytes = new Uint8Array(0);

  constructor(blob: Blob) {
    this.#blob = blob;
  }

  get size(): number {
    return this.#blob.size;
  }

  /** `length` bytes at `start`, or undefined past the end of the Blob. */
  async read(start: number, length: number): Promise<Uint8Array | undefined> {
    const end = start + length;
    if (start < 0 || end > this.#blob.size) return undefined;
    if (start < this.#start || end > this.#start + this.#bytes.length) {
      const to = Math.min(this.#blob.size, Math.max(end, start + WINDOW));
      this.#bytes = new Uint8Array(await this.#blob.slice(start, to).arrayBuffer());
      this.#start = start;
    }
    return this.#bytes.subarray(start - this.#start, end - this.#start);
  }
}

/**
 * The central directory's entries, in its order, each checked for sizes and offsets that fit the archive. A zip whose
 * end record declares more than `maxEntries` entries, or a directory larger than they can need, is refused before a
 * byte of the directory is read.
 */
export async function readCentralDirectory(
  reader: BlobWindow,
  maxEntries: number,
): Promise<{ records: ZipRecord[]; end: number }> {
  const directory = await findDirectory(reader, maxEntries);
  const bytes = await reader.read(directory.offset, directory.size);
  if (bytes === undefined) throw damaged(bundleReply.zipDirectoryOutside());
  const records: ZipRecord[] = [];
  let at = 0;
  for (let number = 1; number <= directory.entries; number++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== CENTRAL) throw damaged(bundleReply.zipBadDirectory(number));
    const nameEnd = at + 46 + u16(bytes, at + 28);
    const extraEnd = nameEnd + u16(bytes, at + 30);
    const next = extraEnd + u16(bytes, at + 32);
    if (next > bytes.length) throw damaged(bundleReply.zipBadDirectory(number));
    const record: ZipRecord = {
      number,
      name: bytes.subarray(at + 46, nameEnd),
      flags: u16(bytes, at + 8),
      method: u16(bytes, at + 10),
      dos: u32(bytes, at + 12),
      crc: u32(bytes, at + 16),
      compressedSize: u32(bytes, at + 20),
      size: u32(bytes, at + 24),
      host: (bytes[at + 5] ?? 0) & 0xff,
      externalAttributes: u32(bytes, at + 38),
      centralExtra: bytes.subarray(nameEnd, extraEnd),
      localOffset: u32(bytes, at + 42),
      dataStart: 0,
      localExtra: new Uint8Array(0),
    };
    readZip64Fields(record, u16(bytes, at + 34));
    records.push(record);
    at = next;
  }
  return { records, end: directory.offset };
}

/**
 * Reads every local header (in archive order): it must sit where the directory says, with the same name, method and
 * encryption and, unless its sizes follow the data, the same sizes and CRC; and no entry's data may run into the
 * next entry or the directory, which is how a zip bomb makes one compressed stream count many times.
 */
export async function readLocalHeaders(
  reader: BlobWindow,
  records: readonly ZipRecord[],
  directoryStart: number,
  whereOf: (record: ZipRecord) => string,
): Promise<void> {
  const inOrder = [...records].sort((a, b) => a.localOffset - b.localOffset);
  for (const [i, record] of inOrder.entries()) {
    const fail = (why: string): Error => refused(whereOf(record), bundleReply.zipDamaged(why));
    const head = await reader.read(record.localOffset, 30);
    if (head === undefined || u32(head, 0) !== LOCAL) throw fail(bundleReply.zipNoLocalHeader());
    const [flags, method] = [u16(head, 6), u16(head, 8)];
    const [crc, compressedSize, size] = [u32(head, 14), u32(head, 18), u32(head, 22)];
    const nameLength = u16(head, 26);
    const extraLength = u16(head, 28);
    const rest = await reader.read(record.localOffset + 30, nameLength + extraLength);
    if (rest === undefined) throw fail(bundleReply.zipNoLocalHeader());
    const sameName = nameLength === record.name.length && record.name.every((byte, j) => rest[j] === byte);
    const sizesAfter = (flags & 8) !== 0 || compressedSize === MAX32 || size === MAX32;
    const sameSizes =
      sizesAfter || (crc === record.crc && compressedSize === record.compressedSize && size === record.size);
    if (!sameName || method !== record.method || (flags & 1) !== (record.flags & 1) || !sameSizes) {
      throw fail(bundleReply.zipLocalMismatch());
    }
    record.localExtra = rest.subarray(nameLength).slice();
    record.dataStart = record.localOffset + 30 + nameLength + extraLength;
    const limit = inOrder[i + 1]?.localOffset ?? directoryStart;
    if (record.dataStart + record.compressedSize > limit) {
      const other = inOrder[i + 1];
      throw fail(other === undefined ? bundleReply.zipDataOutside() : bundleReply.zipOverlap(whereOf(other)));
    }
  }
}

/** The end record (and its ZIP64 form where a field is full): where the directory lies and how many entries. */
async function findDirectory(
  reader: BlobWindow,
  maxEntries: number,
): Promise<{ offset: number; size: number; entries: number }> {
  const tailLength = Math.min(reader.size, 22 + MAX16);
  const tail = (await reader.read(reader.size - tailLength, tailLength)) ?? new Uint8Array(0);
  // The last end record whose comment reaches exactly to the end of the file.
  let at = tail.length - 22;
  while (at >= 0 && !(u32(tail, at) === END && at + 22 + u16(tail, at + 20) === tail.length)) at--;
  if (at < 0) throw refused('', bundleReply.zipNoEnd());
  const endOffset = reader.size - tailLength + at;
  const [disk, directoryDisk] = [u16(tail, at + 4), u16(tail, at + 6)];
  const [onDisk, entries] = [u16(tail, at + 8), u16(tail, at + 10)];
  const [size, offset] = [u32(tail, at + 12), u32(tail, at + 16)];
  if (entries !== MAX16 && size !== MAX32 && offset !== MAX32) {
    if (disk !== 0 || directoryDisk !== 0 || onDisk !== entries) throw refused('', bundleReply.zipSpanned());
    return checkedDirectory(offset, size, entries, endOffset, maxEntries);
  }
  const locator = await reader.read(endOffset - 20, 20);
  if (locator === undefined || u32(locator, 0) !== END64_LOCATOR) throw damaged(bundleReply.zipNoZip64End());
  const end64Offset = u64(locator, 8);
  const end64 = await reader.read(end64Offset, 56);
  if (end64 === undefined || u32(end64, 0) !== END64) throw damaged(bundleReply.zipNoZip64End());
  if (u32(locator, 4) !== 0 || u32(end64, 16) !== 0 || u32(end64, 20) !== 0 || u64(end64, 24) !== u64(end64, 32)) {
    throw refused('', bundleReply.zipSpanned());
  }
  return checkedDirectory(u64(end64, 48), u64(end64, 40), u64(end64, 32), end64Offset, maxEntries);
}

function checkedDirectory(
  offset: number,
  size: number,
  entries: number,
  before: number,
  maxEntries: number,
): { offset: number; size: number; entries: number } {
  // From the end record alone, before the directory is read: what is read and made per entry stays bounded.
  if (entries > maxEntries) throw refused('', bundleReply.zipTooManyEntries(entries, maxEntries), 'too_large');
  if (size > entries * MAX_RECORD_BYTES) throw damaged(bundleReply.zipDirectoryTooLarge(size, entries, MAX_RECORD_BYTES));
  // Each entry takes at least 46 bytes: a count the directory cannot hold is refused before anything is made of it.
  if (offset + size > before || entries * 46 > size) throw damaged(bundleReply.zipDirectoryOutside());
  return { offset, size, entries };
}

/** Sizes and the offset that do not fit 32 bits are in the ZIP64 extra field, in this order, each only if full. */
function readZip64Fields(record: ZipRecord, disk: number): void {
  const full = [record.size === MAX32, record.compressedSize === MAX32, record.localOffset === MAX32, disk === MAX16];
  if (!full.includes(true)) {
    if (disk !== 0) throw refused('', bundleReply.zipSpanned());
    return;
  }
  const field = extraField(record.centralExtra, 0x0001);
  let at = 0;
  const next = (bytes: 4 | 8): number => {
    if (field === undefined || at + bytes > field.length) {
      throw refused(bundleReply.zipEntry(record.number), bundleReply.zipDamaged(bundleReply.zipNoZip64Field()));
    }
    at += bytes;
    return bytes === 8 ? u64(field, at - 8) : u32(field, at - 4);
  };
  if (full[0]) record.size = next(8);
  if (full[1]) record.compressedSize = next(8);
  if (full[2]) record.localOffset = next(8);
  if (full[3] && next(4) !== 0) throw refused('', bundleReply.zipSpanned());
}

/** The data of the first extra field `id` of a header's extra block. */
export function extraField(extra: Uint8Array, id: number): Uint8Array | undefined {
  for (let at = 0; at + 4 <= extra.length; ) {
    const end = at + 4 + u16(extra, at + 2);
    if (end > extra.length) return undefined;
    if (u16(extra, at) === id) return extra.subarray(at + 4, end);
    at = end;
  }
  return undefined;
}

function damaged(why: string): Error {
  return refused('', bundleReply.zipDamaged(why));
}

export function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

export function u32(bytes: Uint8Array, at: number): number {
  return (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;
}

/** A 64-bit field; past 2^53 it could not be a real size or offset, and is refused rather than rounded. */
function u64(bytes: Uint8Array, at: number): number {
  const high = u32(bytes, at + 4);
  if (high >= 2 ** 21) throw damaged(bundleReply.zipHugeField());
  return high * 2 ** 32 + u32(bytes, at);
}
