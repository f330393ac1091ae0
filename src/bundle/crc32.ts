// CRC-32 (the zip one: IEEE 802.3, reflected, 0xEDB88320), fed a slice at a time: a zip entry's checksum, and the
// check on a name's Unicode Path field. Our own, as fflate keeps its own private.

let table: Uint32Array | undefined;

/** The CRC-32 of `bytes` continued from `crc` (0 to start), as an unsigned number. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  const t = (table ??= makeTable());
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = (t[(c ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return ~c >>> 0;
}

function makeTable(): Uint32Array {
  const out = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    out[n] = c >>> 0;
  }
  return out;
}
