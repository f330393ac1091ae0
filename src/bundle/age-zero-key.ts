// WebKitGTK's WebCrypto refuses (DataError) an X25519 private key whose first byte is zero: 1 random key in 256. Here,
// the same key in a form it takes, and the retry of an encryption whose random ephemeral key was such a key.

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const;
const PREFIX = 'age-secret-key-';
/** An encryption makes a new ephemeral key each time: eight in a row refused happens once in 2^64. */
export const SEAL_TRIES = 8;

/**
 * `identity` unchanged, unless it is an `AGE-SECRET-KEY-1…` whose scalar starts with a zero byte: then the same key
 * with that byte 1. X25519 clears a scalar's three lowest bits before use (RFC 7748, decodeScalar25519), so both open
 * exactly the same files; only the second imports in WebKitGTK. Anything that is not a well-formed key is returned as
 * it came, for age to refuse in its own words.
 */
export function zeroSafeIdentity(identity: string): string {
  const lower = identity.toLowerCase();
  if (!lower.startsWith(`${PREFIX}1`) || (lower !== identity && identity.toUpperCase() !== identity)) return identity;
  const words: number[] = [];
  for (const char of lower.slice(PREFIX.length + 1)) {
    const word = CHARSET.indexOf(char);
    if (word < 0) return identity;
    words.push(word);
  }
  if (words.length < 6 || polymod([...expandPrefix(), ...words]) !== 1) return identity;
  const scalar = regroup(words.slice(0, -6), 5, 8);
  if (scalar?.length !== 32 || scalar[0] !== 0) return identity;
  scalar[0] = 1;
  const data = regroup(scalar, 8, 5) ?? [];
  return `${PREFIX}1${[...data, ...checksum(data)].map((word) => CHARSET[word]).join('')}`.toUpperCase();
}

/**
 * `seal()` again while it fails with the DataError WebKitGTK gives a zero-first-byte ephemeral key; each try draws new
 * keys. Any other failure, or the last try's, is thrown as it came.
 */
export async function sealRetrying<T>(seal: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await seal();
    } catch (error) {
      if (attempt >= SEAL_TRIES || !(error instanceof DOMException && error.name === 'DataError')) throw error;
    }
  }
}

/** BIP-173's checksum over the prefix's expansion and `words`: 1 for a valid string. */
function polymod(values: readonly number[]): number {
  let check = 1;
  for (const value of values) {
    const top = check >>> 25;
    check = ((check & 0x1ffffff) << 5) ^ value;
    GENERATOR.forEach((generator, i) => {
      if (((top >>> i) & 1) === 1) check ^= generator;
    });
  }
  return check >>> 0;
}

function expandPrefix(): number[] {
  const codes = [...PREFIX].map((char) => char.charCodeAt(0));
  return [...codes.map((code) => code >>> 5), 0, ...codes.map((code) => code & 31)];
}

function checksum(data: readonly number[]): number[] {
  const mod = polymod([...expandPrefix(), ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  return [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
}

/** `values` of `from` bits as values of `to` bits; 8 → 5 pads, 5 → 8 refuses non-zero padding (undefined). */
function regroup(values: readonly number[] | Uint8Array, from: number, to: number): number[] | undefined {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  for (const value of values) {
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >>> bits) & ((1 << to) - 1));
    }
    acc &= (1 << bits) - 1;
  }
  if (to === 5 && bits > 0) out.push((acc << (to - bits)) & 31);
  else if (to === 8 && (bits >= from || acc !== 0)) return undefined;
  return out;
}
