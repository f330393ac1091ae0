// Changing an encrypted WebDAV folder's passphrase: the key file re-wrapped in place (If-Match), the mount key and
// every file left as they are, so nothing is uploaded again and devices already syncing keep working.

import { SyncRemoteError, isSyncRemoteError } from '../remote.js';
import { encryptionOption, type WebdavEncryption } from './webdav-crypto.js';
import type { SyncRemote } from '../remote.js';
import { KEY_FILE, rewrapKeyFile } from './webdav-crypto-keys.js';
import { webdavRemote, type WebdavRemoteOptions } from './webdav.js';

/**
 * Re-wraps the folder's key for `newPassphrase`; `options` are the remote's, with the current passphrase in
 * `encryption`. A wrong current passphrase is an `auth` SyncRemoteError and changes nothing. Devices syncing now keep
 * their key in memory; a device that starts later needs the new passphrase.
 *
 * @example await changeWebdavPassphrase({ url, username, password, encryption: { passphrase: old } }, 'new words')
 */
export async function changeWebdavPassphrase(
  options: WebdavRemoteOptions & { encryption: { passphrase: string } },
  newPassphrase: string,
): Promise<void> {
  const { encryption, ...plain } = options;
  await rewrapFolderKey(webdavRemote(plain), encryption, newPassphrase);
}

/** The key file on `remote` (the plain remote under an encrypted one) re-wrapped for `newPassphrase`. */
export async function rewrapFolderKey(
  remote: SyncRemote,
  encryption: WebdavEncryption,
  newPassphrase: string,
): Promise<void> {
  const { passphrase, iterations } = encryptionOption(encryption);
  encryptionOption({ passphrase: newPassphrase });
  const { file, text } = await remote.read({ path: KEY_FILE, version: '' }).catch((error: unknown) => {
    if (!isSyncRemoteError(error) || error.kind !== 'not-found') throw error;
    throw new SyncRemoteError('protocol', `WebDAV encryption: the folder is not encrypted (no ${KEY_FILE})`);
  });
  const next = await rewrapKeyFile(text, passphrase, newPassphrase, iterations);
  await remote.write(KEY_FILE, next, file);
}
