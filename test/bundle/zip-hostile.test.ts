// The hostile zip corpus: each zip is refused whole with its code, the entry it names and the reason, in a dry run
// and for real, and the memory is left as it was. Zip-slip, absolute paths, backslashes, symbolic links and other
// special files, encryption, unknown methods, bombs (declared, lying, and spread over many entries), overlapping
// entries, names that are not UTF-8 or that NFC makes one, oversize files, damaged data, and lies between headers.

import { describe, expect, it } from 'vitest';
import { bundleTools, refusal, snapshot, write } from './tools.js';
import { BOMB_BYTES, buildZip, zeroBomb, zipBlob } from './zip-builder.js';
import type { RawEntry } from './zip-builder.js';

const { freshTool, usageOf } = bundleTools();

const LIMITS = { maxFileBytes: 1000, maxTotalBytes: 4000, maxFiles: 10 };

interface HostileZip {
  name: string;
  zip: () => Blob;
  code?: 'invalid_bundle' | 'too_large';
  /** Fragments the message must contain (the entry it names, the reason). */
  says: string[];
}

const good: RawEntry = { name: 'memories/good.md', content: 'good\n' };
const cutShort = (): Blob => {
  const bytes = buildZip([good, { name: 'memories/second.md', content: 'second\n' }]);
  return new Blob([bytes.subarray(0, bytes.length - 30)]);
};

