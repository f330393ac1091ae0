// Zips, in every engine: exportBundle({ format: 'zip' }) as another reader (fflate's unzipSync) sees it, and back
// into a memory; importBundle(blob) knowing a zip by its first bytes, with memories/ at the top or inside one folder,
// the ways other tools write zips (stored, data descriptors, ZIP64, a comment, MS-DOS, extended and NTFS times,
// Unicode Path names, macOS litter), and the import's options, progress and undo applied to a zip as to JSON.

import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/storage/tree-reads.js';
import type { IndexedDBMemoryTool } from '../../src/tool/tool.js';
import { bundleOf } from '../helpers/bundles.js';
import { bundleTools, refusal, snapshot, write } from './tools.js';
import { buildZip, timestampExtra, unicodePathExtra, zipBlob } from './zip-builder.js';

const { freshTool, usageOf } = bundleTools();

const MODIFIED = '2021-03-04T05:06:07.000Z';
const CREATED = '2020-01-02T03:04:05.000Z';

/** A memory with nested, non-ASCII, empty and CRLF files, an empty folder, and known times. */
async function sampleTool(): Promise<IndexedDBMemoryTool> {
  const tool = await freshTool();
  const files = {
    '/memories/notes.md': '# Notes\n- one\n',
    '/memories/empty.md': '',
    '/memories/crlf.txt': 'a\r\nb\r\n',
    '/memories/café/日本語 ノート.md': 'Grüße 👋🏽 — ☃\n',
    '/memories/deep/er/est.md': 'bottom\n',
    '/memories/.hidden/x.md': 'hidden\n',
  };
  const text = JSON.parse(await bundleOf(files, ['/memories/blank', '/memories/deep/hollow'])) as {
    files: { createdAt: string; updatedAt: string }[];
  };
  for (const file of text.files) Object.assign(file, { createdAt: CREATED, updatedAt: MODIFIED });
  await tool.importBundle(JSON.stringify(text));
  return tool;
}

/** Files and folders as the app sees them: path, kind, size, and the text of each file. */
async function tree(tool: IndexedDBMemoryTool): Promise<unknown[]> {
  const entries = await tool.list();
  return Promise.all(
    entries.map(async (entry: MemoryEntry) => ({
      path: entry.path,
      kind: entry.kind,
      size: entry.size,
      ...(entry.kind === 'file' ? { text: await tool.read(entry.path) } : {}),
    })),
  );
}

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

