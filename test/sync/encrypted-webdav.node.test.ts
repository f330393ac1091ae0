// End-to-end encrypted WebDAV through Debian's Apache httpd with mod_dav on loopback: two devices converge, and no
// byte on Apache's disk holds a text or a name in the clear; a wrong passphrase, a plain device on an encrypted folder
// and encryption on a plain folder change nothing on either side; a passphrase change keeps both devices working.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncRemote } from '../../src/sync/remote.js';
import { KEY_FILE } from '../../src/sync/remotes/webdav-crypto-keys.js';
import { changeWebdavPassphrase } from '../../src/sync/remotes/webdav-passphrase.js';
import { encryptedFolder, TEST_ITERATIONS, type EncryptedFolder } from '../helpers/encrypted-webdav.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { device as openDevice, files, write } from '../helpers/sync-devices.js';
import { dumpStores } from '../helpers/store-dump.js';
import { startApacheWebdav, type ApacheWebdav } from '../servers/apache-webdav.js';

const open = toolsClosedAfterEach('e2ee-apache');
let dav: ApacheWebdav;

beforeAll(async () => {
  dav = await startApacheWebdav();
}, 300_000);
afterAll(async () => {
  await dav?.stop();
});

const device = (remote: SyncRemote) => openDevice(open, remote);

/** Apache's disk as one comparable text: every path and its bytes. */
async function diskDump(folder: EncryptedFolder): Promise<string> {
  return JSON.stringify([...(await folder.disk())].map(([path, bytes]) => [path, bytes.toString('base64')]).sort());
}

/** Texts and names with characters base64 and hex never hold (a space, `-`, `.`, an umlaut), so no chance match. */
const TEXTS: Record<string, string> = {
  '/Reise-Pläne/Lisbon trip.md': 'Alice flies to Lisbon on 12 May; the key is under the mat.\n',
  '/people/Bob Smith.md': 'Bob prefers tea, never coffee. Allergic to peanuts.\n',
  '/todo.md': 'buy a lamp — the blue one\n',
};
const SECRETS = [
  ...Object.values(TEXTS).flatMap((text) => text.split('\n').filter((line) => line !== '')),
  ...Object.keys(TEXTS).flatMap((path) => path.split('/').filter((segment) => segment !== '')),
  'the key is under the mat',
  'correct horse battery',
];

