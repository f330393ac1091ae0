// SHA-256 (FIPS 180-4) in plain TypeScript, for pages without Web Crypto: `crypto.subtle` exists only in secure
// contexts, so an app on http:// from a LAN address or a dev host name has none (./README.md, "Without Web Crypto").

/** UTF-16 units encoded at a time: a big text goes through one small buffer, never copied whole. */
export const TEXT_CHUNK = 16_384;

/** The 64 round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = words([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
/** The initial state: the same of the square roots of the first 8 primes. */
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** SHA-256 fed in pieces: `update` as often as needed, then `digest` once. */
export class Sha256 {
  // Words live in DataViews, big-endian as the standard reads them: the state's bytes are the digest.
  readonly #state = words(INITIAL);
  readonly #schedule = new DataView(new ArrayBuffer(256));
  readonly #block = new Uint8Array(64);
  readonly #blockView = new DataView(this.#block.buffer);
  #filled = 0;
  /** Bytes so far: exact far beyond any text a page can hold (2^53). */
  #length = 0;

  update(bytes: Uint8Array): void {
    this.#length += bytes.length;
    let at = 0;
    if (this.#filled > 0) {
      at = Math.min(64 - this.#filled, bytes.length);
      this.#block.set(bytes.subarray(0, at), this.#filled);
      this.#filled += at;
      if (this.#filled < 64) return;
      this.#compress(this.#blockView, 0);
      this.#filled = 0;
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (; at + 64 <= bytes.length; at += 64) this.#compress(view, at);
    this.#block.set(bytes.subarray(at));
    this.#filled = bytes.length - at;
  }

  digest(): Uint8Array<ArrayBuffer> {
    // Padding: 0x80, zeros, then the length in bits as 64 bits, ending on a block boundary (one block more if
    // fewer than 9 bytes are left in this one).
    const tail = new Uint8Array(this.#filled < 56 ? 64 : 128);
    tail.set(this.#block.subarray(0, this.#filled));
    tail[this.#filled] = 0x80;
    const view = new DataView(tail.buffer);
    const bits = this.#length * 8;
    view.setUint32(tail.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(tail.length - 4, bits >>> 0);
    for (let at = 0; at < tail.length; at += 64) this.#compress(view, at);
    return new Uint8Array(this.#state.buffer.slice(0));
  }

  /** One 64-byte block at `offset` of `data` into the state. */
  #compress(data: DataView, offset: number): void {
    const w = this.#schedule;
    const state = this.#state;
    for (let i = 0; i < 64; i += 4) w.setInt32(i, data.getInt32(offset + i));
    for (let i = 64; i < 256; i += 4) {
      const x = w.getInt32(i - 60);
      const y = w.getInt32(i - 8);
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
      w.setInt32(i, (w.getInt32(i - 64) + s0 + w.getInt32(i - 28) + s1) | 0);
    }
    let a = state.getInt32(0);
    let b = state.getInt32(4);
    let c = state.getInt32(8);
    let d = state.getInt32(12);
    let e = state.getInt32(16);
    let f = state.getInt32(20);
    let g = state.getInt32(24);
    let h = state.getInt32(28);
    for (let i = 0; i < 256; i += 4) {
      const sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const choice = (e & f) ^ (~e & g);
      const t1 = (h + sum1 + choice + K.getInt32(i) + w.getInt32(i)) | 0;
      const sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const majority = (a & b) ^ (a & c) ^ (b & c);
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + sum0 + majority) | 0;
    }
    [a, b, c, d, e, f, g, h].forEach((word, i) => state.setInt32(i * 4, (state.getInt32(i * 4) + word) | 0));
  }
}

/**
 * A function that hashes a text's UTF-8 exactly as `TextEncoder` writes it (a lone surrogate is U+FFFD), slice by
 * slice through one buffer it keeps for every text it is given.
 */
export function textHasher(): (text: string) => Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const scratch = new Uint8Array(TEXT_CHUNK * 3);
  return (text) => {
    const hash = new Sha256();
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + TEXT_CHUNK, text.length);
      // A pair cut in two would encode as two U+FFFD: its high half waits for the next slice.
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      const { written } = encoder.encodeInto(text.slice(start, end), scratch);
      hash.update(scratch.subarray(0, written));
      start = end;
    }
    return hash.digest();
  };
}

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function words(values: readonly number[]): DataView<ArrayBuffer> {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((value, i) => view.setUint32(i * 4, value));
  return view;
}
