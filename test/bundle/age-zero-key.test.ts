// X25519 keys whose first byte is zero, which WebKitGTK's WebCrypto refuses to import (1 random key in 256): an
// identity given as such a key opens its bundles, and an export whose random ephemeral key is one still succeeds.
// Both fail in WebKit without src/bundle/age-zero-key.ts; the other engines show the answers are the same.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEAL_TRIES, sealRetrying, zeroSafeIdentity } from '../../src/bundle/age-zero-key.js';
import { ZERO_FIRST_KEY, keyPair } from './age-files.js';
import { EXPORTED_AT, bundleTools, snapshot, write } from './tools.js';

const { freshTool } = bundleTools();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('zeroSafeIdentity', () => {
  it('gives a zero-first key as the same key with that byte 1, and every other text as it came', () => {
    expect(zeroSafeIdentity(ZERO_FIRST_KEY.secret)).toBe(ZERO_FIRST_KEY.same);
    expect(zeroSafeIdentity(ZERO_FIRST_KEY.same)).toBe(ZERO_FIRST_KEY.same);
    const unchanged = [
      ZERO_FIRST_KEY.secret.replace(/.$/u, (last) => (last === 'Q' ? 'P' : 'Q')), // its checksum broken
      ZERO_FIRST_KEY.secret.slice(0, 20) + ZERO_FIRST_KEY.secret.slice(20).toLowerCase(), // mixed case
      ZERO_FIRST_KEY.secret.replace('AGE-SECRET-KEY-1', 'AGE-SECRET-KEY-PQ-1'),
      `${ZERO_FIRST_KEY.secret}Q`,
      'AGE-SECRET-KEY-1',
      'not a key at all',
    ];
    for (const text of unchanged) expect(zeroSafeIdentity(text)).toBe(text);
  });
});

describe('an encrypted bundle and a zero-first X25519 key', () => {
  it('opens with that key as its identity, in every engine', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/prefs.md', 'Prefers green tea.\n');
    const age = await tool.exportBundle({ recipients: [ZERO_FIRST_KEY.recipient], exportedAt: EXPORTED_AT });
    const other = await freshTool();
    const report = await other.importBundle(age, { identity: `# public key: ${ZERO_FIRST_KEY.recipient}\n${ZERO_FIRST_KEY.secret}\n` });
    expect(report.addedPaths).toEqual(['/memories/prefs.md']);
    expect(await snapshot(other)).toBe(await snapshot(tool));
  });

  it('is exported even when the export’s first ephemeral key starts with a zero byte', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/prefs.md', 'Prefers green tea.\n');
    const alice = await keyPair();
    const draw = crypto.getRandomValues.bind(crypto);
    let zeroed = 0;
    // The first 32-byte draw is the ephemeral X25519 key (the file key and nonces are 16 bytes).
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      draw(array as unknown as Uint8Array<ArrayBuffer>);
      if (zeroed === 0 && array instanceof Uint8Array && array.length === 32) {
        array[0] = 0;
        zeroed += 1;
      }
      return array;
    });
    const age = await tool.exportBundle({ recipients: [alice.recipient], exportedAt: EXPORTED_AT });
    vi.restoreAllMocks();
    expect(zeroed).toBe(1);
    const other = await freshTool();
    await other.importBundle(age, { identity: alice.identityFile });
    expect(await snapshot(other)).toBe(await snapshot(tool));
  });
});

describe('sealRetrying', () => {
  const refusedKey = () => new DOMException('Data provided to an operation does not meet requirements', 'DataError');

  it('tries again after a DataError, at most SEAL_TRIES times, and throws anything else at once', async () => {
    let calls = 0;
    await expect(sealRetrying(async () => (++calls < 3 ? Promise.reject(refusedKey()) : 'sealed'))).resolves.toBe('sealed');
    expect(calls).toBe(3);
    calls = 0;
    await expect(sealRetrying(async () => { calls += 1; throw refusedKey(); })).rejects.toThrow(/does not meet/u);
    expect(calls).toBe(SEAL_TRIES);
    calls = 0;
    await expect(sealRetrying(async () => { calls += 1; throw new TypeError('bad recipient'); })).rejects.toThrow(TypeError);
    expect(calls).toBe(1);
  });
});
