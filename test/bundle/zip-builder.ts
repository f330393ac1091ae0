// Zips built byte by byte for the tests, independent of the library's writer, so that any field can be set to what a
// hostile or odd zip holds: names as raw bytes, flags, methods, declared sizes, CRCs, Unix modes, extra fields, local
// headers that disagree with the directory, overlapping data, ZIP64. Also the zip bomb (built once, lazily).

import { Deflate, deflateSync } from 'fflate';

export interface RawEntry {
  /** A string is written as UTF-8 (with the UTF-8 flag when it is not ASCII, unless `flags` is given). */
  name: string | Uint8Array;
  /** The content: deflated unless `method` says otherwise. Default empty. */
  content?: string | Uint8Array;
  /** The bytes stored as they are, in place of `content` compressed (its method and sizes as given). */
  stored?: Uint8Array;
  method?: number;
  flags?: number;
  /** The declared uncompressed size; default the content's. */
  size?: number;
  crc?: number;
  /** Unix mode (e.g. 0o120777 for a symlink), written in the high half of the external attributes (host Unix). */
  mode?: number;
  /** Raw external attributes (host MS-DOS), instead of `mode`. */
  dosAttributes?: number;
  /** Modification time, written in the MS-DOS fields in local time (default 2024-05-06 07:08:10). */
  modified?: Date;
  /** Raw MS-DOS date and time (date in the high 16 bits), instead of `modified`. */
  dos?: number;
  /** Extra fields, in the central directory and the local header. */
  extra?: Record<number, Uint8Array>;
  /** A different name in the local header. */
  localName?: string;
  /** Sizes and CRC after the data (flag bit 3), zero in the local header. */
  descriptor?: boolean;
  /** Bytes written between this entry's data and the next local header (a descriptor, junk). */
  after?: Uint8Array;
  /** Makes the compressed size cover the next `n` bytes after the data too (overlapping entries). */
  overlapBy?: number;
  /** A directory record only, pointing at the local header of entry `i` (several names for one data). */
  sameDataAs?: number;
}

export interface ZipOptions {
  /** Sizes and offsets in ZIP64 extra fields, and a ZIP64 end record. */
  zip64?: boolean;
  comment?: string;
}

const encoder = new TextEncoder();

export function buildZip(entries: readonly RawEntry[], options: ZipOptions = {}): Uint8Array<ArrayBuffer> {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  const push = (bytes: Uint8Array): void => {
    chunks.push(bytes);
    offset += bytes.length;
  };
  const central: Uint8Array[] = [];
  const offsets: number[] = [];
  for (const entry of entries) {
    const name = typeof entry.name === 'string' ? encoder.encode(entry.name) : entry.name;
    const raw = typeof entry.content === 'string' ? encoder.encode(entry.content) : (entry.content ?? new Uint8Array(0));
    const method = entry.method ?? 8;
    const data = entry.stored ?? (method === 8 ? deflateSync(raw) : raw);
    const size = entry.size ?? raw.length;
    const crc = entry.crc ?? crc32(raw);
    const ascii = typeof entry.name !== 'string' || /^[\x00-\x7f]*$/u.test(entry.name);
    const flags = (entry.flags ?? (ascii ? 0 : 0x800)) | (entry.descriptor ? 8 : 0);
    const dos = entry.dos ?? dosOf(entry.modified ?? new Date(2024, 4, 6, 7, 8, 10));
    const extra = extraBytes(entry.extra ?? {});
    const compressedSize = data.length + (entry.overlapBy ?? 0);
    const localAt = entry.sameDataAs === undefined ? offset : (offsets[entry.sameDataAs] ?? 0);
    offsets.push(localAt);
    if (entry.sameDataAs === undefined) {
      const localName = entry.localName === undefined ? name : encoder.encode(entry.localName);
      const zip64Local = options.zip64 ? extraBytes({ 1: le64(size, compressedSize) }) : new Uint8Array(0);
      const local = new Bytes(30 + localName.length + extra.length + zip64Local.length);
      local.u32(0x04034b50).u16(options.zip64 ? 45 : 20).u16(flags).u16(method).u32(dos);
      if (entry.descriptor) local.u32(0).u32(0).u32(0);
      else if (options.zip64) local.u32(crc).u32(0xffffffff).u32(0xffffffff);
      else local.u32(crc).u32(compressedSize).u32(size);
      local.u16(localName.length).u16(extra.length + zip64Local.length).bytes(localName).bytes(extra).bytes(zip64Local);
      push(local.out);
      push(data);
      if (entry.descriptor) push(new Bytes(16).u32(0x08074b50).u32(crc).u32(compressedSize).u32(size).out);
      if (entry.after) push(entry.after);
    }
    const attributes = entry.dosAttributes ?? (entry.mode === undefined ? 0 : entry.mode * 0x10000);
    const host = entry.dosAttributes === undefined && entry.mode !== undefined ? 3 : 0;
    const zip64Central = options.zip64 ? extraBytes({ 1: le64(size, compressedSize, localAt) }) : new Uint8Array(0);
    const record = new Bytes(46 + name.length + extra.length + zip64Central.length);
    record.u32(0x02014b50).u16((host << 8) | 20).u16(options.zip64 ? 45 : 20).u16(flags).u16(method).u32(dos).u32(crc);
    if (options.zip64) record.u32(0xffffffff).u32(0xffffffff);
    else record.u32(compressedSize).u32(size);
    record.u16(name.length).u16(extra.length + zip64Central.length).u16(0).u16(0).u16(0).u32(attributes);
    record.u32(options.zip64 ? 0xffffffff : localAt).bytes(name).bytes(extra).bytes(zip64Central);
    central.push(record.out);
  }
  const directoryAt = offset;
  for (const record of central) push(record);
  const directorySize = offset - directoryAt;
  if (options.zip64) {
    const end64At = offset;
    push(new Bytes(56).u32(0x06064b50).u64(44).u16(45).u16(45).u32(0).u32(0).u64(entries.length).u64(entries.length).u64(directorySize).u64(directoryAt).out);
    push(new Bytes(20).u32(0x07064b50).u32(0).u64(end64At).u32(1).out);
  }
  const comment = encoder.encode(options.comment ?? '');
  const end = new Bytes(22 + comment.length).u32(0x06054b50).u16(0).u16(0);
  if (options.zip64) end.u16(0xffff).u16(0xffff).u32(0xffffffff).u32(0xffffffff);
  else end.u16(entries.length).u16(entries.length).u32(directorySize).u32(directoryAt);
  push(end.u16(comment.length).bytes(comment).out);
  const out = new Uint8Array(offset);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The zip as a Blob, as an app hands it to importBundle. */
export function zipBlob(entries: readonly RawEntry[], options?: ZipOptions): Blob {
  return new Blob([buildZip(entries, options)], { type: 'application/zip' });
}

let bomb: Uint8Array | undefined;
export const BOMB_BYTES = 200 * 1024 * 1024;

/**
 * A raw deflate stream of 200 MiB of zeros (about 200 KB), not final and followed by a block of the invalid type 3:
 * a reader that inflated it all would end in an error about that block, so a refusal that speaks of the size
 * proves the reader stopped long before. Built once per test file.
 */
export function zeroBomb(): Uint8Array {
  if (bomb) return bomb;
  const parts: Uint8Array[] = [];
  const deflater = new Deflate({ level: 1 }, (chunk) => parts.push(chunk));
  const zeros = new Uint8Array(1024 * 1024);
  for (let i = 0; i < BOMB_BYTES / zeros.length; i++) deflater.push(zeros);
  deflater.flush(true);
  parts.push(new Uint8Array([0x07, 0xff, 0xff]));
  bomb = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bomb.set(part, at);
    at += part.length;
  }
  return bomb;
}

