// Our own SHA-256 (src/bundle/sha256-fallback.ts), used where Web Crypto is missing: the FIPS 180-4 vectors, every
// padding boundary, texts cut into slices at surrogates, and random bytes and texts against Web Crypto's digest.

import { describe, expect, it } from 'vitest';
import { Sha256, TEXT_CHUNK, textHasher } from '../../src/bundle/sha256-fallback.js';
import { sha256 } from '../helpers/bundles.js';

const hex = (bytes: Uint8Array): string => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

/** Web Crypto's SHA-256 of raw bytes: the reference (crypto.subtle in Node and in the pages, which are localhost). */
async function webCrypto(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

/** A small seeded generator (mulberry32), so a failure names inputs that come back. */
function random(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * below);
  };
}

function randomBytes(next: (below: number) => number, length: number): Uint8Array<ArrayBuffer> {
  return Uint8Array.from({ length }, () => next(256));
}

/** A text of `length` UTF-16 units mixing 1-, 2-, 3- and 4-byte characters and lone surrogates. */
function randomText(next: (below: number) => number, length: number): string {
  const units: number[] = [];
  while (units.length < length) {
    const kind = next(10);
    if (kind < 4) units.push(0x20 + next(0x5f));
    else if (kind < 6) units.push(0x80 + next(0x780));
    else if (kind < 8) units.push(0x800 + next(0xd000 - 0x800));
    else if (kind < 9) units.push(0xd800 + next(0x400), 0xdc00 + next(0x400));
    else units.push(0xd800 + next(0x800));
  }
  let text = '';
  // In pieces: engines bound how many arguments a call may take.
  for (let at = 0; at < length; at += 4096) text += String.fromCharCode(...units.slice(at, Math.min(at + 4096, length)));
  return text;
}

describe('the fallback SHA-256', () => {
  const hashText = textHasher();

  it('gives the FIPS 180-4 example digests', () => {
    const vectors: [string, string][] = [
      ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
      [
        'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
        '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
      ],
      [
        'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
        'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
      ],
      ['a'.repeat(1_000_000), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0'],
    ];
    for (const [text, digest] of vectors) expect(hex(hashText(text)), `${text.length} characters`).toBe(digest);
  });

  it('matches Web Crypto on every length from 0 to 200 bytes, across the 55/56 and 63/64-byte padding edges', async () => {
    const next = random(1);
    for (let length = 0; length <= 200; length++) {
      const bytes = randomBytes(next, length);
      const ours = new Sha256();
      ours.update(bytes);
      expect(hex(ours.digest()), `${length} bytes`).toBe(await webCrypto(bytes));
    }
  });

  it('gives the same digest however the bytes are cut into updates', async () => {
    const next = random(2);
    for (const length of [0, 1, 55, 56, 63, 64, 65, 127, 128, 129, 1000, 5000]) {
      const bytes = randomBytes(next, length);
      const expected = await webCrypto(bytes);
      const oneByOne = new Sha256();
      for (let i = 0; i < length; i++) oneByOne.update(bytes.subarray(i, i + 1));
      expect(hex(oneByOne.digest()), `${length} bytes, one at a time`).toBe(expected);
      const pieces = new Sha256();
      for (let at = 0; at < length; ) {
        const end = Math.min(length, at + next(150));
        pieces.update(bytes.subarray(at, end));
        at = end;
      }
      expect(hex(pieces.digest()), `${length} bytes, in random pieces`).toBe(expected);
    }
  });

  it('hashes UTF-8 as TextEncoder writes it: 2-, 3- and 4-byte characters, joiners, and lone surrogates as U+FFFD', async () => {
    const texts = [
      'café', 'ノート.md', '漢字', '😀', '👨‍💻', '🏳️‍🌈', 'می‌خواهم', '\u0000', '\uFEFFbom', '\uFFFD',
      '\uD800', '\uDFFF', 'a\uDC00b', '\uDBFF\uDBFF', '\uDC00\uD800', 'x\uD83D', '\uDE00y',
    ];
    for (const text of texts) expect(hex(hashText(text)), JSON.stringify(text)).toBe(await sha256(text));
  });

  it('matches Web Crypto on texts whose UTF-8 ends around the padding edges, a wide character across each edge', async () => {
    for (const wide of ['é', '漢', '😀', '\uD800']) {
      for (let bytes = 50; bytes <= 136; bytes++) {
        for (let before = 0; before <= 4; before++) {
          // ASCII, then one wide character placed so it ends `before` bytes before the end.
          const width = new TextEncoder().encode(wide).length;
          const ascii = bytes - width - before;
          if (ascii < 0) continue;
          const text = 'a'.repeat(ascii) + wide + 'b'.repeat(before);
          expect(hex(hashText(text)), `${bytes} bytes, ${JSON.stringify(wide)}`).toBe(await sha256(text));
        }
      }
    }
  });

  it('never cuts a surrogate pair between two slices, and keeps lone surrogates at a slice edge U+FFFD', async () => {
    const edge = TEXT_CHUNK;
    const texts = [
      'a'.repeat(edge - 1) + '😀' + 'z',
      'a'.repeat(edge - 1) + '😀',
      'a'.repeat(edge - 2) + '😀😀' + 'z',
      'a'.repeat(edge - 1) + '\uD800' + 'z',
      'a'.repeat(edge - 1) + '\uD800',
      'a'.repeat(edge) + '\uDC00z',
      'a'.repeat(edge - 1) + '\uD800\uD800\uDC00',
      '😀'.repeat(edge + 3),
      '漢'.repeat(3 * edge + 5),
      'é'.repeat(2 * edge),
      'a'.repeat(edge),
      'a'.repeat(edge + 1),
    ];
    for (const text of texts) expect(hex(hashText(text)), `${text.length} units`).toBe(await sha256(text));
  });

  it('matches Web Crypto on random texts, small and spanning several slices', async () => {
    const next = random(3);
    for (let i = 0; i < 300; i++) {
      const length = i % 20 === 0 ? next(4 * TEXT_CHUNK) : next(300);
      const text = randomText(next, length);
      expect(hex(hashText(text)), `random text ${i} (seed 3), ${length} units`).toBe(await sha256(text));
    }
  });

  it('hashes a text of many megabytes through its one small buffer', async () => {
    const text = 'line é 漢 😀\n'.repeat(400_000);
    expect(hex(hashText(text))).toBe(await sha256(text));
    // The hasher keeps its buffer: a second text after a big one hashes on its own bytes.
    expect(hex(hashText('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
