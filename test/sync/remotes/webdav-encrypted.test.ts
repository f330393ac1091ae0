// The encrypted WebDAV remote (src/sync/remotes/webdav-crypto*.ts) over a remote held in memory that acts like a
// WebDAV folder (no ids, no moves), in every engine: what the server holds, two devices, wrong and changed
// passphrases, a plain folder, a hostile key file, a tampered file. Apache's own tests: ../encrypted-webdav.node.test.ts.

import { describe, expect, it } from 'vitest';
import { isSyncRemoteError, type SyncRemote } from '../../../src/sync/remote.js';
import { encryptedRemote } from '../../../src/sync/remotes/webdav-crypto.js';
import { KEY_FILE } from '../../../src/sync/remotes/webdav-crypto-keys.js';
import { rewrapFolderKey } from '../../../src/sync/remotes/webdav-passphrase.js';
import { webdavRemote } from '../../../src/sync/remotes/webdav.js';
import { toolsClosedAfterEach } from '../../helpers/fresh-tool.js';
import { device as openDevice, files, write } from '../../helpers/sync-devices.js';
import { MemoryRemote } from '../../helpers/memory-remote.js';
import { dumpStores } from '../../helpers/store-dump.js';

const open = toolsClosedAfterEach('sync-e2ee');
const HREF = 'https://dav.example/memories/';
/** The fewest iterations a key file may ask for: the tests' PBKDF2 stays short on a busy machine. */
const FAST = { iterations: 100_000 };

const server = () => new MemoryRemote({ ids: false, move: false });
const sealed = (remote: MemoryRemote, passphrase: string): SyncRemote =>
  encryptedRemote(remote.handle(), HREF, { passphrase, ...FAST });

const device = (remote: SyncRemote) => openDevice(open, remote);

async function refusal(promise: Promise<unknown>): Promise<{ kind: string; message: string }> {
  const error: unknown = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!isSyncRemoteError(error)) throw new Error(`expected a SyncRemoteError, got ${String(error)}`);
  return error;
}

const TEXTS = { '/notes/secret plan.md': 'Alice moves to Lisbon in May\n', '/todo.md': 'buy a lamp\n' };

