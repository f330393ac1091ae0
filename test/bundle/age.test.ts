// Encrypted bundles (age files) in every engine: exports that decrypt to the plain bundle of the same moment, byte for
// byte, and import back; keys checked (none, the wrong kind, the wrong one, one for a plain bundle), each refusal
// leaving every store as it was; hostile and damaged age files; the options' own checks.

import { Decrypter } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { MAX_SCRYPT_LOG_N, MAX_STANZAS } from '../../src/bundle/age-format.js';
import { zeroSafeIdentity } from '../../src/bundle/age-zero-key.js';
import type { IndexedDBMemoryTool } from '../../src/tool/tool.js';
import { dumpStores } from '../helpers/store-dump.js';
import { expectCode } from '../helpers/tool-calls.js';
import { armored, bytesOf, editedHeader, flippedPayload, isAgeFile, keyPair, toRecipients, withPassphrase } from './age-files.js';
import { EXPORTED_AT, bundleTools, refusal, snapshot, write } from './tools.js';

const { freshTool } = bundleTools();

async function filled(): Promise<IndexedDBMemoryTool> {
  const tool = await freshTool();
  await write(tool, '/memories/notes/plan.md', 'Plan: ship encrypted bundles.\n');
  await write(tool, '/memories/prefs.md', 'Prefers short answers. ünïcödé ✓\n');
  return tool;
}

/** The plain bundle `tool` exports at EXPORTED_AT, as bytes. */
const plainBytes = async (tool: IndexedDBMemoryTool, format: 'json' | 'zip' = 'json') =>
  bytesOf(await tool.exportBundle({ format, exportedAt: EXPORTED_AT }));

/** What `age -d -i` would give: decrypted here by the library, independently of the import. */
async function decrypted(age: Blob, identity: string): Promise<Uint8Array> {
  const decrypter = new Decrypter();
  decrypter.addIdentity(zeroSafeIdentity(identity));
  return decrypter.decrypt(await bytesOf(age));
}

/** Expects `call` to be refused with `code` and a message holding `says`, every store of `tool` as it was. */
async function refusedUnchanged(tool: IndexedDBMemoryTool, call: () => Promise<unknown>, code: string, says: string): Promise<void> {
  const before = await dumpStores(tool.dbName);
  const error = await refusal(call());
  expect(error.code).toBe(code);
  expect(error.message).toContain(says);
  expect(error.message).toContain('Nothing was changed.');
  expect(await dumpStores(tool.dbName)).toBe(before);
}

describe('an encrypted export', () => {
  it('with a passphrase is an age file (scrypt 2^18) that imports back with it', async () => {
    const tool = await filled();
    const age = await tool.exportBundle({ passphrase: 'correct horse battery staple', exportedAt: EXPORTED_AT });
    expect(await isAgeFile(age)).toBe(true);
    expect(await age.slice(0, 200).text()).toMatch(/^age-encryption\.org\/v1\n-> scrypt \S+ 18\n/u);
    // Byte for byte against the plain bundle: test/bundle/age-cli.node.test.ts, by the system age (each scrypt is slow).
    const other = await freshTool();
    const report = await other.importBundle(age, { passphrase: 'correct horse battery staple' });
    expect(report.addedPaths).toEqual(['/memories/notes/plan.md', '/memories/prefs.md']);
    expect(await snapshot(other)).toBe(await snapshot(tool));
  });

  it('to recipients opens with any one of their identities, JSON and zip alike, and holds no byte of the text', async () => {
    const tool = await filled();
    const [alice, bob] = [await keyPair(), await keyPair()];
    for (const format of ['json', 'zip'] as const) {
      const age = await tool.exportBundle({ format, recipients: [alice.recipient, bob.recipient], exportedAt: EXPORTED_AT });
      expect(await age.slice(0, 200).text()).toMatch(/^age-encryption\.org\/v1\n-> X25519 /u);
      expect(await age.text()).not.toContain('ship encrypted');
      expect(await decrypted(age, bob.secret)).toEqual(await plainBytes(tool, format));
      const other = await freshTool();
      await other.importBundle(age, { identity: alice.identityFile });
      // A zip keeps modification times to the second and no creation time.
      const timeless = (text: string) => text.replace(/"(?:created|updated)At":"[^"]*"/gu, '');
      expect(timeless(await snapshot(other))).toBe(timeless(await snapshot(tool)));
    }
  });

  it('refuses unknown options, a passphrase with recipients, an empty passphrase and a recipient that is not one', async () => {
    const tool = await filled();
    await expect(tool.exportBundle({ passphrse: 'x' } as never)).rejects.toThrow(/Unknown option `passphrse`.*passphrase/u);
    await expect(tool.exportBundle({ passphrase: 'x', recipients: ['age1x'] })).rejects.toThrow(TypeError);
    await expect(tool.exportBundle({ passphrase: '' })).rejects.toThrow(/non-empty/u);
    await expect(tool.exportBundle({ recipients: [] })).rejects.toThrow(/non-empty array/u);
    await expect(tool.exportBundle({ recipients: ['age1nope'] })).rejects.toThrow(/recipients\[0\] is not an age recipient/u);
  });
});