const HOSTILE: HostileZip[] = [
  { name: 'zip-slip out of memories/', zip: () => zipBlob([good, { name: 'memories/../../evil.sh', content: 'x' }]), says: ['zip entry 2 "memories/../../evil.sh"', '".." segment'] },
  { name: 'zip-slip at the top', zip: () => zipBlob([{ name: '../evil.sh', content: 'x' }]), says: ['zip entry 1 "../evil.sh"', '".." segment'] },
  { name: 'a ".." that stays inside', zip: () => zipBlob([{ name: 'memories/a/../b.md', content: 'x' }]), says: ['".." segment'] },
  { name: 'an absolute path', zip: () => zipBlob([good, { name: '/etc/passwd', content: 'x' }]), says: ['zip entry 2 "/etc/passwd"', 'absolute path'] },
  { name: 'an absolute /memories path', zip: () => zipBlob([{ name: '/memories/a.md', content: 'x' }]), says: ['absolute path'] },
  { name: 'a drive letter', zip: () => zipBlob([{ name: 'C:/memories/a.md', content: 'x' }]), says: ['absolute path'] },
  { name: 'a backslash traversal', zip: () => zipBlob([{ name: 'memories\\..\\..\\evil.sh', content: 'x' }]), says: ['backslash'] },
  { name: 'a symbolic link', zip: () => zipBlob([good, { name: 'memories/link.md', content: '/etc/passwd', mode: 0o120777, method: 0 }]), says: ['zip entry 2 "memories/link.md"', 'symbolic link'] },
  { name: 'a symbolic link to a folder', zip: () => zipBlob([{ name: 'memories/up', content: '../..', mode: 0o120755 }, { name: 'memories/up/x.md', content: 'x' }]), says: ['zip entry 1', 'symbolic link'] },
  { name: 'a named pipe', zip: () => zipBlob([{ name: 'memories/fifo', mode: 0o010644 }]), says: ['pipe'] },
  { name: 'a folder mode on a file name', zip: () => zipBlob([{ name: 'memories/dir', mode: 0o040755 }]), says: ['marked as a folder'] },
  { name: 'an MS-DOS folder bit on a file name', zip: () => zipBlob([{ name: 'memories/dir', dosAttributes: 0x10 }]), says: ['marked as a folder'] },
  { name: 'a folder that holds data', zip: () => zipBlob([{ name: 'memories/dir/', content: 'data' }]), says: ['it is a folder, yet states 4 bytes'] },
  { name: 'an encrypted entry', zip: () => zipBlob([good, { name: 'memories/secret.md', content: 'x', flags: 1 }]), says: ['zip entry 2 "memories/secret.md"', 'encrypted'] },
  { name: 'AES encryption (method 99)', zip: () => zipBlob([{ name: 'memories/aes.md', content: 'x', method: 99, flags: 1 }]), says: ['encrypted'] },
  { name: 'LZMA (method 14)', zip: () => zipBlob([{ name: 'memories/lzma.md', stored: new Uint8Array(8), size: 4, method: 14 }]), says: ['method 14'] },
  { name: 'Deflate64 (method 9)', zip: () => zipBlob([{ name: 'memories/d64.md', stored: new Uint8Array(8), size: 4, method: 9 }]), says: ['method 9'] },
  { name: 'a name that is not UTF-8', zip: () => zipBlob([good, { name: new Uint8Array([0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x69, 0x65, 0x73, 0x2f, 0x82, 0xff]), content: 'x' }]), says: ['zip entry 2:', 'not UTF-8'] },
  { name: 'a name flagged UTF-8 that is not', zip: () => zipBlob([{ name: new Uint8Array([0x6d, 0x2f, 0xc3, 0x28]), content: 'x', flags: 0x800 }]), says: ['not UTF-8'] },
  {
    name: 'two names that NFC makes one',
    zip: () => zipBlob([{ name: 'memories/caf\u00e9.md', content: '1' }, { name: 'memories/cafe\u0301.md', content: '2' }]),
    says: ['zip entry 2 "memories/cafe\u0301.md"', 'same path as zip entry 1 "memories/caf\u00e9.md"'],
  },
  { name: 'the same name twice', zip: () => zipBlob([good, good]), says: ['zip entry 2', 'same path as zip entry 1'] },
  { name: 'a file below a file', zip: () => zipBlob([{ name: 'memories/a.md', content: '1' }, { name: 'memories/a.md/b.md', content: '2' }]), says: ['zip entry 2', 'lies below zip entry 1'] },
  { name: 'a path the validator refuses', zip: () => zipBlob([{ name: 'memories/a\u202e.md', content: 'x' }]), says: ['invisible'] },
  { name: 'an entry outside memories/', zip: () => zipBlob([good, { name: 'other/a.md', content: 'x' }]), says: ['zip entry 2 "other/a.md"', 'outside memories/'] },
  { name: 'a wrapper folder without memories/ in it', zip: () => zipBlob([{ name: 'base/notes/a.md', content: 'x' }]), says: ['outside memories/'] },
  { name: 'the root as a file', zip: () => zipBlob([{ name: 'memories', content: 'x' }]), says: ['root'] },
  { name: 'a file over the per-file limit', zip: () => zipBlob([{ name: 'memories/big.md', content: 'x'.repeat(1001) }]), code: 'too_large', says: ['zip entry 1 "memories/big.md"', '1001 bytes, over the limit of 1000'] },
  {
    // Declared honestly: refused on its header, never inflated (inflating would end on the broken block instead).
    name: 'a 200 MiB zip bomb that declares its size',
    zip: () => zipBlob([{ name: 'memories/bomb.md', stored: zeroBomb(), size: BOMB_BYTES }]),
    code: 'too_large',
    says: ['zip entry 1 "memories/bomb.md"', `${BOMB_BYTES} bytes, over the limit of 1000`],
  },
  {
    // Declared as 100 bytes: inflating stops at the 101st, long before the broken block 200 MiB later.
    name: 'a 200 MiB zip bomb that lies about its size',
    zip: () => zipBlob([good, { name: 'memories/bomb.md', stored: zeroBomb(), size: 100 }]),
    says: ['zip entry 2 "memories/bomb.md"', 'inflates to more than the 100 bytes it declares; inflating stopped there'],
  },
  {
    // Each within the per-file limit, together over the memory's: refused on the headers (the data is not even deflate).
    name: 'a bomb spread over entries that together pass the memory limit',
    zip: () => zipBlob(Array.from({ length: 6 }, (_, i) => ({ name: `memories/part${i}.md`, stored: new Uint8Array([0x07, 0xff]), size: 900 }))),
    code: 'too_large',
    says: ['zip entry 5 "memories/part4.md"', 'over its limit of 4000 bytes'],
  },
  {
    name: 'more files than the memory may hold',
    zip: () => zipBlob(Array.from({ length: 11 }, (_, i) => ({ name: `memories/n${i}.md`, stored: new Uint8Array([0x07]), size: 1 }))),
    code: 'too_large',
    says: ['"memories/n', 'over its limit of 10 files'],
  },
  {
    name: 'two entries on the same data (a non-recursive bomb)',
    zip: () => zipBlob([{ name: 'memories/a.md', content: 'x'.repeat(900) }, { name: 'memories/a.md', sameDataAs: 0 }, { name: 'memories/a.md', sameDataAs: 0 }]),
    says: ['runs into zip entry'],
  },
  {
    name: 'an entry whose data overlaps the next one',
    zip: () => zipBlob([{ name: 'memories/a.md', content: 'a', overlapBy: 10 }, { name: 'memories/b.md', content: 'b' }]),
    says: ['zip entry 1 "memories/a.md"', 'runs into zip entry 2 "memories/b.md"'],
  },
  { name: 'a local header that names another file', zip: () => zipBlob([{ name: 'memories/a.md', content: 'x', localName: 'memories/../../evil.sh' }]), says: ['zip entry 1 "memories/a.md"', 'local header does not match'] },
  { name: 'a wrong CRC', zip: () => zipBlob([good, { name: 'memories/b.md', content: 'b\n', crc: 1234 }]), says: ['zip entry 2 "memories/b.md"', 'CRC-32'] },
  { name: 'data that is not deflate', zip: () => zipBlob([{ name: 'memories/b.md', stored: new Uint8Array([0x07, 0xff, 0xff]), size: 3 }]), says: ['cannot be inflated'] },
  { name: 'a deflate stream shorter than it declares', zip: () => zipBlob([{ name: 'memories/b.md', content: 'short', size: 50 }]), says: ['inflates to 5 bytes, not the 50'] },
  { name: 'a stored entry whose two sizes differ', zip: () => zipBlob([{ name: 'memories/b.md', content: 'stored', method: 0, size: 3 }]), says: ['stored uncompressed'] },
  { name: 'binary content', zip: () => zipBlob([{ name: 'memories/image.png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]) }]), says: ['not UTF-8 text'] },
  { name: 'a zip cut short', zip: cutShort, says: ['no end record'] },
  { name: 'a ZIP64 size past the limits', zip: () => zipBlob([{ name: 'memories/huge.md', stored: new Uint8Array([0x07]), size: 2 ** 40 }], { zip64: true }), code: 'too_large', says: [`${2 ** 40} bytes`] },
];

describe('importBundle refuses a hostile zip whole and changes nothing', () => {
  it.each(HOSTILE)('refuses $name', async ({ zip, code = 'invalid_bundle', says }) => {
    const tool = await freshTool(LIMITS);
    await write(tool, '/memories/base.md', 'base\n');
    await write(tool, '/memories/notes/keep.md', 'keep me\n');
    const before = await snapshot(tool);
    const usage = await usageOf(tool);
    const history = await tool.history();
    const input = zip();
    for (const options of [{ dryRun: true }, {}, { mode: 'replace' as const }]) {
      const error = await refusal(tool.importBundle(input, options));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(/^Cannot import the bundle: .*\. Nothing was changed\.$/su);
      for (const fragment of says) expect(error.message).toContain(fragment);
      expect(error.message).not.toMatch(/[\u0000-\u001f\u200b\u202e\u2028]/u);
    }
    expect(await snapshot(tool)).toBe(before);
    expect(await usageOf(tool)).toEqual(usage);
    expect(await tool.history()).toEqual(history);
  }, 300_000);
});
