// An age file (age-encryption.org/v1) known by its first bytes, and the bounds an import holds it to before a byte
// is decrypted. No cryptography here: this loads with the bundle part, the age code only when a file is encrypted.

import type { ResolvedLimits } from '../core/limits.js';

/** The first line of every binary age file. */
export const AGE_MAGIC = 'age-encryption.org/v1\n';
/** The first line of an ASCII-armored one (`age -a`). */
export const AGE_ARMOR = '-----BEGIN AGE ENCRYPTED FILE-----';

/**
 * The largest scrypt work factor (log2 N) an import runs: one above the 18 that age writes. scrypt takes
 * 128 × 8 × 2^logN bytes and blocks the thread it runs on, so 20 (1 GiB) would freeze or kill a tab.
 */
export const MAX_SCRYPT_LOG_N = 19;

/** Recipient stanzas an import reads; each may cost an X25519 multiplication per identity. */
export const MAX_STANZAS = 1000;

/** How an input starts: a binary age file, an armored one, or anything else (a bundle in the clear). */
export type AgeKind = 'binary' | 'armored' | undefined;

/** The kind of `input` from its first bytes (a string: its first characters, leading white space skipped if armored). */
export async function ageKind(input: unknown): Promise<AgeKind> {
  let head: string;
  if (typeof input === 'string') head = input.slice(0, 64);
  else if (isBlob(input)) head = new TextDecoder('utf-8').decode(await input.slice(0, 64).arrayBuffer());
  else return undefined;
  if (head.startsWith(AGE_MAGIC)) return 'binary';
  return head.trimStart().startsWith(AGE_ARMOR) ? 'armored' : undefined;
}

/**
 * The largest age file an import of this memory decrypts: the largest JSON bundle its limits let in, at worst every
 * byte of content written as `\u00XX` (6 bytes) and 8 KiB per file for its path, times and hash, plus 1 MiB for the
 * header. Checked on the file's size before it is read.
 */
export function maxAgeBytes(limits: Pick<ResolvedLimits, 'maxTotalBytes' | 'maxFiles'>): number {
  return 6 * limits.maxTotalBytes + 8192 * limits.maxFiles + 1024 * 1024;
}

/** Duck-typed, so a Blob from another realm (an iframe, a worker) counts too; anything else is refused later. */
function isBlob(input: unknown): input is Blob {
  const blob = input as { slice?: unknown; arrayBuffer?: unknown } | null;
  return typeof blob === 'object' && blob !== null && typeof blob.slice === 'function' && typeof blob.arrayBuffer === 'function';
}