describe('an encrypted folder on Apache mod_dav', () => {
  it('two devices with one passphrase converge, and no file on Apache\'s disk holds a text or a name in the clear', async () => {
    const folder = await encryptedFolder(dav);
    const [a, b] = [await device(folder.handle('correct horse battery')), await device(folder.handle('correct horse battery'))];
    for (const [path, text] of Object.entries(TEXTS)) await write(a.tool, path, text);
    await write(b.tool, '/from b.md', 'written on the second device\n');
    for (const { sync } of [a, b, a]) await sync.syncNow();
    await b.tool.rename({ command: 'rename', old_path: '/memories/todo.md', new_path: '/memories/done/todo.md' });
    await write(a.tool, '/people/Bob Smith.md', `${TEXTS['/people/Bob Smith.md'] ?? ''}Lives in Porto.\n`);
    for (const { sync } of [a, b, a, b]) await sync.syncNow();
    const agreed = await files(a.tool);
    expect(await files(b.tool)).toEqual(agreed);
    expect(Object.keys(agreed).sort()).toEqual(['/Reise-Pläne/Lisbon trip.md', '/done/todo.md', '/from b.md', '/people/Bob Smith.md']);
    for (const { sync } of [a, b]) expect(sync.status().error).toBeNull();

    const disk = await folder.disk();
    const names = [...disk.keys()].filter((path) => !path.includes('/.DAV/'));
    expect(names.filter((path) => path !== KEY_FILE).every((path) => /^\/[0-9a-f]{64}$/.test(path))).toBe(true);
    expect(names).toHaveLength(5);
    const words = [...SECRETS, 'written on the second device', 'from b', 'Lives in Porto', 'done'];
    for (const [path, bytes] of disk) {
      for (const word of words) {
        expect(path.includes(word), `${path} names ${word}`).toBe(false);
        expect(bytes.includes(Buffer.from(word, 'utf8')), `${path} holds ${word}`).toBe(false);
      }
    }
  });

  it('a wrong passphrase changes nothing on either side, and says so', async () => {
    const folder = await encryptedFolder(dav);
    const a = await device(folder.handle('correct horse battery'));
    await write(a.tool, '/todo.md', 'buy a lamp\n');
    await a.sync.syncNow();
    const b = await device(folder.handle('wrong horse'));
    await write(b.tool, '/mine.md', 'only on b\n');
    const before = { there: await diskDump(folder), here: await dumpStores(b.tool.dbName) };
    await b.sync.syncNow().catch(() => undefined);
    expect(b.sync.status().error).toMatchObject({ kind: 'auth', message: expect.stringMatching(/wrong passphrase/) });
    expect(await diskDump(folder)).toBe(before.there);
    expect(await dumpStores(b.tool.dbName)).toBe(before.here);
  });

  it('a device without encryption on an encrypted folder changes nothing on either side, and says so', async () => {
    const folder = await encryptedFolder(dav);
    const a = await device(folder.handle('correct horse battery'));
    await write(a.tool, '/todo.md', 'buy a lamp\n');
    await a.sync.syncNow();
    const plain = await device(folder.handle(null));
    await write(plain.tool, '/mine.md', 'only here\n');
    const before = { there: await diskDump(folder), here: await dumpStores(plain.tool.dbName) };
    await plain.sync.syncNow().catch(() => undefined);
    expect(plain.sync.status().error).toMatchObject({ kind: 'auth', message: expect.stringMatching(/end-to-end encrypted/) });
    expect(await diskDump(folder)).toBe(before.there);
    expect(await dumpStores(plain.tool.dbName)).toBe(before.here);
  });

  it('encryption on a plain folder that holds files changes nothing on either side, and says so', async () => {
    const folder = await encryptedFolder(dav);
    const plain = await device(folder.handle(null));
    await write(plain.tool, '/todo.md', 'buy a lamp\n');
    await plain.sync.syncNow();
    const sealed = await device(folder.handle('correct horse battery'));
    await write(sealed.tool, '/mine.md', 'only here\n');
    const before = { there: await diskDump(folder), here: await dumpStores(sealed.tool.dbName) };
    await sealed.sync.syncNow().catch(() => undefined);
    expect(sealed.sync.status().error).toMatchObject({ kind: 'protocol', message: expect.stringMatching(/not encrypted/) });
    expect(await diskDump(folder)).toBe(before.there);
    expect(await dumpStores(sealed.tool.dbName)).toBe(before.here);
  });

  it('a passphrase change re-wraps the key only, and both devices keep working; a new one needs the new passphrase', async () => {
    const folder = await encryptedFolder(dav);
    const [a, b] = [await device(folder.handle('old words')), await device(folder.handle('old words'))];
    await write(a.tool, '/todo.md', 'buy a lamp\n');
    await a.sync.syncNow();
    await b.sync.syncNow();
    const sealedFiles = async () =>
      [...(await folder.disk())].filter(([path]) => /^\/[0-9a-f]{64}$/.test(path)).map(([path, bytes]) => [path, bytes.toString('base64')]);
    const filesBefore = await sealedFiles();
    const options = { url: folder.url, username: dav.username, password: dav.password };
    await expect(
      changeWebdavPassphrase({ ...options, encryption: { passphrase: 'guess', iterations: TEST_ITERATIONS } }, 'new words'),
    ).rejects.toMatchObject({ kind: 'auth' });
    await changeWebdavPassphrase({ ...options, encryption: { passphrase: 'old words', iterations: TEST_ITERATIONS } }, 'new words');
    expect(await sealedFiles()).toEqual(filesBefore);
    await write(a.tool, '/after.md', 'written after the change\n');
    await write(b.tool, '/todo.md', 'buy two lamps\n');
    for (const { sync } of [a, b, a]) await sync.syncNow();
    for (const { sync } of [a, b]) expect(sync.status().error).toBeNull();
    const both = { '/after.md': 'written after the change\n', '/todo.md': 'buy two lamps\n' };
    expect(await files(a.tool)).toEqual(both);
    expect(await files(b.tool)).toEqual(both);
    const stale = await device(folder.handle('old words'));
    await stale.sync.syncNow().catch(() => undefined);
    expect(stale.sync.status().error).toMatchObject({ kind: 'auth' });
    const c = await device(folder.handle('new words'));
    await c.sync.syncNow();
    expect(await files(c.tool)).toEqual(both);
  });
});