describe('exportBundle({ format: "zip" })', () => {
  it('writes memories/... with a folder entry for every folder, deflated files, Unix modes and the time in UTC', async () => {
    const tool = await sampleTool();
    const blob = await tool.exportBundle({ format: 'zip' });
    expect(blob.type).toBe('application/zip');
    const bytes = await bytesOf(blob);
    expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const unzipped = unzipSync(bytes);
    expect(Object.keys(unzipped).sort()).toEqual([
      'memories/',
      'memories/.hidden/',
      'memories/.hidden/x.md',
      'memories/blank/',
      'memories/café/',
      'memories/café/日本語 ノート.md',
      'memories/crlf.txt',
      'memories/deep/',
      'memories/deep/er/',
      'memories/deep/er/est.md',
      'memories/deep/hollow/',
      'memories/empty.md',
      'memories/notes.md',
    ]);
    expect(new TextDecoder().decode(unzipped['memories/café/日本語 ノート.md'])).toBe('Grüße 👋🏽 — ☃\n');
    expect(new TextDecoder().decode(unzipped['memories/crlf.txt'])).toBe('a\r\nb\r\n');
    expect(unzipped['memories/empty.md']).toHaveLength(0);
    // The central directory: each name's UTF-8 flag, method, Unix mode and extended timestamp (UTC seconds).
    const records = centralRecords(bytes);
    const named = new Map(records.map((record) => [record.name, record]));
    expect(named.get('memories/café/日本語 ノート.md')).toMatchObject({ utf8: true, method: 8, mode: 0o100644 });
    expect(named.get('memories/blank/')).toMatchObject({ mode: 0o040755, size: 0 });
    expect(named.get('memories/notes.md')?.unixTime).toBe(Date.parse(MODIFIED) / 1000);
  });

  it('exports a subtree or one file under their full path, and an empty memory as memories/ alone', async () => {
    const tool = await sampleTool();
    const names = async (path?: string): Promise<string[]> =>
      Object.keys(unzipSync(await bytesOf(await tool.exportBundle({ format: 'zip', ...(path ? { path } : {}) })))).sort();
    expect(await names('/memories/deep')).toEqual([
      'memories/deep/',
      'memories/deep/er/',
      'memories/deep/er/est.md',
      'memories/deep/hollow/',
    ]);
    expect(await names('/memories/notes.md')).toEqual(['memories/notes.md']);
    const empty = await freshTool();
    expect(Object.keys(unzipSync(await bytesOf(await empty.exportBundle({ format: 'zip' }))))).toEqual(['memories/']);
    await expect(tool.exportBundle({ format: 'tar' as 'zip' })).rejects.toThrow(TypeError);
  });

  it('reports progress ending at the number of files', async () => {
    const tool = await sampleTool();
    const calls: [number, number][] = [];
    const zip = await tool.exportBundle({ format: 'zip', onProgress: (done, total) => calls.push([done, total]) });
    expect(zip.type).toBe('application/zip');
    expect(calls.at(-1)).toEqual([6, 6]);
  });
});

