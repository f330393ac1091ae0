// An end-to-end encrypted WebDAV folder as a SyncRemote (../README.md, "Encrypted WebDAV"): a plain WebDAV remote
// underneath holds, flat at its root, one key file and one sealed file per path; the engine sees the real paths.
// The keys are opened (or the folder made encrypted) on the first listing, which refuses before anything is written.

import { utf8Length } from '../../core/utf8.js';
import { optionHint } from '../../core/option-hint.js';
import { eachLimited } from '../pool.js';
import { SyncRemoteError, isSyncRemoteError } from '../remote.js';
import type { RemoteCallOptions, RemoteFile, SyncRemote } from '../remote.js';
import { shown } from './remote-bounds.js';
import { isSealedName, seal, sealedName, sealedSize, textCapacity, unseal } from './webdav-crypto-files.js';
import {
  DEFAULT_ITERATIONS,
  KEY_FILE,
  MAX_ITERATIONS,
  MIN_ITERATIONS,
  iterationsAllowed,
  keyFileId,
  newKeyFile,
  openKeyFile,
  type MountKeys,
} from './webdav-crypto-keys.js';

/**
 * End-to-end encryption of a WebDAV folder: the server holds no text and no file or folder name in the clear. For
 * WebDAV only; Memory Stores stays plain, as Anthropic's agents must read it.
 */
export interface WebdavEncryption {
  /** Opens the folder's key file; the first device to sync an empty folder makes it with this passphrase. */
  passphrase: string;
  /**
   * PBKDF2-SHA-256 iterations when this device makes the key file (default 600,000; from 100,000 to 2,000,000).
   * A key file that asks for a count outside that range is refused.
   */
  iterations?: number | undefined;
}

const ENCRYPTION_KEYS = ['passphrase', 'iterations'];

/** Checks the `encryption` option (unknown keys refused); the passphrase and the iterations a new key file takes. */
export function encryptionOption(value: WebdavEncryption): { passphrase: string; iterations: number } {
  if (typeof value !== 'object' || value === null) throw new TypeError('webdavRemote: encryption must be an object');
  const unknown = Object.keys(value).find((key) => !ENCRYPTION_KEYS.includes(key));
  if (unknown !== undefined) {
    throw new TypeError(`webdavRemote: unknown encryption option \`${unknown}\`; ${optionHint(unknown, ENCRYPTION_KEYS)}`);
  }
  if (typeof value.passphrase !== 'string' || value.passphrase === '') {
    throw new TypeError('webdavRemote: encryption.passphrase must be a non-empty string');
  }
  const iterations = value.iterations ?? DEFAULT_ITERATIONS;
  if (!iterationsAllowed(iterations)) {
    throw new TypeError(`webdavRemote: encryption.iterations must be a whole number from ${MIN_ITERATIONS} to ${MAX_ITERATIONS}`);
  }
  return { passphrase: value.passphrase, iterations };
}

/** For a plain remote: refuses a listing of an encrypted folder, before the engine reads or writes anything. */
export function refuseKeyFile(files: readonly RemoteFile[]): void {
  if (files.some((file) => file.path === KEY_FILE && file.refused === undefined)) {
    throw new SyncRemoteError(
      'auth',
      `WebDAV: this folder is end-to-end encrypted (it holds ${KEY_FILE}); sync it with encryption: { passphrase }`,
    );
  }
}

const keyFile: RemoteFile = { path: KEY_FILE, version: '' };

