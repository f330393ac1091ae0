// Refusals: a corpus of hostile and broken bundles, each refused with its code and the first bad entry named, and
// nothing changed; every hostile path of the shared fixture; input of the wrong kind; and how a refusal shows the
// strings it echoes.

import { describe, expect, it } from 'vitest';
import type { ImportBundleOptions } from '../../src/bundle/format.js';
import { HOSTILE_PATHS } from '../fixtures/hostile-paths.js';
import { EMPTY_SHA, TIME, bundleOf, bundleText, file } from '../helpers/bundles.js';
import { bundleTools, refusal, snapshot, write } from './tools.js';

const { freshTool, usageOf } = bundleTools();

interface HostileCase {
  name: string;
  bundle: () => Promise<string | Blob> | string | Blob;
  code: 'invalid_bundle' | 'too_large';
  /** Fragments the message must contain (the entry it names, the reason). */
  says: string[];
  options?: ImportBundleOptions;
}

const one = async (path: string, content = 'x'): Promise<string> => bundleText([await file(path, content)]);
const raw = (entry: Record<string, unknown>): string => bundleText([entry]);
const top = (fields: Record<string, unknown>): string =>
  JSON.stringify({ format: 'claude-memory-bundle', version: 1, exportedAt: TIME, files: [], folders: [], ...fields });