describe('importing an age file', () => {
  it('opens one made elsewhere with a passphrase, to a recipient (the bare key line too), or armored', async () => {
    const source = await filled();
    const plain = await source.exportBundle({ exportedAt: EXPORTED_AT });
    const { identityFile, secret, recipient } = await keyPair();
    const cases: [Blob | string, { passphrase?: string; identity?: string }][] = [
      [await withPassphrase(plain, 'pass phrase'), { passphrase: 'pass phrase' }],
      [await toRecipients(plain, [recipient]), { identity: identityFile }],
      [await toRecipients(plain, [recipient]), { identity: `  ${secret}  ` }],
      [await armored(await withPassphrase(plain, 'pass phrase')), { passphrase: 'pass phrase' }],
      [new Blob([await armored(await toRecipients(plain, [recipient]))]), { identity: secret, passphrase: 'unused' }],
    ];
    for (const [age, keys] of cases) {
      const tool = await freshTool();
      expect((await tool.importBundle(age, keys)).added).toBe(2);
      expect(await snapshot(tool)).toBe(await snapshot(source));
    }
  });

  it('runs every bundle check on what it decrypts: a damaged bundle inside is refused as one in the clear', async () => {
    const tool = await filled();
    const inside = '{"format":"claude-memory-bundle","version":1,"files":[{"path":"/memories/../x","content":"x"}]}';
    await refusedUnchanged(tool, async () => tool.importBundle(await withPassphrase(inside, 'p'), { passphrase: 'p' }), 'invalid_bundle', 'files[0]');
  });

  it('without a key says that one is needed, and with the wrong kind says which it needs, changing nothing', async () => {
    const tool = await filled();
    const plain = await tool.exportBundle();
    const { identityFile, recipient } = await keyPair();
    const byPassphrase = await withPassphrase(plain, 'p');
    const toKey = await toRecipients(plain, [recipient]);
    await refusedUnchanged(tool, async () => tool.importBundle(byPassphrase), 'key_needed', 'give the passphrase or the identity');
    await refusedUnchanged(tool, async () => tool.importBundle(toKey, { dryRun: true }), 'key_needed', 'give the passphrase or the identity');
    await refusedUnchanged(tool, async () => tool.importBundle(byPassphrase, { identity: identityFile }), 'key_needed', 'encrypted with a passphrase, and none was given');
    await refusedUnchanged(tool, async () => tool.importBundle(toKey, { passphrase: 'p' }), 'key_needed', 'give the identity that opens it');
  });

  it('with the wrong passphrase or identity is refused as wrong_key, every store unchanged', async () => {
    const tool = await filled();
    const plain = await (await filled()).exportBundle({ path: '/memories/notes' });
    await write(tool, '/memories/notes/plan.md.bak', 'other\n');
    const { recipient } = await keyPair();
    const stranger = await keyPair();
    await refusedUnchanged(tool, async () => tool.importBundle(await withPassphrase(plain, 'right'), { passphrase: 'wrong', mode: 'replace' }), 'wrong_key', 'the passphrase given does not open it');
    await refusedUnchanged(tool, async () => tool.importBundle(await toRecipients(plain, [recipient]), { identity: stranger.identityFile }), 'wrong_key', 'encrypted to 1 recipient, and no identity given is one of them');
  });

  it('refuses an identity that is not one without echoing it, and a key given for a bundle in the clear', async () => {
    const tool = await filled();
    const age = await toRecipients(await tool.exportBundle(), [(await keyPair()).recipient]);
    const secretish = 'AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ';
    const bad = await refusal(tool.importBundle(age, { identity: `# mine\nhunter2 is my key\n` }));
    expect([bad.code, bad.message.includes('line 2 of the identity'), bad.message.includes('hunter2')]).toEqual(['wrong_key', true, false]);
    const checksum = await refusal(tool.importBundle(age, { identity: secretish }));
    expect([checksum.code, checksum.message.includes('not a valid age secret key'), checksum.message.includes('QQQQ')]).toEqual(['wrong_key', true, false]);
    await expectCode(tool.importBundle(age, { identity: '# only comments\n' }), 'wrong_key');
    await refusedUnchanged(tool, async () => tool.importBundle(await tool.exportBundle(), { passphrase: 'p' }), 'invalid_bundle', 'it is not encrypted');
    await expect(tool.importBundle(age, { identity: 42 } as never)).rejects.toThrow(TypeError);
    await expect(tool.importBundle(age, { pasphrase: 'p' } as never)).rejects.toThrow(/Unknown option `pasphrase`/u);
  });
});

