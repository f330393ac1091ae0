// Encrypting a bundle to an age file and decrypting one, with the age-encryption package (by age's author): scrypt
// or X25519 wraps a random file key, ChaCha20-Poly1305 in 64 KiB chunks (STREAM) seals the bundle (./README.md).

import type { Encrypter, Identity, Stanza } from 'age-encryption';
import { MemoryToolError, isMemoryToolError } from '../core/errors.js';
import { showText } from '../core/shown-text.js';
import { MAX_SCRYPT_LOG_N, MAX_STANZAS } from './age-format.js';
import type { AgeKeys, AgeTarget } from './age-keys.js';
import { sealRetrying, zeroSafeIdentity } from './age-zero-key.js';
import { refused } from './refusal.js';
import { bundleReply } from './replies.js';

/** How much of a Blob is read at a time: neither the age file nor the bundle is ever read whole at once. */
const WINDOW = 1024 * 1024;

/** The age-encryption package's module, loaded on first use (./age-part.ts): only its values are, never this file. */
export type AgeLibrary = typeof import('age-encryption');

/** What an encrypted export or import calls, on the loaded library. */
export interface AgeCrypto {
  encrypterFor(target: AgeTarget): Encrypter;
  encryptBlob(encrypter: Encrypter, plain: Blob, signal?: AbortSignal): Promise<Blob>;
  decryptBlob(input: Blob | string, armored: boolean, keys: AgeKeys, signal?: AbortSignal): Promise<Blob>;
}

/**
 * The age code on `lib`. This file stays with the bundle part; only the package is a chunk of its own, so that chunk
 * shares no module with the main entry (which would split the shared ones into more files for an app).
 */
export function ageCrypto(lib: AgeLibrary): AgeCrypto {
  return {
    encrypterFor: (target) => encrypterFor(lib, target),
    encryptBlob,
    decryptBlob: (input, armored, keys, signal) => decryptBlob(lib, input, armored, keys, signal),
  };
}

/** An Encrypter for `target`, made before the export reads anything, so a bad recipient fails first. */
function encrypterFor(lib: AgeLibrary, target: AgeTarget): Encrypter {
  const encrypter = new lib.Encrypter();
  if ('passphrase' in target) {
    encrypter.setPassphrase(target.passphrase);
    return encrypter;
  }
  target.recipients.forEach((recipient, i) => {
    try {
      encrypter.addRecipient(recipient);
    } catch {
      throw new TypeError(`recipients[${i}] is not an age recipient (age1…): ${showText(recipient, 80)}`);
    }
  });
  return encrypter;
}

/** `plain` as an age file (binary, as `age` writes it without `-a`). */
async function encryptBlob(encrypter: Encrypter, plain: Blob, signal?: AbortSignal): Promise<Blob> {
  const sealed = await sealRetrying(async () => encrypter.encrypt(blobStream(plain)));
  return new Blob(await collect(sealed, signal), { type: 'application/octet-stream' });
}

/**
 * The bundle inside an age file (`armored`: the text form), refused with `key_needed`-like clarity: a kind of key the
 * file does not take, a key that opens none of its stanzas, a header past the bounds, a damaged file.
 */
async function decryptBlob(
  lib: AgeLibrary,
  input: Blob | string,
  armored: boolean,
  keys: AgeKeys,
  signal?: AbortSignal,
): Promise<Blob> {
  const guard = new StanzaGuard();
  const decrypter = new lib.Decrypter();
  // Tried first, in order: the guard sees the stanzas before any scrypt or X25519 work is done.
  decrypter.addIdentity(guard);
  if (keys.passphrase !== undefined) decrypter.addPassphrase(keys.passphrase);
  keys.identities.forEach((identity, i) => {
    try {
      decrypter.addIdentity(zeroSafeIdentity(identity));
    } catch {
      throw refused('', bundleReply.ageBadIdentity(i + 1), 'wrong_key');
    }
  });
  let source: ReadableStream<Uint8Array>;
  if (armored) {
    const text = typeof input === 'string' ? input : await input.text();
    try {
      source = blobStream(new Blob([ownBuffer(lib.armor.decode(text))]));
    } catch (error) {
      throw damaged(error);
    }
  } else {
    if (typeof input === 'string') throw refused('', bundleReply.ageAsText());
    source = blobStream(input);
  }
  let plain: ReadableStream<Uint8Array>;
  try {
    plain = await decrypter.decrypt(source);
  } catch (error) {
    if (isMemoryToolError(error)) throw error;
    if (guard.kinds !== undefined && /no identity matched/u.test(String(error))) throw unopened(guard.kinds, keys);
    throw damaged(error);
  }
  try {
    return new Blob(await collect(plain, signal));
  } catch (error) {
    if (signal?.aborted === true || isMemoryToolError(error)) throw error;
    throw damaged(error);
  }
}

/** Reads the header's stanzas before the real identities do, refusing what would cost too much; opens nothing. */
class StanzaGuard implements Identity {
  kinds: string[] | undefined;

  unwrapFileKey(stanzas: Stanza[]): null {
    if (stanzas.length > MAX_STANZAS) throw refused('', bundleReply.ageTooManyStanzas(stanzas.length, MAX_STANZAS));
    for (const stanza of stanzas) {
      const [kind, , logN] = stanza.args;
      if (kind === 'scrypt' && logN !== undefined && /^[1-9][0-9]*$/u.test(logN) && Number(logN) > MAX_SCRYPT_LOG_N) {
        throw refused('', bundleReply.ageWorkFactor(Number(logN), MAX_SCRYPT_LOG_N));
      }
    }
    this.kinds = stanzas.map((stanza) => stanza.args[0] ?? '');
    return null;
  }
}

/** Why no key given opened the file: the kind it needs is not among them, or none of them is the right one. */
function unopened(kinds: readonly string[], keys: AgeKeys): MemoryToolError {
  if (kinds.includes('scrypt')) {
    const why = keys.passphrase === undefined ? bundleReply.ageNeedsPassphrase() : bundleReply.ageWrongPassphrase();
    return refused('', why, keys.passphrase === undefined ? 'key_needed' : 'wrong_key');
  }
  if (keys.identities.length === 0) return refused('', bundleReply.ageNeedsIdentity(), 'key_needed');
  return refused('', bundleReply.ageWrongIdentity(kinds.length), 'wrong_key');
}

/** A failure of the header or the payload, as the library words it (its own fixed sentences, bounded all the same). */
function damaged(error: unknown): MemoryToolError {
  const detail = error instanceof Error ? error.message : String(error);
  return refused('', bundleReply.ageDamaged(showText(detail, 120)));
}

/** A Blob as a stream of this realm (the library checks `instanceof ReadableStream`), read a window at a time. */
function blobStream(blob: Blob): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= blob.size) {
        controller.close();
        return;
      }
      const end = Math.min(blob.size, offset + WINDOW);
      const bytes = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
      offset = end;
      controller.enqueue(bytes);
    },
  });
}

/** Every chunk of `stream`, the signal checked between chunks. */
async function collect(stream: ReadableStream<Uint8Array>, signal?: AbortSignal): Promise<Uint8Array<ArrayBuffer>[]> {
  const reader = stream.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) return chunks;
      chunks.push(ownBuffer(value));
    }
  } finally {
    if (signal?.aborted === true) void reader.cancel().catch(() => undefined);
  }
}

/** The same bytes typed as a Blob part takes them: a view of its ArrayBuffer, or a copy of a shared one. */
function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes.slice();
}
