// The encrypted WebDAV folder's keys (../README.md, "Encrypted WebDAV"): the key file's format and its checks, the
// passphrase's key (PBKDF2-SHA-256) that wraps the mount key (AES-GCM), and the mount key's two subkeys (HKDF).
// WebCrypto only; every key made here is non-extractable, and the mount key's raw bytes are zeroed once imported.

import { SyncRemoteError } from '../remote.js';

/** The key file's name at the folder's root (the only file there not named by a hash). */
export const KEY_FILE = '/.idb-memory-key.json';
const FORMAT = 'idb-memory-tool/webdav-e2ee';
/** PBKDF2 iterations of a new key file: OWASP's 2023 figure for PBKDF2-HMAC-SHA-256. */
export const DEFAULT_ITERATIONS = 600_000;
/** A key file asking for fewer is refused; more, too: a hostile file must not keep a device busy for minutes. */
export const MIN_ITERATIONS = 100_000;
export const MAX_ITERATIONS = 2_000_000;
const KEY_FILE_MAX_CHARS = 4096;

/** The keys a device holds in memory for an open folder. */
export interface MountKeys {
  /** AES-GCM-256 for file contents. */
  content: CryptoKey;
  /** HMAC-SHA-256 for file names. */
  names: CryptoKey;
  /** The mount key's random id, kept across passphrase changes: another id means another key. */
  keyId: string;
}

interface KeyFile {
  format: string;
  version: 1;
  kdf: 'PBKDF2-SHA-256';
  iterations: number;
  salt: string;
  iv: string;
  wrapped: string;
  keyId: string;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Decodes base64; undefined for anything else. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
const random = (length: number): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(length));
const encoder = new TextEncoder();

const broken = (why: string) =>
  new SyncRemoteError('protocol', `WebDAV encryption: the key file ${KEY_FILE} is not one this library reads: ${why}`);

/** Checks an iterations option or field. */
export function iterationsAllowed(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= MIN_ITERATIONS && value <= MAX_ITERATIONS;
}

/** The key file's fields, checked (sizes, ranges, encodings) before any work is spent on them. */
function parseKeyFile(text: string): KeyFile & { bytes: { salt: Uint8Array<ArrayBuffer>; iv: Uint8Array<ArrayBuffer>; wrapped: Uint8Array<ArrayBuffer> } } {
  if (text.length > KEY_FILE_MAX_CHARS) throw broken(`over ${KEY_FILE_MAX_CHARS} characters`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw broken('not JSON');
  }
  const file = value as Partial<Record<keyof KeyFile, unknown>> | null;
  if (typeof file !== 'object' || file === null || file.format !== FORMAT) throw broken('another format');
  if (file.version !== 1 || file.kdf !== 'PBKDF2-SHA-256') throw broken('another version');
  if (!iterationsAllowed(file.iterations)) {
    throw broken(`iterations must be a whole number from ${MIN_ITERATIONS} to ${MAX_ITERATIONS}`);
  }
  const decode = (name: 'salt' | 'iv' | 'wrapped', min: number, max: number) => {
    const field = file[name];
    const bytes = typeof field === 'string' ? fromBase64(field) : undefined;
    if (bytes === undefined || bytes.length < min || bytes.length > max) throw broken(`a bad ${name}`);
    return bytes;
  };
  const bytes = { salt: decode('salt', 16, 64), iv: decode('iv', 12, 12), wrapped: decode('wrapped', 48, 48) };
  if (typeof file.keyId !== 'string' || !/^[0-9a-f]{32}$/.test(file.keyId)) throw broken('a bad keyId');
  return { ...(file as KeyFile), bytes };
}

/** The associated data of the wrap: every field a reader trusts, so none can be changed without the passphrase. */
const wrapData = (file: Pick<KeyFile, 'iterations' | 'salt' | 'keyId'>) =>
  encoder.encode(`${FORMAT}\n1\nPBKDF2-SHA-256\n${file.iterations}\n${file.salt}\n${file.keyId}`);

async function passphraseKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(passphrase), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** The mount key's subkeys (HKDF-SHA-256, one `info` each); the raw bytes are zeroed. */
async function mountKeys(raw: Uint8Array<ArrayBuffer>, keyId: string): Promise<MountKeys> {
  try {
    const base = await crypto.subtle.importKey('raw', raw, 'HKDF', false, ['deriveKey']);
    const hkdf = (info: string) => ({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode(info) });
    const content = await crypto.subtle.deriveKey(hkdf('content'), base, { name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    const names = await crypto.subtle.deriveKey(hkdf('names'), base, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return { content, names, keyId };
  } finally {
    raw.fill(0);
  }
}

/** The mount key's raw bytes from the key file's text, or an `auth` error for a passphrase that does not open it. */
async function unwrapRaw(text: string, passphrase: string): Promise<{ raw: Uint8Array<ArrayBuffer>; keyId: string }> {
  const file = parseKeyFile(text);
  const kek = await passphraseKey(passphrase, file.bytes.salt, file.iterations);
  try {
    const raw = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: file.bytes.iv, additionalData: wrapData(file) },
      kek,
      file.bytes.wrapped,
    );
    return { raw: new Uint8Array(raw), keyId: file.keyId };
  } catch (cause) {
    throw new SyncRemoteError('auth', 'WebDAV encryption: the passphrase does not open this folder (wrong passphrase)', {
      cause,
    });
  }
}

/** The key file's text for `raw` wrapped by `passphrase` (a fresh salt and IV each time). */
async function wrapRaw(raw: Uint8Array<ArrayBuffer>, keyId: string, passphrase: string, iterations: number): Promise<string> {
  const saltBytes = random(16);
  const iv = random(12);
  const fields = { iterations, salt: toBase64(saltBytes), keyId };
  const kek = await passphraseKey(passphrase, saltBytes, iterations);
  const wrapped = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: wrapData(fields) }, kek, raw);
  const file: KeyFile = {
    format: FORMAT,
    version: 1,
    kdf: 'PBKDF2-SHA-256',
    ...fields,
    iv: toBase64(iv),
    wrapped: toBase64(new Uint8Array(wrapped)),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Opens a key file with the passphrase: the mount's keys, in memory, non-extractable. */
export async function openKeyFile(text: string, passphrase: string): Promise<MountKeys> {
  const { raw, keyId } = await unwrapRaw(text, passphrase);
  return mountKeys(raw, keyId);
}

/** The key id a key file names (checked), without the passphrase. */
export const keyFileId = (text: string): string => parseKeyFile(text).keyId;

/** A new random mount key: the key file's text and the keys it holds. */
export async function newKeyFile(passphrase: string, iterations: number): Promise<{ text: string; keys: MountKeys }> {
  const raw = random(32);
  const keyId = hex(random(16));
  const text = await wrapRaw(raw, keyId, passphrase, iterations);
  return { text, keys: await mountKeys(raw, keyId) };
}

/** The key file's text re-wrapped for `next`: the same mount key (no file changes), a new salt. */
export async function rewrapKeyFile(text: string, current: string, next: string, iterations: number): Promise<string> {
  const { raw, keyId } = await unwrapRaw(text, current);
  try {
    return await wrapRaw(raw, keyId, next, iterations);
  } finally {
    raw.fill(0);
  }
}