const HOSTILE: HostileCase[] = [
  { name: 'a .. traversal', bundle: () => one('/memories/../etc/passwd'), code: 'invalid_bundle', says: ['files[0] "/memories/../etc/passwd"', 'escape'] },
  { name: 'a traversal out of a subfolder', bundle: () => one('/memories/notes/../../secret.md'), code: 'invalid_bundle', says: ['files[0]', 'escape'] },
  { name: 'a percent-encoded traversal', bundle: () => one('/memories/%2e%2e/secret.md'), code: 'invalid_bundle', says: ['files[0]', 'percent-escape'] },
  { name: 'a double-encoded traversal', bundle: () => one('/memories/%252e%252e/secret.md'), code: 'invalid_bundle', says: ['percent-escape'] },
  { name: 'an overlong UTF-8 traversal', bundle: () => one('/memories/%c0%ae%c0%ae/secret.md'), code: 'invalid_bundle', says: ['percent-escape'] },
  { name: 'a backslash traversal', bundle: () => one('/memories/notes\\..\\..\\secret.md'), code: 'invalid_bundle', says: ['backslash'] },
  { name: 'a NUL character, shown escaped', bundle: () => one('/memories/a\u0000b.md'), code: 'invalid_bundle', says: ['files[0] "/memories/a\\u0000b.md"', 'control character'] },
  { name: 'a line separator', bundle: () => one('/memories/a\u2028b.md'), code: 'invalid_bundle', says: ['control character'] },
  { name: 'full-width dots', bundle: () => one('/memories/\uff0e\uff0e/secret.md'), code: 'invalid_bundle', says: ['looks like'] },
  { name: 'a division-slash lookalike', bundle: () => one('/memories/a\u2215b.md'), code: 'invalid_bundle', says: ['looks like'] },
  { name: 'a zero-width character', bundle: () => one('/memories/a\u200bb.md'), code: 'invalid_bundle', says: ['invisible'] },
  { name: 'a bidi override', bundle: () => one('/memories/\u202egnp.md'), code: 'invalid_bundle', says: ['invisible'] },
  { name: 'an absolute path outside /memories', bundle: () => one('/etc/passwd'), code: 'invalid_bundle', says: ['must start with /memories'] },
  { name: 'a /memoriesX lookalike root', bundle: () => one('/memoriesX/a.md'), code: 'invalid_bundle', says: ['must start with /memories'] },
  { name: 'a relative path', bundle: () => one('memories/a.md'), code: 'invalid_bundle', says: ['must start with /memories'] },
  { name: 'the root as a file', bundle: () => one('/memories'), code: 'invalid_bundle', says: ['files[0] "/memories"', 'root'] },
  { name: 'the root spelled /memories//./ as a file', bundle: () => one('/memories//./'), code: 'invalid_bundle', says: ['root'] },
  { name: 'the root listed as a folder', bundle: () => bundleText([], ['/memories/']), code: 'invalid_bundle', says: ['folders[0]', 'root'] },
  {
    name: 'the same path twice',
    bundle: async () => bundleText([await file('/memories/a.md', '1'), await file('/memories/a.md', '2')]),
    code: 'invalid_bundle',
    says: ['files[1] "/memories/a.md"', 'same path as files[0]'],
  },
  {
    name: 'a // spelling of a path already in the bundle',
    bundle: async () => bundleText([await file('/memories/x/a.md', '1'), await file('/memories//x/./a.md/', '2')]),
    code: 'invalid_bundle',
    says: ['files[1]', 'same path as files[0] "/memories/x/a.md"'],
  },
  {
    name: 'NFC and NFD spellings of one name',
    bundle: async () => bundleText([await file('/memories/caf\u00e9.md', '1'), await file('/memories/cafe\u0301.md', '2')]),
    code: 'invalid_bundle',
    says: ['files[1]', 'same path as files[0]'],
  },
  {
    name: 'a file below a file of the bundle',
    bundle: async () => bundleText([await file('/memories/a.md', '1'), await file('/memories/a.md/b.md', '2')]),
    code: 'invalid_bundle',
    says: ['files[1] "/memories/a.md/b.md"', 'lies below files[0] "/memories/a.md", which is a file'],
  },
  {
    name: 'a file above a file listed earlier',
    bundle: async () => bundleText([await file('/memories/a/b.md', '1'), await file('/memories/a', '2')]),
    code: 'invalid_bundle',
    says: ['files[1] "/memories/a"', 'files[0] "/memories/a/b.md" lies below it'],
  },
  {
    name: 'a file below a file of the memory',
    bundle: () => one('/memories/base.md/x.md'),
    code: 'invalid_bundle',
    says: ['files[0] "/memories/base.md/x.md"', 'below "/memories/base.md", which is a file in the memory'],
  },
  { name: 'a file where the memory has a folder', bundle: () => one('/memories/notes'), code: 'invalid_bundle', says: ['files[0]', 'folder of that path exists'] },
  {
    name: 'a folder that is also a file of the bundle',
    bundle: async () => bundleText([await file('/memories/a.md', '1')], ['/memories/a.md']),
    code: 'invalid_bundle',
    says: ['folders[0] "/memories/a.md"', 'files[0] "/memories/a.md" is a file'],
  },
  { name: 'a folder that is a file of the memory', bundle: () => bundleText([], ['/memories/base.md']), code: 'invalid_bundle', says: ['folders[0]', 'file of that path exists'] },
  { name: 'a folder that is not a string', bundle: () => bundleText([], [7]), code: 'invalid_bundle', says: ['folders[0]', 'a path string, got 7'] },
  { name: 'a traversal in a folder', bundle: () => bundleText([], ['/memories/../x']), code: 'invalid_bundle', says: ['folders[0]', 'escape'] },
  { name: 'number content', bundle: () => raw({ path: '/memories/a.md', content: 42, createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['files[0] "/memories/a.md"', '"content" must be a string, got 42'] },
  { name: 'null content', bundle: () => raw({ path: '/memories/a.md', content: null, createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['"content" must be a string, got null'] },
  { name: 'array content', bundle: () => raw({ path: '/memories/a.md', content: ['x'], createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['"content" must be a string, got an array'] },
  { name: 'missing content', bundle: () => raw({ path: '/memories/a.md', createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['"content" must be a string, got nothing'] },
  { name: 'a missing path', bundle: () => raw({ content: '', createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['files[0]: "path" must be a path string'] },
  { name: 'an entry that is a string', bundle: () => bundleText(['/memories/a.md']), code: 'invalid_bundle', says: ['files[0]: an entry must be an object'] },
  { name: 'an upper-case sha256', bundle: () => raw({ path: '/memories/a.md', content: '', createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA.toUpperCase() }), code: 'invalid_bundle', says: ['"sha256" must be 64 lowercase hex digits'] },
  {
    name: 'a sha256 that does not match the content',
    bundle: async () => bundleText([await file('/memories/ok.md', 'ok'), { ...(await file('/memories/bad.md', 'original')), content: 'tampered' }]),
    code: 'invalid_bundle',
    says: ['files[1] "/memories/bad.md"', 'does not match its content'],
  },
  {
    name: 'a bad sha256 before a bad path, reported in bundle order',
    bundle: async () => bundleText([{ ...(await file('/memories/bad.md', 'original')), content: 'tampered' }, await file('/memories/../x', '')]),
    code: 'invalid_bundle',
    says: ['files[0] "/memories/bad.md"', 'does not match'],
  },
  { name: 'a createdAt that is not a date', bundle: () => raw({ path: '/memories/a.md', content: '', createdAt: 'yesterday', updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['"createdAt" must be an ISO 8601 date-time string with its zone', 'got "yesterday"'] },
  { name: 'an unknown format', bundle: () => top({ format: 'zip' }), code: 'invalid_bundle', says: ['"format" must be "claude-memory-bundle", got "zip"'] },
  { name: 'a missing format', bundle: () => top({ format: undefined }), code: 'invalid_bundle', says: ['got nothing'] },
  { name: 'a future version 2', bundle: () => top({ version: 2 }), code: 'invalid_bundle', says: ['version 2', 'reads version 1'] },
  { name: 'a version that is a string', bundle: () => top({ version: '1' }), code: 'invalid_bundle', says: ['"version" must be a positive integer, got "1"'] },
  { name: 'files that are not an array', bundle: () => top({ files: {} }), code: 'invalid_bundle', says: ['"files" must be an array, got an object'] },
  {
    name: 'truncated JSON',
    bundle: async () => {
      const text = await bundleOf({ '/memories/a.md': 'a', '/memories/b.md': 'b' });
      return text.slice(0, Math.floor(text.length / 2));
    },
    code: 'invalid_bundle',
    says: ['not valid JSON, or it was cut short'],
  },
  { name: 'text that is not JSON', bundle: () => 'hello, memory', code: 'invalid_bundle', says: ['not valid JSON'] },
  { name: 'an empty input', bundle: () => new Blob([]), code: 'invalid_bundle', says: ['not valid JSON'] },
  { name: 'bytes that are not UTF-8', bundle: () => new Blob([new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])]), code: 'invalid_bundle', says: ['not valid UTF-8'] },
  { name: 'an array at the top level', bundle: () => '[]', code: 'invalid_bundle', says: ['top level must be a JSON object, got an array'] },
  { name: 'null at the top level', bundle: () => 'null', code: 'invalid_bundle', says: ['top level must be a JSON object, got null'] },
  {
    name: 'a top-level __proto__ that carries the whole bundle',
    bundle: () => `{"__proto__": ${top({})}}`,
    code: 'invalid_bundle',
    says: ['"format" must be "claude-memory-bundle", got nothing'],
  },
  {
    name: 'a file entry whose __proto__ carries the content and hash',
    bundle: async () => {
      const inner = await file('/memories/p.md', 'p');
      return bundleText([JSON.parse(`{"path": "/memories/p.md", "__proto__": ${JSON.stringify(inner)}}`)]);
    },
    code: 'invalid_bundle',
    says: ['files[0] "/memories/p.md"', '"content" must be a string, got nothing'],
  },
  { name: 'a file over the per-file limit', bundle: () => one('/memories/big.md', 'x'.repeat(1001)), code: 'too_large', says: ['files[0] "/memories/big.md"', '1001 bytes, over the limit of 1000'] },
  { name: 'a file over the per-file limit in UTF-8 only', bundle: () => one('/memories/big.md', '\u00e9'.repeat(501)), code: 'too_large', says: ['1002 bytes'] },
  {
    name: 'more files than the memory may hold',
    bundle: async () => bundleText(await Promise.all(Array.from({ length: 9 }, (_, i) => file(`/memories/n${i}.md`, 'n')))),
    code: 'too_large',
    says: ['files[8] "/memories/n8.md"', 'would hold 11 files, over its limit of 10'],
  },
  {
    name: 'more bytes than the memory may hold',
    bundle: async () => bundleText(await Promise.all(Array.from({ length: 5 }, (_, i) => file(`/memories/n${i}.md`, 'n'.repeat(900))))),
    code: 'too_large',
    says: ['files[4] "/memories/n4.md"', 'over its limit of 4000 bytes'],
  },
  { name: 'a traversal even in replace mode', bundle: () => one('/memories/../x'), code: 'invalid_bundle', says: ['escape'], options: { mode: 'replace' } },
  { name: 'a bad hash even in replace mode', bundle: () => raw({ path: '/memories/a.md', content: 'a', createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['does not match'], options: { mode: 'replace' } },
];

describe('importBundle refuses a hostile or broken bundle and changes nothing', () => {
  const LIMITS = { maxFileBytes: 1000, maxTotalBytes: 4000, maxFiles: 10 };

  it('has a corpus of at least 25 cases', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(25);
  });

  it.each(HOSTILE)('refuses $name', async ({ bundle, code, says, options }) => {
    const tool = await freshTool(LIMITS);
    await write(tool, '/memories/base.md', 'base\n');
    await write(tool, '/memories/notes/keep.md', 'keep me\n');
    const before = await snapshot(tool);
    const usage = await usageOf(tool);
    const input = await bundle();
    for (const dryRun of [true, false]) {
      const error = await refusal(tool.importBundle(input, { ...options, dryRun }));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(/^Cannot import the bundle: .*\. Nothing was changed\.$/su);
      for (const fragment of says) expect(error.message).toContain(fragment);
      expect(error.message).not.toMatch(/[\u0000-\u001f\u200b\u202e\u2028]/u);
    }
    expect(await snapshot(tool)).toBe(before);
    expect(await usageOf(tool)).toEqual(usage);
  });

  it('refuses every hostile path of the shared fixture as a file path and as a folder path', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/base.md', 'base\n');
    const before = await snapshot(tool);
    for (const path of HOSTILE_PATHS) {
      for (const input of [await one(path), bundleText([], [path])]) {
        const error = await refusal(tool.importBundle(input, { mode: 'replace' }));
        expect(error.code, JSON.stringify(path)).toBe('invalid_bundle');
      }
    }
    expect(await snapshot(tool)).toBe(before);
  }, 300_000);

  it('refuses input that is neither a Blob nor a string', async () => {
    const tool = await freshTool();
    const error = await refusal(tool.importBundle(42 as unknown as string));
    expect(error.code).toBe('invalid_bundle');
    expect(error.message).toContain('must be a Blob, a File or a string, got 42');
  });
});


describe('a refusal shows every string it echoes with its hidden characters written out', () => {
  const HIDDEN = /[\p{Default_Ignorable_Code_Point}]/u;
  // Tag characters (an invisible "AB") and a bidi isolate: each refused by the path validator.
  const path = '/memories/a\u{e0041}\u{e0042}\u2067.md';
  const shown = '"/memories/a\\u{e0041}\\u{e0042}\\u2067.md"';

  it('names a bundle path of tag characters and a bidi control by escapes, as a file and as a folder', async () => {
    const tool = await freshTool();
    const cases = [
      { input: bundleText([await file(path, 'x')]), says: `files[0] ${shown}: ` },
      { input: bundleText([], [path]), says: `folders[0] ${shown}: ` },
    ];
    for (const { input, says } of cases) {
      const error = await refusal(tool.importBundle(input));
      expect(error.code).toBe('invalid_bundle');
      expect(error.message).toContain(says);
      expect(error.message).toContain('it holds an invisible character');
      expect(error.message).not.toMatch(HIDDEN);
    }
  });

  it('shows a field value, the JSON parser\'s words and a path of the memory the same way', async () => {
    const tool = await freshTool();
    // A subdivision flag is a valid name, and its tag characters are shown written out all the same.
    const flag = '/memories/\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}.md';
    const flagShown = '"/memories/\u{1f3f4}\\u{e0067}\\u{e0062}\\u{e0073}\\u{e0063}\\u{e0074}\\u{e007f}.md';
    await write(tool, flag, 'a flag\n');
    const cases = [
      {
        input: bundleText([{ ...(await file('/memories/a.md', '')), createdAt: `x\u{e0041}\u202e` }]),
        says: 'from year 1 to 9999 in UTC, got "x\\u{e0041}\\u202e"',
      },
      { input: `{"format": x\u{e0041}\u2067}`, says: 'not valid JSON' },
      { input: await bundleOf({ [`${flag}/below.md`]: 'x' }), says: `lies below ${flagShown}", which is a file in the memory` },
    ];
    for (const { input, says } of cases) {
      const error = await refusal(tool.importBundle(input));
      expect(error.message).toContain(says);
      expect(error.message).not.toMatch(HIDDEN);
    }
  });

  it('quotes a path with its quotes escaped, and cuts a long one between two escapes', async () => {
    const tool = await freshTool();
    const quoted = await refusal(tool.importBundle(bundleText([{ ...(await file('/memories/say "hi".md', '')), sha256: 'x' }])));
    expect(quoted.message).toContain('files[0] "/memories/say \\"hi\\".md": "sha256" must be 64 lowercase hex digits');
    const long = await refusal(tool.importBundle(bundleText([], [`/memories/${'\u200b'.repeat(100)}`])));
    expect(long.message).toMatch(/^Cannot import the bundle: folders\[0\] "\/memories\/(?:\\u200b)+… \(\d+ more characters\)": /u);
    expect(long.message).not.toMatch(HIDDEN);
  });
});