describe('an encrypted WebDAV folder', () => {
  it('holds no text and no name in the clear, and a second device with the passphrase gets every file', async () => {
    const remote = server();
    const a = await device(sealed(remote, 'correct horse'));
    for (const [path, text] of Object.entries(TEXTS)) await write(a.tool, path, text);
    expect((await a.sync.syncNow()).pushed.sort()).toEqual(['/memories/notes/secret plan.md', '/memories/todo.md']);
    const held = remote.snapshot();
    expect(Object.keys(held)).toHaveLength(3);
    expect(Object.keys(held)).toContain(KEY_FILE);
    const everything = JSON.stringify(held);
    for (const word of ['Alice', 'Lisbon', 'lamp', 'notes', 'secret', 'plan', 'todo', '.md', 'correct horse']) {
      expect(everything).not.toContain(word);
    }
    for (const name of Object.keys(held)) if (name !== KEY_FILE) expect(name).toMatch(/^\/[0-9a-f]{64}$/);

    const b = await device(sealed(remote, 'correct horse'));
    await b.sync.syncNow();
    expect(await files(b.tool)).toEqual(TEXTS);
    // Edits, deletes and renames travel back (a rename as a delete and a new file).
    await write(b.tool, '/todo.md', 'buy two lamps\n');
    await b.tool.rename({ command: 'rename', old_path: '/memories/notes/secret plan.md', new_path: '/memories/plan.md' });
    await b.sync.syncNow();
    await a.sync.syncNow();
    expect(await files(a.tool)).toEqual({ '/plan.md': TEXTS['/notes/secret plan.md'], '/todo.md': 'buy two lamps\n' });
    expect(Object.keys(remote.snapshot())).toHaveLength(3);
  });

  it('refuses a wrong passphrase with a clear error before anything changes on either side', async () => {
    const remote = server();
    const a = await device(sealed(remote, 'correct horse'));
    await write(a.tool, '/todo.md', 'buy a lamp\n');
    await a.sync.syncNow();
    const b = await device(sealed(remote, 'wrong horse'));
    await write(b.tool, '/mine.md', 'only here\n');
    const before = { there: JSON.stringify(remote.snapshot()), here: await dumpStores(b.tool.dbName) };
    await b.sync.syncNow().catch(() => undefined);
    expect(b.sync.status().error).toMatchObject({ kind: 'auth' });
    expect(b.sync.status().error?.message).toMatch(/wrong passphrase/);
    expect(JSON.stringify(remote.snapshot())).toBe(before.there);
    expect(await dumpStores(b.tool.dbName)).toBe(before.here);
  });

  it('refuses to encrypt a plain folder that holds files, writing nothing there', async () => {
    const remote = server();
    const plain = await device(remote.handle());
    await write(plain.tool, '/todo.md', 'buy a lamp\n');
    await plain.sync.syncNow();
    const error = await refusal(sealed(remote, 'correct horse').list());
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(/not encrypted/);
    expect(remote.snapshot()).toEqual({ '/todo.md': 'buy a lamp\n' });
  });

  it('keeps both devices working after a passphrase change, which re-uploads no file', async () => {
    const remote = server();
    const a = await device(sealed(remote, 'old words'));
    await write(a.tool, '/todo.md', 'buy a lamp\n');
    await a.sync.syncNow();
    const filesBefore = Object.entries(remote.snapshot()).filter(([name]) => name !== KEY_FILE);
    await rewrapFolderKey(remote.handle(), { passphrase: 'old words', ...FAST }, 'new words');
    expect(Object.entries(remote.snapshot()).filter(([name]) => name !== KEY_FILE)).toEqual(filesBefore);
    // A running device keeps its key; a new one opens with the new passphrase only.
    await write(a.tool, '/more.md', 'after the change\n');
    await a.sync.syncNow();
    expect(a.sync.status().error).toBeNull();
    expect((await refusal(sealed(remote, 'old words').list())).kind).toBe('auth');
    const b = await device(sealed(remote, 'new words'));
    await b.sync.syncNow();
    expect(await files(b.tool)).toEqual({ '/todo.md': 'buy a lamp\n', '/more.md': 'after the change\n' });
  });

  it('refuses a passphrase change with the wrong current passphrase, changing nothing', async () => {
    const remote = server();
    await sealed(remote, 'old words').list();
    const before = JSON.stringify(remote.snapshot());
    const error = await refusal(rewrapFolderKey(remote.handle(), { passphrase: 'guess', ...FAST }, 'new words'));
    expect(error.kind).toBe('auth');
    expect(JSON.stringify(remote.snapshot())).toBe(before);
  });

  it('refuses a key file asking for a huge iteration count before deriving anything', async () => {
    const remote = server();
    await sealed(remote, 'old words').list();
    const keyFile = JSON.parse(remote.snapshot()[KEY_FILE] ?? '') as Record<string, unknown>;
    await remote.handle().write(KEY_FILE, JSON.stringify({ ...keyFile, iterations: 4_000_000_000 }), {
      path: KEY_FILE,
      version: remote.files.get(KEY_FILE)?.version ?? '',
    });
    const error = await refusal(sealed(remote, 'old words').list());
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(/iterations/);
  });

  it('refuses a key file over 4,096 characters before parsing it', async () => {
    const remote = server();
    await remote.handle().write(KEY_FILE, `{"format":"${'x'.repeat(5000)}"}`, null);
    const error = await refusal(sealed(remote, 'old words').list());
    expect(error).toMatchObject({ kind: 'protocol', message: expect.stringMatching(/over 4096 characters/) });
  });

  it('stops a syncing device whose folder key was replaced or whose key file is gone, before it writes', async () => {
    const remote = server();
    const device = sealed(remote, 'old words');
    await device.list();
    const other = server();
    await sealed(other, 'old words').list();
    const handle = remote.handle();
    const current = { path: KEY_FILE, version: remote.files.get(KEY_FILE)?.version ?? '' };
    await handle.write(KEY_FILE, other.snapshot()[KEY_FILE] ?? '', current);
    expect(await refusal(device.list())).toMatchObject({ kind: 'auth', message: expect.stringMatching(/replaced/) });
    await handle.delete({ path: KEY_FILE, version: remote.files.get(KEY_FILE)?.version ?? '' });
    expect(await refusal(device.list())).toMatchObject({ kind: 'auth', message: expect.stringMatching(/gone/) });
    expect(Object.keys(remote.snapshot())).toEqual([]);
  });

  it('leaves alone a file the server swapped under another name, or one not sealed by this key', async () => {
    const remote = server();
    const a = await device(sealed(remote, 'correct horse'));
    for (const [path, text] of Object.entries(TEXTS)) await write(a.tool, path, text);
    await a.sync.syncNow();
    const [first, second] = Object.keys(remote.snapshot()).filter((name) => name !== KEY_FILE);
    const texts = remote.snapshot();
    const handle = remote.handle();
    if (first === undefined || second === undefined) throw new Error('two files expected');
    await handle.write(first, texts[second] ?? '', { path: first, version: remote.files.get(first)?.version ?? '' });
    await handle.write(`/${'0'.repeat(64)}`, 'idb-memory-tool e2ee 1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', null);
    const listed = await sealed(remote, 'correct horse').list();
    expect(listed.filter((file) => file.refused !== undefined).map((file) => file.path).sort()).toEqual(
      [first, `/${'0'.repeat(64)}`].sort(),
    );
  });

  it('refuses unknown options, an empty passphrase and iterations out of range', () => {
    const inner = server().handle();
    expect(() => webdavRemote({ url: HREF, encryptoin: {} } as never)).toThrow(/unknown option `encryptoin`/);
    expect(() => encryptedRemote(inner, HREF, { passphrase: 'x', iteration: 5 } as never)).toThrow(/`iteration`/);
    expect(() => encryptedRemote(inner, HREF, { passphrase: '' })).toThrow(/non-empty/);
    expect(() => encryptedRemote(inner, HREF, { passphrase: 'x', iterations: 1000 })).toThrow(/iterations/);
  });
});
