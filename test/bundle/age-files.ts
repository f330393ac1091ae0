// Age files for the encrypted bundle tests, made with the age-encryption package itself: a low scrypt work factor
// (2^10) so an import's scrypt takes milliseconds, identities with their recipients, and hostile headers.

import { Encrypter, armor, generateX25519Identity, identityToRecipient } from 'age-encryption';
import { AGE_MAGIC } from '../../src/bundle/age-format.js';
import { sealRetrying, zeroSafeIdentity } from '../../src/bundle/age-zero-key.js';

/**
 * A key pair whose secret scalar starts with a zero byte, which WebKitGTK's WebCrypto refuses to import; `same` is
 * the equivalent key with that byte 1 (X25519 clears the low three bits). Made once with age-encryption in Node.
 */
export const ZERO_FIRST_KEY = {
  secret: 'AGE-SECRET-KEY-1QR5GCK2FECRKSZRUUSGM5ZCUES766WGEL5ZGN65JKCEF5ZEYT2PSGLA75M',
  same: 'AGE-SECRET-KEY-1Q85GCK2FECRKSZRUUSGM5ZCUES766WGEL5ZGN65JKCEF5ZEYT2PSWEDGWY',
  recipient: 'age1qzsqm9js4vcuuj9upx249yzdgj94ksqgf9ntzv73azh02g5a2ggqspdeth',
} as const;

/** A bundle (or any bytes) encrypted with `passphrase` at work factor 2^`logN`. */
export async function withPassphrase(plain: Blob | string, passphrase: string, logN = 10): Promise<Blob> {
  const encrypter = new Encrypter();
  encrypter.setScryptWorkFactor(logN);
  encrypter.setPassphrase(passphrase);
  return new Blob([(await encrypter.encrypt(await bytesOf(plain))).slice()]);
}

/** A bundle encrypted to `recipients`. */
export async function toRecipients(plain: Blob | string, recipients: readonly string[]): Promise<Blob> {
  const encrypter = new Encrypter();
  for (const recipient of recipients) encrypter.addRecipient(recipient);
  // The package's own ephemeral keys meet WebKitGTK's refusal too (src/bundle/age-zero-key.ts).
  return new Blob([(await sealRetrying(async () => encrypter.encrypt(await bytesOf(plain)))).slice()]);
}

/** An X25519 identity as `age-keygen` writes its file, and its recipient. */
export async function keyPair(): Promise<{ identityFile: string; secret: string; recipient: string }> {
  const secret = await generateX25519Identity();
  // One generated key in 256 starts with a zero byte; its recipient is worked out from the equivalent key WebKitGTK takes.
  const recipient = await identityToRecipient(zeroSafeIdentity(secret));
  const identityFile = `# created: 2026-12-05T21:00:00Z\n# public key: ${recipient}\n${secret}\n`;
  return { identityFile, secret, recipient };
}

/** The ASCII-armored form (`age -a`) of an age file. */
export async function armored(age: Blob): Promise<string> {
  return armor.encode(await bytesOf(age));
}

/** An age file with its header's text edited by `edit` (the MAC then fails, if anything reads that far). */
export async function editedHeader(age: Blob, edit: (header: string) => string): Promise<Blob> {
  const bytes = await bytesOf(age);
  const end = indexOfMac(bytes);
  const header = new TextDecoder().decode(bytes.subarray(0, end));
  return new Blob([new TextEncoder().encode(edit(header)), bytes.slice(end)]);
}

/** An age file with one payload byte flipped (`from` bytes before its end). */
export async function flippedPayload(age: Blob, from = 20): Promise<Blob> {
  const bytes = await bytesOf(age);
  bytes[bytes.length - from] = (bytes[bytes.length - from] ?? 0) ^ 1;
  return new Blob([bytes]);
}

/** True when `blob` starts as a binary age file does. */
export async function isAgeFile(blob: Blob): Promise<boolean> {
  return new TextDecoder().decode(await blob.slice(0, AGE_MAGIC.length).arrayBuffer()) === AGE_MAGIC;
}

export async function bytesOf(input: Blob | string): Promise<Uint8Array<ArrayBuffer>> {
  return typeof input === 'string' ? new TextEncoder().encode(input) : new Uint8Array(await input.arrayBuffer());
}

/** Where the header's MAC line (`--- …`) starts. */
function indexOfMac(bytes: Uint8Array): number {
  for (let i = 0; i + 4 < bytes.length; i++) {
    if (bytes[i] === 0x0a && bytes[i + 1] === 0x2d && bytes[i + 2] === 0x2d && bytes[i + 3] === 0x2d) return i + 1;
  }
  throw new Error('no MAC line');
}
