// An encrypted WebDAV folder on Apache mod_dav for the Node tests: a fresh folder, a handle per device, every byte on
// Apache's disk (the `.DAV` property folders included) for grepping, and the storm's view of it (its files decrypted
// by a device of its own, binaries planted at the root). Node-only; wraps test/servers/apache-webdav.ts.

import { Buffer } from 'node:buffer';
import { chown, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SyncRemote } from '../../src/sync/remote.js';
import { textCapacity } from '../../src/sync/remotes/webdav-crypto-files.js';
import { webdavRemote } from '../../src/sync/remotes/webdav.js';
import { LOOPBACK_TIMEOUT_MS, type ApacheWebdav } from '../servers/apache-webdav.js';
import type { ServerFiles, StormRemote } from './storm-remotes.js';

/** The fewest PBKDF2 iterations a key file may ask for, so the tests derive quickly. */
export const TEST_ITERATIONS = 100_000;

export interface EncryptedFolder {
  url: string;
  /** The folder on Apache's disk. */
  root: string;
  /** A remote on the folder: encrypted with `passphrase`, plain with null. */
  handle(passphrase: string | null, maxFileBytes?: number): SyncRemote;
  /** Every file under the folder on disk, by its path there, as bytes. */
  disk(): Promise<Map<string, Buffer>>;
}

let folders = 0;

export async function encryptedFolder(dav: ApacheWebdav): Promise<EncryptedFolder> {
  const folder = `e2ee-${++folders}`;
  const url = `${dav.url}${folder}/`;
  const root = join(dav.root, folder);
  const basic = `Basic ${Buffer.from(`${dav.username}:${dav.password}`).toString('base64')}`;
  await fetch(url, { method: 'MKCOL', headers: { authorization: basic } });
  return {
    url,
    root,
    handle: (passphrase, maxFileBytes) =>
      webdavRemote({
        url,
        username: dav.username,
        password: dav.password,
        timeoutMs: LOOPBACK_TIMEOUT_MS,
        ...(passphrase === null ? {} : { encryption: { passphrase, iterations: TEST_ITERATIONS } }),
        ...(maxFileBytes === undefined ? {} : { maxFileBytes }),
      }),
    async disk() {
      const out = new Map<string, Buffer>();
      const walk = async (below: string): Promise<void> => {
        for (const entry of await readdir(join(root, below), { withFileTypes: true })) {
          const path = `${below}/${entry.name}`;
          if (entry.isDirectory()) await walk(path);
          else out.set(path, await readFile(join(root, path)));
        }
      };
      await walk('');
      return out;
    },
  };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The storm's view of an encrypted folder: texts as a device with the passphrase reads them (the server holds only
 * sealed files), binaries planted at the root only (the folder is flat). Device 0 is told nothing of Apache's body
 * limit; the others pass it. The limit a text is held to is what fits sealed under the longest path.
 */
export async function encryptedStormRemote(dav: ApacheWebdav, limit: number, passphrase: string): Promise<StormRemote> {
  const folder = await encryptedFolder(dav);
  const reader = folder.handle(passphrase);
  return {
    name: 'encrypted WebDAV',
    limit: textCapacity(limit),
    lockLapseMs: 4 * LOOPBACK_TIMEOUT_MS,
    handle: (index) => folder.handle(passphrase, index === 0 ? undefined : limit),
    async files(): Promise<ServerFiles> {
      const out: ServerFiles = { texts: new Map(), binaries: new Map() };
      for (const file of await reader.list()) {
        if (file.refused === undefined) out.texts.set(file.path, (await reader.read(file)).text);
      }
      for (const [path, bytes] of await folder.disk()) {
        if (path.lastIndexOf('/') !== 0) continue;
        try {
          strictUtf8.decode(bytes);
        } catch {
          out.binaries.set(path, bytes);
        }
      }
      return out;
    },
    async plantBinary(path, bytes) {
      if (path.lastIndexOf('/') !== 0) return false;
      const owner = await stat(folder.root);
      await writeFile(join(folder.root, path), bytes);
      await chown(join(folder.root, path), owner.uid, owner.gid);
      return true;
    },
    writeAsServer: async () => false,
    removeEmptyFolders: async () => undefined,
  };
}