describe('importBundle(zip)', () => {
  it('round-trips an exported zip: the same files byte for byte, the empty folders, each time to the second', async () => {
    const source = await sampleTool();
    const zip = await source.exportBundle({ format: 'zip' });
    const target = await freshTool();
    const report = await target.importBundle(new File([zip], 'memory.zip', { type: 'application/zip' }));
    expect(report).toMatchObject({ added: 6, replaced: 0, removed: 0 });
    expect(await tree(target)).toEqual(await tree(source));
    expect(await usageOf(target)).toEqual(await usageOf(source));
    for (const entry of await target.list()) {
      if (entry.kind !== 'file') continue;
      // A zip keeps the modification time only: the import takes it for both.
      expect([entry.createdAt.toISOString(), entry.updatedAt.toISOString()]).toEqual([MODIFIED, MODIFIED]);
    }
  });

  it('takes memories/ at the top, or inside one folder at the top (a zip of the Node tool\'s folder)', async () => {
    for (const prefix of ['', 'memory-base/']) {
      const tool = await freshTool();
      const zip = zipBlob([
        ...(prefix ? [{ name: prefix }] : []),
        { name: `${prefix}memories/` },
        { name: `${prefix}memories/a.md`, content: 'a\n' },
        { name: `${prefix}memories/sub/b.md`, content: 'b\n' },
        { name: `${prefix}memories/blank/` },
      ]);
      const report = await tool.importBundle(zip);
      expect(report.addedPaths.sort()).toEqual(['/memories/a.md', '/memories/sub/b.md']);
      expect(report.folderPaths).toEqual(['/memories/blank', '/memories/sub']);
      expect(await tool.read('/memories/sub/b.md')).toBe('b\n');
    }
  });

  it('reads stored entries, data descriptors, ZIP64 fields, a comment, and an empty archive', async () => {
    const entries = [
      { name: 'memories/stored.md', content: 'stored\n', method: 0 },
      { name: 'memories/described.md', content: 'described\n', descriptor: true },
      { name: 'memories/deflated.md', content: 'x'.repeat(5000) },
    ];
    for (const zip of [zipBlob(entries, { comment: 'made by a test' }), zipBlob(entries, { zip64: true })]) {
      const tool = await freshTool();
      await tool.importBundle(zip);
      expect(await tool.read('/memories/stored.md')).toBe('stored\n');
      expect(await tool.read('/memories/described.md')).toBe('described\n');
      expect(await tool.read('/memories/deflated.md')).toBe('x'.repeat(5000));
    }
    const tool = await freshTool();
    await write(tool, '/memories/kept.md', 'kept');
    const empty = new Blob([buildZip([])]);
    expect([...new Uint8Array(await empty.slice(0, 4).arrayBuffer())]).toEqual([0x50, 0x4b, 0x05, 0x06]);
    expect(await tool.importBundle(empty)).toMatchObject({ added: 0, removed: 0 });
    expect(await tool.importBundle(empty, { mode: 'replace' })).toMatchObject({ removed: 1 });
    expect(await tool.list()).toEqual([]);
  });

  it('takes each time from the extended timestamp, else NTFS, else the MS-DOS fields in local time', async () => {
    const utc = new Date('2022-02-03T04:05:06.000Z');
    const local = new Date(2019, 6, 8, 9, 10, 12);
    const ntfsModified = new Date('2018-01-01T00:00:01.234Z');
    const ntfsCreated = new Date('2017-01-01T00:00:00.000Z');
    const tool = await freshTool();
    await tool.importBundle(
      zipBlob([
        { name: 'memories/ut.md', content: 'u', extra: timestampExtra(utc), modified: local },
        { name: 'memories/ntfs.md', content: 'n', extra: ntfsExtra(ntfsModified, ntfsCreated), modified: local },
        { name: 'memories/dos.md', content: 'd', modified: local },
        // A date of zeros (month 0, day 0) says nothing: the import's time.
        { name: 'memories/none.md', content: '0', dos: 0 },
      ]),
    );
    const times = Object.fromEntries((await tool.list()).map((e) => [e.name, [e.createdAt.getTime(), e.updatedAt.getTime()]]));
    expect(times['ut.md']).toEqual([utc.getTime(), utc.getTime()]);
    expect(times['ntfs.md']).toEqual([ntfsCreated.getTime(), ntfsModified.getTime()]);
    expect(times['dos.md']).toEqual([local.getTime(), local.getTime()]);
    expect(Math.abs((times['none.md']?.[1] ?? 0) - Date.now())).toBeLessThan(3_600_000);
  });

  it('reads a name from the UTF-8 flag, a Unicode Path field, or unflagged UTF-8 bytes', async () => {
    const raw = new Uint8Array([...new TextEncoder().encode('memories/'), 0x3f, 0x2e, 0x6d, 0x64]); // "?.md"
    const tool = await freshTool();
    await tool.importBundle(
      zipBlob([
        { name: 'memories/flagged-é.md', content: '1' },
        { name: raw, content: '2', extra: unicodePathExtra(raw, 'memories/path-ü.md') },
        { name: 'memories/unflagged-ß.md', content: '3', flags: 0 },
      ]),
    );
    expect((await tool.list()).map((e) => e.path)).toEqual([
      '/memories/flagged-é.md',
      '/memories/path-ü.md',
      '/memories/unflagged-ß.md',
    ]);
  });

  it('leaves out what macOS adds (__MACOSX/, .DS_Store), unread', async () => {
    const tool = await freshTool();
    const report = await tool.importBundle(
      zipBlob([
        { name: 'base/memories/a.md', content: 'a' },
        { name: 'base/memories/.DS_Store', content: new Uint8Array([0, 0, 0, 1, 0x42, 0x75, 0xff]) },
        { name: '__MACOSX/base/memories/._a.md', content: new Uint8Array([0xff, 0xfe]), method: 99, flags: 1 },
      ]),
    );
    expect(report.addedPaths).toEqual(['/memories/a.md']);
  });

  it('applies merge, replace, onConflict, dryRun and undo to a zip as to JSON, and reports its progress; JSON stays JSON', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/mine.md', 'mine');
    await write(tool, '/memories/both.md', 'old');
    const before = await snapshot(tool);
    const zip = zipBlob([
      { name: 'memories/both.md', content: 'new' },
      { name: 'memories/theirs.md', content: 'theirs' },
    ]);
    const dry = await tool.importBundle(zip, { mode: 'replace', dryRun: true });
    expect(dry).toMatchObject({ added: 1, replaced: 1, removed: 1, dryRun: true });
    expect(await snapshot(tool)).toBe(before);
    expect((await refusal(tool.importBundle(zip, { onConflict: 'fail' }))).code).toBe('conflict');
    // The same text (known once inflated) is no conflict, also where the sizes alone were checked first.
    const same = zipBlob([{ name: 'memories/both.md', content: 'old' }]);
    expect(await tool.importBundle(same, { onConflict: 'fail', dryRun: true })).toMatchObject({ unchanged: 1, replaced: 0 });
    expect(await tool.importBundle(zip, { onConflict: 'skip' })).toMatchObject({ added: 1, skipped: 1 });
    const calls: [number, number][] = [];
    await tool.importBundle(zip, { mode: 'replace', onProgress: (done, total) => calls.push([done, total]) });
    expect(calls.at(-1)).toEqual([4, 4]);
    expect(await tool.read('/memories/both.md')).toBe('new');
    expect((await tool.list()).map((e) => e.path)).toEqual(['/memories/both.md', '/memories/theirs.md']);
    await tool.undo();
    await tool.undo();
    expect(await snapshot(tool)).toBe(before);
    // A Blob of JSON is still JSON, even with a zip's signature inside.
    const json = await tool.importBundle(new Blob([await bundleOf({ '/memories/pk.md': 'PK\u0003\u0004' })]));
    expect(json.addedPaths).toEqual(['/memories/pk.md']);
  });
});

