// Inflating a listed zip, one entry at a time and each bounded by the size it declared (which the limits already
// allowed): fed to fflate a little at a time, an entry is stopped as soon as it gives one byte more, so a zip bomb
// never grows past the limits in memory. Then its CRC-32, and its text as UTF-8.

import { Inflate } from 'fflate';
import { showText } from '../core/shown-text.js';
import type { CheckedFile, ParsedBundle } from './check-entries.js';
import { crc32 } from './crc32.js';
import { refused } from './refusal.js';
import { bundleReply } from './replies.js';
import type { ZipListing } from './zip-listing.js';
import { BlobWindow } from './zip-records.js';
import type { ZipRecord } from './zip-records.js';

// Deflate gives at most about 1,032 bytes from one: a push is sized so that it cannot give far more than allowed.
const MAX_RATIO = 1032;
const MIN_PUSH = 1024;
const MAX_PUSH = 64 * 1024;

/** Thrown from fflate's callback to stop an entry that gives more than it declared. */
class Overflow extends Error {}

/** The listing's files with their content; `onStep(done)` after every 1,000 files. */
export async function inflateZip(
  blob: Blob,
  listing: ZipListing,
  onStep: (done: number) => void,
): Promise<ParsedBundle> {
  const reader = new BlobWindow(blob);
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const files: CheckedFile[] = [];
  for (const [i, file] of listing.bundle.files.entries()) {
    const record = listing.records[i];
    if (record === undefined) break;
    const bytes = await inflateEntry(reader, record, file.where);
    let content: string;
    try {
      content = decoder.decode(bytes);
    } catch {
      throw refused(file.where, bundleReply.zipNotText());
    }
    files.push({ ...file, content });
    if ((i + 1) % 1000 === 0) onStep(i + 1);
  }
  return { ...listing.bundle, files };
}

async function inflateEntry(reader: BlobWindow, record: ZipRecord, where: string): Promise<Uint8Array> {
  const out = new Uint8Array(record.size);
  let produced = 0;
  const take = (chunk: Uint8Array): void => {
    if (produced + chunk.length > out.length) throw new Overflow();
    out.set(chunk, produced);
    produced += chunk.length;
  };
  const inflater = record.method === 8 ? new Inflate((chunk) => take(chunk)) : undefined;
  for (let at = 0; at < record.compressedSize; ) {
    const room = out.length - produced;
    const push = Math.max(MIN_PUSH, Math.min(MAX_PUSH, Math.floor(room / MAX_RATIO)));
    const length = Math.min(record.compressedSize - at, push);
    const chunk = await reader.read(record.dataStart + at, length);
    if (chunk === undefined) throw refused(where, bundleReply.zipDamaged(bundleReply.zipDataOutside()));
    at += length;
    try {
      if (inflater) inflater.push(chunk, at === record.compressedSize);
      else take(chunk);
    } catch (error) {
      if (error instanceof Overflow) throw refused(where, bundleReply.zipInflatesMore(record.size));
      const detail = error instanceof Error ? showText(error.message, 80) : 'unreadable';
      throw refused(where, bundleReply.zipDamaged(bundleReply.zipBadData(detail)));
    }
  }
  if (produced !== out.length) {
    throw refused(where, bundleReply.zipDamaged(bundleReply.zipInflatesLess(produced, out.length)));
  }
  if (crc32(out) !== record.crc) throw refused(where, bundleReply.zipDamaged(bundleReply.zipCrc()));
  return out;
}
