// Hashing without Web Crypto (src/bundle/sha256.ts): with `crypto.subtle` taken away, as on a page served over
// http:// from anything but localhost, or with a digest refused, bundles hash, export, import and refuse as with it.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256All } from '../../src/bundle/sha256.js';
import { bundleText, file, sha256 } from '../helpers/bundles.js';
import { bundleTools, refusal, snapshot, write } from './tools.js';

const { freshTool } = bundleTools();

afterEach(() => {
  vi.unstubAllGlobals();
});

/** What a non-secure context has: `crypto.getRandomValues`, and no `subtle` (nor `randomUUID`). */
function takeSubtleAway(): void {
  const real = globalThis.crypto;
  vi.stubGlobal('crypto', { getRandomValues: real.getRandomValues.bind(real) });
  expect(globalThis.crypto.subtle).toBeUndefined();
}

/** `body` with `crypto.subtle` missing; tools are opened before (their database names use `randomUUID`). */
async function withoutSubtle<T>(body: () => Promise<T>): Promise<T> {
  takeSubtleAway();
  try {
    return await body();
  } finally {
    vi.unstubAllGlobals();
  }
}

const TEXTS = Array.from({ length: 2_050 }, (_, i) => `${i}: ${'é漢😀\uD800'.repeat(i % 97)}\n`);

describe('sha256All without Web Crypto', () => {
  it('gives the same hashes and the same progress steps with crypto.subtle missing as with it', async () => {
    const stepsWith: number[] = [];
    const withSubtle = await sha256All(TEXTS, (done) => stepsWith.push(done));
    const stepsWithout: number[] = [];
    const withoutIt = await withoutSubtle(() => sha256All(TEXTS, (done) => stepsWithout.push(done)));
    expect(withoutIt).toEqual(withSubtle);
    expect(stepsWithout).toEqual([1000, 2000]);
    expect(stepsWith).toEqual(stepsWithout);
    expect(withoutIt.slice(0, 3)).toEqual(await Promise.all(TEXTS.slice(0, 3).map(sha256)));
  });

  it('hashes with no crypto object at all', async () => {
    const expected = await Promise.all(TEXTS.slice(0, 60).map(sha256));
    vi.stubGlobal('crypto', undefined);
    expect(await sha256All(TEXTS.slice(0, 60), () => undefined)).toEqual(expected);
  });

  it('hashes the texts itself when Web Crypto refuses a digest', async () => {
    const expected = await Promise.all(TEXTS.slice(0, 120).map(sha256));
    const real = globalThis.crypto;
    const digest = vi.fn((): Promise<ArrayBuffer> => Promise.reject(new DOMException('refused', 'NotSupportedError')));
    vi.stubGlobal('crypto', { getRandomValues: real.getRandomValues.bind(real), subtle: { digest } });
    expect(await sha256All(TEXTS.slice(0, 120), () => undefined)).toEqual(expected);
    expect(digest).toHaveBeenCalledTimes(120);
  });
});

describe('bundles without Web Crypto', () => {
  it('exports the same bytes, and the export imports back to the same memory', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/notes/todo.md', '- ship it\n');
    await write(tool, '/memories/ノート/漢字.md', 'café 😀 👨‍💻\n'.repeat(3000));
    await write(tool, '/memories/empty.md', '');
    const withSubtle = await snapshot(tool);
    const copy = await freshTool();
    const withoutIt = await withoutSubtle(async () => {
      const text = await snapshot(tool);
      const report = await copy.importBundle(text);
      expect(report.addedPaths).toHaveLength(3);
      return text;
    });
    expect(withoutIt).toBe(withSubtle);
    expect(await snapshot(copy)).toBe(withSubtle);
    const files = (JSON.parse(withoutIt) as { files: { content: string; sha256: string }[] }).files;
    expect(files.map((f) => f.sha256)).toEqual(await Promise.all(files.map((f) => sha256(f.content))));
  });

  it('imports a bundle written with Web Crypto, and a dry run plans it, with crypto.subtle missing', async () => {
    const tool = await freshTool();
    const text = bundleText([await file('/memories/a.md', 'alpha\n'), await file('/memories/b/c.md', '😀\uD800')]);
    await withoutSubtle(async () => {
      expect((await tool.importBundle(text, { dryRun: true })).addedPaths).toEqual(['/memories/a.md', '/memories/b/c.md']);
      await tool.importBundle(text);
    });
    expect(await tool.read('/memories/b/c.md')).toBe('😀\uD800');
  });

  it('refuses a damaged bundle with the same MemoryToolError as with Web Crypto, and changes nothing', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/keep.md', 'kept\n');
    const before = await snapshot(tool);
    const damaged = bundleText([
      await file('/memories/a.md', 'a'),
      { ...(await file('/memories/b.md', 'b')), content: 'edited by hand' },
    ]);
    const withSubtle = await refusal(tool.importBundle(damaged));
    const [withoutIt, notJson, missing] = await withoutSubtle(() =>
      Promise.all([
        refusal(tool.importBundle(damaged)),
        refusal(tool.importBundle('{"format": "claude-memory-bundle",')),
        refusal(tool.exportBundle({ path: '/memories/missing' })),
      ]),
    );
    expect(withoutIt.code).toBe('invalid_bundle');
    expect(withoutIt.message).toBe(withSubtle.message);
    expect(withoutIt.message).toContain(`files[1] "/memories/b.md"`);
    expect(withoutIt.message).toContain(`which hashes to ${await sha256('edited by hand')}`);
    expect(notJson.code).toBe('invalid_bundle');
    expect(missing.code).toBe('not_found');
    expect(await snapshot(tool)).toBe(before);
  });
});