/** The extended timestamp extra field (0x5455) with a modification time. */
export function timestampExtra(date: Date): Record<number, Uint8Array> {
  return { 0x5455: new Bytes(5).u8(1).u32(Math.floor(date.getTime() / 1000)).out };
}

/** Info-ZIP's Unicode Path extra field (0x7075): the UTF-8 name, and the CRC of the name it stands for. */
export function unicodePathExtra(rawName: Uint8Array, name: string): Record<number, Uint8Array> {
  const utf8 = encoder.encode(name);
  return { 0x7075: new Bytes(5 + utf8.length).u8(1).u32(crc32(rawName)).bytes(utf8).out };
}

export function dosOf(date: Date): number {
  const day = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  return (day * 0x10000 + time) >>> 0;
}

let table: number[] | undefined;
export function crc32(bytes: Uint8Array, crc = 0): number {
  table ??= Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = ~crc;
  for (const byte of bytes) c = (table[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return ~c >>> 0;
}

function extraBytes(fields: Record<number, Uint8Array>): Uint8Array {
  const list = Object.entries(fields);
  const out = new Bytes(list.reduce((n, [, data]) => n + 4 + data.length, 0));
  for (const [id, data] of list) out.u16(Number(id)).u16(data.length).bytes(data);
  return out.out;
}

function le64(...values: number[]): Uint8Array {
  const out = new Bytes(values.length * 8);
  for (const value of values) out.u64(value);
  return out.out;
}

/** A little-endian writer over a fixed buffer. */
class Bytes {
  readonly out: Uint8Array<ArrayBuffer>;
  readonly #view: DataView;
  #at = 0;
  constructor(length: number) {
    this.out = new Uint8Array(length);
    this.#view = new DataView(this.out.buffer);
  }
  u8(value: number): this {
    this.#view.setUint8(this.#at++, value);
    return this;
  }
  u16(value: number): this {
    this.#view.setUint16(this.#at, value, true);
    this.#at += 2;
    return this;
  }
  u32(value: number): this {
    this.#view.setUint32(this.#at, value >>> 0, true);
    this.#at += 4;
    return this;
  }
  u64(value: number): this {
    this.u32(value % 2 ** 32);
    return this.u32(Math.floor(value / 2 ** 32));
  }
  bytes(data: Uint8Array): this {
    this.out.set(data, this.#at);
    this.#at += data.length;
    return this;
  }
}
