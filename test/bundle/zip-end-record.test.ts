// A zip is refused on what its end record declares (the entry count, the central directory's size), before a byte of
// the directory is read: the directories here are garbage, so a refusal that names the count proves no entry was
// read, and a Blob that counts what is sliced from it shows that only the end of the file was.

import { describe, expect, it } from 'vitest';
import { zipEntryLimit } from '../../src/bundle/zip-listing.js';
import { bundleTools, refusal, snapshot, write } from './tools.js';
import { buildZip } from './zip-builder.js';

const { freshTool, usageOf } = bundleTools();

const LIMITS = { maxFileBytes: 1000, maxTotalBytes: 4000, maxFiles: 10 };

/** A Blob that adds up the bytes sliced from it: the reader reads nothing else. */
class CountingBlob extends Blob {
  sliced = 0;
  override slice(start?: number, end?: number, type?: string): Blob {
    const part = super.slice(start, end, type);
    this.sliced += part.size;
    return part;
  }
}

/** Little-endian fields, in order: [bytes, value]. */
function record(...fields: [2 | 4 | 8, number][]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(fields.reduce((n, [bytes]) => n + bytes, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const [bytes, value] of fields) {
    if (bytes === 2) view.setUint16(at, value, true);
    else if (bytes === 4) view.setUint32(at, value >>> 0, true);
    else view.setBigUint64(at, BigInt(value), true);
    at += bytes;
  }
  return out;
}

/** The end record of a zip (`zip64`: its ZIP64 end record and locator before it, and the classic one all 0xff). */
function endRecords(at: number, entries: number, directorySize: number, directoryAt: number, zip64: boolean): Uint8Array<ArrayBuffer>[] {
  if (!zip64) {
    return [record([4, 0x06054b50], [2, 0], [2, 0], [2, entries], [2, entries], [4, directorySize], [4, directoryAt], [2, 0])];
  }
  const end64 = record(
    [4, 0x06064b50], [8, 44], [2, 45], [2, 45], [4, 0], [4, 0],
    [8, entries], [8, entries], [8, directorySize], [8, directoryAt],
  );
  const locator = record([4, 0x07064b50], [4, 0], [8, at], [4, 1]);
  const classic = record([4, 0x06054b50], [2, 0], [2, 0], [2, 0xffff], [2, 0xffff], [4, 0xffffffff], [4, 0xffffffff], [2, 0]);
  return [end64, locator, classic];
}

/**
 * A local header's signature, then garbage where the central directory should be (`directorySize` bytes, at most
 * 100,000: past that it is cut short), then end records that declare `entries` entries in it.
 */
function garbageZip(entries: number, directorySize: number, zip64: boolean): CountingBlob {
  const head = record([4, 0x04034b50]);
  const garbage = new Uint8Array(Math.min(directorySize, 100_000)).fill(0xa5);
  const ends = endRecords(head.length + garbage.length, entries, directorySize, head.length, zip64);
  return new CountingBlob([head, garbage, ...ends], { type: 'application/zip' });
}

/** A real zip of `count` folder entries whose central directory is then overwritten with garbage. */
function realZipGarbled(count: number): CountingBlob {
  const entries = Array.from({ length: count }, (_, i) => ({ name: `memories/f${i}/` }));
  const bytes = buildZip(entries);
  const view = new DataView(bytes.buffer);
  const endAt = bytes.length - 22;
  const [size, offset] = [view.getUint32(endAt + 12, true), view.getUint32(endAt + 16, true)];
  bytes.fill(0xa5, offset, offset + size);
  return new CountingBlob([bytes], { type: 'application/zip' });
}

/** Refused the same way as a dry run, a merge and a replace; the memory, its totals and its history unchanged. */
async function expectRefused(zip: CountingBlob, code: string, says: string[]): Promise<void> {
  const tool = await freshTool(LIMITS);
  await write(tool, '/memories/base.md', 'base\n');
  const [before, usage, history] = [await snapshot(tool), await usageOf(tool), await tool.history()];
  for (const options of [{ dryRun: true }, {}, { mode: 'replace' as const }]) {
    zip.sliced = 0;
    const error = await refusal(tool.importBundle(zip, options));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(/^Cannot import the bundle: .*\. Nothing was changed\.$/su);
    for (const fragment of says) expect(error.message).toContain(fragment);
    // The sniffs of its first bytes (64 for an age header, 4 for a zip's) and the end of the file (the end record's
    // search spans at most 64 KiB + 22).
    expect(zip.sliced).toBeLessThanOrEqual(64 + 4 + 22 + 0xffff);
  }
  expect(await snapshot(tool)).toBe(before);
  expect(await usageOf(tool)).toEqual(usage);
  expect(await tool.history()).toEqual(history);
}

describe('importBundle refuses a zip on its end record, before reading any entry', () => {
  it('allows four entries for each file maxFiles allows, and 1000 more', () => {
    expect(zipEntryLimit(LIMITS)).toBe(1040);
    expect(zipEntryLimit({ maxFiles: 50_000 })).toBe(201_000);
  });

  it('refuses a ZIP64 end record that declares a million entries, its directory garbage', async () => {
    const zip = garbageZip(1_000_000, 46_000_000, true);
    await expectRefused(zip, 'too_large', ['declares 1000000 entries, more than the 1040', 'no entry was read']);
  }, 120_000);

  it('refuses a classic end record that declares more entries than the limits allow, its directory garbage', async () => {
    const zip = garbageZip(1041, 1041 * 46, false);
    await expectRefused(zip, 'too_large', ['declares 1041 entries, more than the 1040']);
  }, 120_000);

  it('refuses a real zip of more entries than the limits allow without reading its (garbled) directory', async () => {
    await expectRefused(realZipGarbled(1100), 'too_large', ['declares 1100 entries, more than the 1040']);
  }, 120_000);

  it('refuses a central directory declared larger than its entries can need', async () => {
    const zip = garbageZip(2, 2 * 4096 + 1, false);
    await expectRefused(zip, 'invalid_bundle', ['a central directory of 8193 bytes for 2 entries, more than 4096 bytes an entry']);
    const huge = garbageZip(3, 3 * 4096 + 1, true);
    await expectRefused(huge, 'invalid_bundle', ['a central directory of 12289 bytes for 3 entries']);
  }, 120_000);

  it('still reads a zip of as many entries as the limits allow', async () => {
    const tool = await freshTool(LIMITS);
    const folders = Array.from({ length: 1030 }, (_, i) => ({ name: `memories/f${i}/` }));
    const files = Array.from({ length: 10 }, (_, i) => ({ name: `memories/f${i}/n.md`, content: `${i}\n` }));
    const bytes = buildZip([...folders, ...files]);
    const report = await tool.importBundle(new Blob([bytes], { type: 'application/zip' }));
    expect(report.added).toBe(10);
  }, 120_000);
});
