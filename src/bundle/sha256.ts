// SHA-256 of many texts, as lowercase hex of their UTF-8: what a bundle file's `sha256` holds. Web Crypto (or our
// own where it is missing), not IndexedDB, so it never runs inside a transaction (one would commit while a digest is
// awaited).

import { textHasher } from './sha256-fallback.js';

/** Files hashed at once: enough to keep the digest workers busy, few enough to bound memory (and divides 1,000). */
const HASH_BATCH = 50;

type Hasher = (text: string) => ArrayBuffer | Uint8Array | Promise<ArrayBuffer | Uint8Array>;

/**
 * Lowercase hex SHA-256 of each text's UTF-8 (undefined for an undefined text, which is not hashed but counted);
 * `onStep(done)` after every 1,000 texts.
 */
export async function sha256All(
  texts: readonly (string | undefined)[],
  onStep: (done: number) => void,
): Promise<(string | undefined)[]> {
  const hash = hasher();
  const out: (string | undefined)[] = [];
  for (let start = 0; start < texts.length; start += HASH_BATCH) {
    const batch = texts.slice(start, start + HASH_BATCH);
    const digests = await Promise.all(batch.map((text) => (text === undefined ? undefined : hash(text))));
    for (const digest of digests) out.push(digest === undefined ? undefined : toHex(digest));
    if (out.length % 1000 === 0) onStep(out.length);
  }
  return out;
}

/**
 * Web Crypto's digest, or our own where there is none: `crypto.subtle` is missing outside secure contexts (a page
 * on http:// that is not localhost).
 */
function hasher(): Hasher {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) return textHasher();
  let fallback: Hasher | undefined;
  const encoder = new TextEncoder();
  // One reused buffer (digest() copies its input): a fresh one per file made hashing big files cost three times more.
  let scratch = new Uint8Array(0);
  return (text) => {
    // UTF-8 takes at most 3 bytes per UTF-16 unit (4 per surrogate pair, which is 2 units).
    if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
    const { written } = encoder.encodeInto(text, scratch);
    // A digest refused for any reason is the same hash computed here, never a raw error out of an import.
    return subtle.digest('SHA-256', scratch.subarray(0, written)).catch(() => (fallback ??= textHasher())(text));
  };
}

function toHex(digest: ArrayBuffer | Uint8Array): string {
  let hex = '';
  for (const byte of digest instanceof Uint8Array ? digest : new Uint8Array(digest)) {
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}