/** A SyncRemote that seals every file on `inner` (a plain WebDAV remote whose listing keeps the key file). */
export function encryptedRemote(inner: SyncRemote, href: string, encryption: WebdavEncryption): SyncRemote {
  const { passphrase, iterations } = encryptionOption(encryption);
  const serverMax = inner.limits.maxFileBytes;
  let keys: MountKeys | undefined;
  let keyVersion: string | undefined;
  /** What each server name held when last read: its version, path and size. */
  const seen = new Map<string, { version: string; path: string; size: number }>();
  /** Texts the last listing read, handed to the engine's read of the same version (once). */
  const texts = new Map<string, { version: string; text: string }>();
  /** The paths the server holds as far as this device knows, to refuse a file/folder overlap before writing. */
  const known = new Set<string>();
  const names = new Map<string, string>();

  const nameOf = async (open: MountKeys, path: string): Promise<string> => {
    let name = names.get(path);
    if (name === undefined) {
      name = await sealedName(open, path);
      if (names.size > 100_000) names.clear();
      names.set(path, name);
    }
    return name;
  };

  /** Opens the keys at the first listing (or makes the folder encrypted); later, checks the key file is still ours. */
  async function keysFor(listed: readonly RemoteFile[], options?: RemoteCallOptions): Promise<MountKeys> {
    const entry = listed.find((file) => file.path === KEY_FILE && file.refused === undefined);
    if (keys !== undefined) {
      if (entry === undefined) {
        throw new SyncRemoteError('auth', `WebDAV encryption: the key file ${KEY_FILE} is gone from the folder`);
      }
      if (entry.version !== keyVersion) {
        const { text } = await inner.read(entry, options);
        if (keyFileId(text) !== keys.keyId) {
          throw new SyncRemoteError('auth', 'WebDAV encryption: the folder\'s key was replaced by another one');
        }
        keyVersion = entry.version;
      }
      return keys;
    }
    if (entry !== undefined) {
      const { file, text } = await inner.read(entry, options);
      keys = await openKeyFile(text, passphrase);
      keyVersion = file.version;
      return keys;
    }
    const other = listed.find((file) => file.path !== KEY_FILE);
    if (other !== undefined) {
      throw new SyncRemoteError(
        'protocol',
        `WebDAV encryption: the folder holds files (${shown(other.path)}) but is not encrypted; ` +
          'encryption starts on an empty folder',
      );
    }
    const made = await newKeyFile(passphrase, iterations);
    try {
      const written = await inner.write(KEY_FILE, made.text, null, options);
      keys = made.keys;
      keyVersion = written.version;
    } catch (error) {
      // Another device made the folder encrypted meanwhile: open its key file instead.
      if (!isSyncRemoteError(error) || error.kind !== 'precondition') throw error;
      const { file, text } = await inner.read(keyFile, options);
      keys = await openKeyFile(text, passphrase);
      keyVersion = file.version;
    }
    return keys;
  }

  /** A listed server file as the engine sees it: read (once per version) for its path; undefined when it went. */
  async function opened(open: MountKeys, file: RemoteFile, options?: RemoteCallOptions): Promise<RemoteFile | undefined> {
    const before = seen.get(file.path);
    if (before?.version === file.version) return { path: before.path, version: file.version, size: before.size };
    try {
      const got = await inner.read(file, options);
      const { path, text } = await unseal(open, file.path, got.text);
      const size = utf8Length(text);
      seen.set(file.path, { version: got.file.version, path, size });
      texts.set(file.path, { version: got.file.version, text });
      return { path, version: got.file.version, size };
    } catch (error) {
      if (!isSyncRemoteError(error)) throw error;
      if (error.kind === 'not-found') return undefined;
      if (error.kind === 'unreadable') return { path: file.path, version: file.version, refused: error.message };
      // Changed while it was read: the listing is not whole, so it fails, and is tried again.
      if (error.kind === 'precondition') throw new SyncRemoteError('server', error.message, { cause: error });
      throw error;
    }
  }

  const ready = async (options?: RemoteCallOptions): Promise<MountKeys> =>
    keys ?? keysFor(await inner.list(options), options);

  return {
    id: `webdav-e2ee:${href}`,
    kind: 'webdav',
    limits: serverMax === undefined ? {} : { maxFileBytes: textCapacity(serverMax) },
    concurrency: inner.concurrency,

    async list(options) {
      const listed = await inner.list(options);
      const open = await keysFor(listed, options);
      texts.clear();
      const files: RemoteFile[] = [];
      const toRead: RemoteFile[] = [];
      for (const file of listed) {
        if (file.path === KEY_FILE && file.refused === undefined) continue;
        if (file.refused !== undefined) files.push(file);
        else if (!isSealedName(file.path)) files.push({ ...file, refused: 'not a file of this encrypted folder' });
        else toRead.push(file);
      }
      await eachLimited(toRead, inner.concurrency, async (file) => {
        const found = await opened(open, file, options);
        if (found !== undefined) files.push(found);
      }, options?.signal);
      const listedNames = new Set(toRead.map((file) => file.path));
      for (const name of seen.keys()) if (!listedNames.has(name)) seen.delete(name);
      known.clear();
      for (const file of files) if (file.refused === undefined) known.add(file.path);
      return files;
    },

    async read(file, options) {
      const open = await ready(options);
      const name = await nameOf(open, file.path);
      const listed = texts.get(name);
      texts.delete(name);
      const size = (text: string) => utf8Length(text);
      if (listed !== undefined && listed.version === file.version) {
        return { file: { path: file.path, version: listed.version, size: size(listed.text) }, text: listed.text };
      }
      const got = await inner.read({ path: name, version: file.version }, options);
      const { text } = await unseal(open, name, got.text);
      seen.set(name, { version: got.file.version, path: file.path, size: size(text) });
      return { file: { path: file.path, version: got.file.version, size: size(text) }, text };
    },

    async write(path, text, expected, options) {
      const open = await ready(options);
      if (expected === null) {
        for (const other of known) {
          if (other.startsWith(`${path}/`) || path.startsWith(`${other}/`)) {
            throw new SyncRemoteError('path-conflict', `WebDAV: ${shown(path)} overlaps ${shown(other)}`, {
              conflictingPath: other,
            });
          }
        }
      }
      if (serverMax !== undefined && sealedSize(path, text) > serverMax) {
        throw new SyncRemoteError(
          'too-large',
          `WebDAV: ${shown(path)} takes ${sealedSize(path, text)} bytes encrypted; the server takes at most ${serverMax}`,
        );
      }
      const name = await nameOf(open, path);
      const content = await seal(open, name, path, text);
      const done = await inner.write(name, content, expected === null ? null : { path: name, version: expected.version }, options);
      const size = utf8Length(text);
      seen.set(name, { version: done.version, path, size });
      known.add(path);
      return { path, version: done.version, size };
    },

    async delete(expected, options) {
      const open = await ready(options);
      const name = await nameOf(open, expected.path);
      await inner.delete({ path: name, version: expected.version }, options);
      seen.delete(name);
      known.delete(expected.path);
    },
  };
}