describe('a hostile or damaged age file', () => {
  it(`with a scrypt work factor above 2^${MAX_SCRYPT_LOG_N} is refused before any scrypt runs`, async () => {
    const tool = await filled();
    const age = await editedHeader(await withPassphrase(await tool.exportBundle(), 'p'), (h) => h.replace(/ 10\n/u, ' 60\n'));
    await refusedUnchanged(tool, async () => tool.importBundle(age, { passphrase: 'p' }), 'invalid_bundle', 'scrypt work factor is 2^60');
  });

  it(`with more than ${MAX_STANZAS} recipients is refused before any is tried`, async () => {
    const tool = await filled();
    const age = await editedHeader(await toRecipients('{}', [(await keyPair()).recipient]), (header) => {
      const [version = '', ...stanza] = header.split('\n').filter((line) => line !== '');
      return `${[version, ...Array.from({ length: MAX_STANZAS + 1 }, () => stanza.join('\n'))].join('\n')}\n`;
    });
    await refusedUnchanged(tool, async () => tool.importBundle(age, { identity: (await keyPair()).secret }), 'invalid_bundle', `more than the ${MAX_STANZAS}`);
  });

  it('that is altered, cut short, or not an age file past its first line is refused as damaged', async () => {
    const tool = await filled();
    const age = await withPassphrase(await tool.exportBundle(), 'p');
    const bytes = await bytesOf(age);
    const cases = [
      await flippedPayload(age),
      new Blob([bytes.slice(0, bytes.length - 5)]),
      new Blob(['age-encryption.org/v1\n-> scrypt\n\n--- AAAA\n']),
      new Blob(['age-encryption.org/v1\n\u0001\u0002 garbage without an end']),
      '-----BEGIN AGE ENCRYPTED FILE-----\nnot base64!\n-----END AGE ENCRYPTED FILE-----\n',
    ];
    for (const hostile of cases) await refusedUnchanged(tool, async () => tool.importBundle(hostile, { passphrase: 'p' }), 'invalid_bundle', 'damaged or was altered');
  });

  it('larger than the largest bundle the limits allow is refused on its size, unread; binary age as text is refused', async () => {
    const tool = await freshTool({ maxTotalBytes: 1000, maxFiles: 2 });
    const huge = new Blob(['age-encryption.org/v1\n', new Uint8Array(1024 * 1024 + 6000 + 16384 + 1)]);
    await refusedUnchanged(tool, async () => tool.importBundle(huge, { passphrase: 'p' }), 'too_large', 'nothing was decrypted');
    const text = await (await withPassphrase('{}', 'p')).text();
    await refusedUnchanged(tool, async () => tool.importBundle(text, { passphrase: 'p' }), 'invalid_bundle', 'pass it as a Blob or bytes');
  });
});
