// One file of an encrypted WebDAV folder: its server name (HMAC-SHA-256 of its path, hex, at the root) and its
// content (AES-GCM of the path and the text, a random IV per write, the name as associated data), as UTF-8 text.

import { SyncRemoteError } from '../remote.js';
import { shown } from './remote-bounds.js';
import { fromBase64, toBase64, type MountKeys } from './webdav-crypto-keys.js';

/** The first line of every encrypted file: what it is, so a person who opens one knows. */
const HEADER = 'idb-memory-tool e2ee 1\n';
/** Bytes an encrypted file adds besides base64's third: the IV, the path's length, GCM's tag. */
const OVERHEAD = 12 + 4 + 16;
const encoder = new TextEncoder();

/** True for a name an encrypted folder's file has on the server. */
export const isSealedName = (name: string): boolean => /^\/[0-9a-f]{64}$/.test(name);

/** The server name of `path`: `/` and 64 hex digits, the same on every device with the key. */
export async function sealedName(keys: MountKeys, path: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', keys.names, encoder.encode(path)));
  return `/${Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The UTF-8 bytes an encrypted file of `path` holding `text` takes on the server. */
export function sealedSize(path: string, text: string): number {
  const plain = OVERHEAD + encoder.encode(path).length + encoder.encode(text).length;
  return HEADER.length + Math.ceil(plain / 3) * 4;
}

/** The largest text an encrypted file fits in `serverBytes`, for a path of up to 1,024 bytes. */
export const textCapacity = (serverBytes: number): number =>
  Math.max(0, Math.floor((serverBytes - HEADER.length) / 4) * 3 - OVERHEAD - 1024);

const associated = (name: string) => encoder.encode(`${HEADER}${name}`);

/** The server's content for `path` holding `text`, stored under `name`. */
export async function seal(keys: MountKeys, name: string, path: string, text: string): Promise<string> {
  const pathBytes = encoder.encode(path);
  const textBytes = encoder.encode(text);
  const plain = new Uint8Array(4 + pathBytes.length + textBytes.length);
  new DataView(plain.buffer).setUint32(0, pathBytes.length);
  plain.set(pathBytes, 4);
  plain.set(textBytes, 4 + pathBytes.length);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: associated(name) }, keys.content, plain);
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv, 0);
  out.set(new Uint8Array(sealed), 12);
  return HEADER + toBase64(out);
}

const unreadable = (name: string, why: string) =>
  new SyncRemoteError('unreadable', `WebDAV encryption: ${shown(name)} ${why}`);

/**
 * The path and text of the server's file `name`. A file not in this format, or not sealed by this folder's key, or
 * sealed for another name (a server swapping files), is `unreadable`: the engine leaves it alone.
 */
export async function unseal(keys: MountKeys, name: string, content: string): Promise<{ path: string; text: string }> {
  const bytes = content.startsWith(HEADER) ? fromBase64(content.slice(HEADER.length).trimEnd()) : undefined;
  if (bytes === undefined || bytes.length < OVERHEAD) throw unreadable(name, 'is not a file of an encrypted folder');
  let plain: Uint8Array;
  try {
    const opened = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: associated(name) },
      keys.content,
      bytes.subarray(12),
    );
    plain = new Uint8Array(opened);
  } catch {
    throw unreadable(name, 'does not open with this folder\'s key (another key, or changed on the server)');
  }
  const pathLength = new DataView(plain.buffer, plain.byteOffset).getUint32(0);
  if (pathLength > plain.length - 4) throw unreadable(name, 'holds a broken path');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let path: string;
  let text: string;
  try {
    path = decoder.decode(plain.subarray(4, 4 + pathLength));
    text = decoder.decode(plain.subarray(4 + pathLength));
  } catch {
    throw unreadable(name, 'is not UTF-8 text');
  }
  if ((await sealedName(keys, path)) !== name) throw unreadable(name, 'was sealed under another name');
  return { path, text };
}
