// The WebDAV remote's options: their checks, the credentials' header (never sent in clear off loopback), and the
// bounds a hostile or broken server meets (each with its default).

import { DEFAULT_TIMEOUT_MS, timeoutOption } from './remote-bounds.js';
import type { DavBounds } from './webdav-folders.js';
import { basicAuthorization } from './webdav-http.js';
import type { WebdavEncryption } from './webdav-crypto.js';
import { optionHint } from '../../core/option-hint.js';

/** What {@link webdavRemote} takes: the folder's address, the credentials, the bounds, and end-to-end encryption. */
export interface WebdavRemoteOptions {
  /** The folder to mirror, e.g. `https://cloud.example/remote.php/dav/files/alice/memory/`. */
  url: string;
  /**
   * Basic auth (with `password`). Basic is the password itself: refused over `http://` except on loopback
   * (`localhost`, 127.0.0.0/8, `[::1]`) unless `allowInsecureHttp` is set.
   */
  username?: string | undefined;
  /** Basic auth's password (an app password where the server has them), sent with `username`. */
  password?: string | undefined;
  /** A bearer token (`Authorization: Bearer …`), instead of a username and password; over `http://` as Basic. */
  token?: string | undefined;
  /** Sends the credentials over plain `http://` to a host that is not loopback: anyone on the way can read them. */
  allowInsecureHttp?: boolean | undefined;
  /** Defaults to the global fetch (looked up at each call). */
  fetch?: typeof fetch | undefined;
  /** Requests in flight at once (default 4). */
  concurrency?: number | undefined;
  /**
   * The server's largest accepted file in UTF-8 bytes, when known: a bigger write is refused before it is sent, and
   * a read stops there (`unreadable`).
   */
  maxFileBytes?: number | undefined;
  /** Each request's deadline in ms, its body included (default 60,000); past it the call fails as `server`. */
  timeoutMs?: number | undefined;
  /** Bytes one PROPFIND answer may hold (default 16 MiB, some 40,000 entries); past it the listing fails. */
  maxListingBytes?: number | undefined;
  /** Folders one listing walks (default 10,000); past it the listing fails as `protocol`. */
  maxFolders?: number | undefined;
  /** Files and folders one listing takes (default 100,000); past it the listing fails as `protocol`. */
  maxEntries?: number | undefined;
  /**
   * End-to-end encryption (`{ passphrase }`): the server holds no text and no file or folder name in the clear; every
   * device of the folder needs the passphrase (`changeWebdavPassphrase` changes it). An encrypted folder refuses a
   * remote without it, and encryption refuses a plain folder that holds files. WebDAV only: Memory Stores stays
   * plain, as Anthropic's agents must read it.
   */
  encryption?: WebdavEncryption | undefined;
}

/** Every key of {@link WebdavRemoteOptions}: any other is refused. */
const WEBDAV_OPTION_KEYS = [
  'url', 'username', 'password', 'token', 'allowInsecureHttp', 'fetch', 'concurrency', 'maxFileBytes', 'timeoutMs',
  'maxListingBytes', 'maxFolders', 'maxEntries', 'encryption',
];

/** Throws a TypeError naming an unknown key of `options` and the nearest known one. */
export function refuseUnknownKeys(options: WebdavRemoteOptions): void {
  const unknown = Object.keys(options).find((key) => !WEBDAV_OPTION_KEYS.includes(key));
  if (unknown === undefined) return;
  throw new TypeError(`webdavRemote: unknown option \`${unknown}\`; ${optionHint(unknown, WEBDAV_OPTION_KEYS)}`);
}

const MIB = 1024 * 1024;
/** What a read takes when the server's `maxFileBytes` is not given. */
export const DEFAULT_READ_BYTES = 16 * MIB;
export const WEBDAV_DEFAULTS = {
  timeoutMs: DEFAULT_TIMEOUT_MS,
  maxListingBytes: 16 * MIB,
  maxFolders: 10_000,
  maxEntries: 100_000,
} as const;

const positiveInteger = (value: number | undefined) => value === undefined || (Number.isInteger(value) && value > 0);

/** Checks the numeric options; the bounds, defaults filled in. */
export function davBounds(options: WebdavRemoteOptions): DavBounds & { timeoutMs: number } {
  for (const name of ['concurrency', 'maxFileBytes', 'maxListingBytes', 'maxFolders', 'maxEntries'] as const) {
    if (!positiveInteger(options[name])) throw new TypeError(`webdavRemote: ${name} must be a positive integer`);
  }
  return {
    timeoutMs: timeoutOption('webdavRemote', options.timeoutMs),
    fileBytes: options.maxFileBytes ?? DEFAULT_READ_BYTES,
    listingBytes: options.maxListingBytes ?? WEBDAV_DEFAULTS.maxListingBytes,
    folders: options.maxFolders ?? WEBDAV_DEFAULTS.maxFolders,
    entries: options.maxEntries ?? WEBDAV_DEFAULTS.maxEntries,
  };
}

/** True for a host whose traffic never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** The Authorization header the options ask for, or undefined; a TypeError for options that cannot work. */
export function authorization(options: WebdavRemoteOptions, root: URL): string | undefined {
  const { username, password, token } = options;
  let header: string | undefined;
  if (token !== undefined) {
    if (username !== undefined || password !== undefined) {
      throw new TypeError('webdavRemote: give a token or a username and password, not both');
    }
    if (token === '' || /[\r\n]/.test(token)) throw new TypeError('webdavRemote: token must be one non-empty line');
    header = `Bearer ${token}`;
  } else if (username !== undefined || password !== undefined) {
    if (username === undefined || password === undefined) {
      throw new TypeError('webdavRemote: username and password go together');
    }
    // RFC 7617: the user-id ends at the first colon.
    if (username.includes(':')) throw new TypeError('webdavRemote: a Basic auth username cannot contain ":"');
    header = basicAuthorization(username, password);
  }
  if (header !== undefined && root.protocol === 'http:' && !isLoopback(root.hostname) && !options.allowInsecureHttp) {
    throw new TypeError(
      `webdavRemote: credentials are sent only over https (${root.host} is plain http); ` +
        'use an https url, or set allowInsecureHttp to send them readable by anyone on the way',
    );
  }
  return header;
}