interface CentralRecord {
  name: string;
  utf8: boolean;
  method: number;
  size: number;
  mode: number;
  unixTime: number | undefined;
}

/** The central directory of a zip without ZIP64, read plainly (what the tests check of the writer). */
function centralRecords(bytes: Uint8Array): CentralRecord[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length - 22;
  expect(view.getUint32(end, true)).toBe(0x06054b50);
  const records: CentralRecord[] = [];
  let at = view.getUint32(end + 16, true);
  for (let i = 0; i < view.getUint16(end + 10, true); i++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const extra = bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    let unixTime: number | undefined;
    for (let e = 0; e + 4 <= extra.length; e += 4 + (extra[e + 2] ?? 0) + ((extra[e + 3] ?? 0) << 8)) {
      if ((extra[e] ?? 0) + ((extra[e + 1] ?? 0) << 8) === 0x5455) {
        unixTime = new DataView(extra.buffer, extra.byteOffset + e + 5, 4).getUint32(0, true);
      }
    }
    records.push({
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      utf8: (view.getUint16(at + 8, true) & 0x800) !== 0,
      method: view.getUint16(at + 10, true),
      size: view.getUint32(at + 24, true),
      mode: view.getUint32(at + 38, true) >>> 16,
      unixTime,
    });
    at += 46 + nameLength + extraLength + view.getUint16(at + 32, true);
  }
  return records;
}

/** The NTFS extra field (0x000a): tag 1 with the modification, access and creation FILETIMEs. */
function ntfsExtra(modified: Date, created: Date): Record<number, Uint8Array> {
  const field = new Uint8Array(32);
  const view = new DataView(field.buffer);
  view.setUint16(4, 1, true);
  view.setUint16(6, 24, true);
  const fileTime = (date: Date): bigint => (BigInt(date.getTime()) + 11_644_473_600_000n) * 10_000n;
  view.setBigUint64(8, fileTime(modified), true);
  view.setBigUint64(16, fileTime(modified), true);
  view.setBigUint64(24, fileTime(created), true);
  return { 0x000a: field };
}

