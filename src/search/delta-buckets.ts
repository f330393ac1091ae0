// A big drain chunk's delta rows: its terms' runs grouped by a hash of the term into a few bucket rows, so a chunk
// writes ~128 records, not one per distinct word (./README.md, "The index").

/** How many buckets a big chunk's runs are spread over. */
export const BUCKETS = 128;

// A bucket row's key is `[' ' + n, first body id]`: a term is word characters only (never a space), so no term's range
// holds a bucket, and the buckets sort before every term (every word character is above the space).
const MARK = ' ';

/** The delta key's first part for `term`'s bucket (FNV-1a over its code units). */
export function bucketOf(term: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 0x01000193);
  return MARK + ((hash >>> 0) % BUCKETS);
}

/** Whether a delta key's first part names a bucket (else it is a term). */
export const isBucket = (first: string): boolean => first.startsWith(MARK);

/** Every row of bucket `name`. */
export const bucketRange = (name: string): IDBKeyRange => IDBKeyRange.bound([name], [name, Infinity]);
/** Every bucket row. */
export const BUCKET_ROWS = (): IDBKeyRange => IDBKeyRange.bound([MARK], [MARK + '\uffff', Infinity]);
/** Every term row (each word character is at least `0`). */
export const TERM_ROWS = (): IDBKeyRange => IDBKeyRange.lowerBound(['0']);

/** Packs `[term, run]` pairs as one bucket row: per pair, the term's length and code units, the run's length and bytes. */
export function packBucket(runs: ReadonlyArray<readonly [string, Uint8Array]>): Uint8Array {
  let size = 0;
  for (const [term, run] of runs) size += 5 + term.length * 3 + 5 + run.length;
  const out = new Uint8Array(size);
  let at = 0;
  const varint = (value: number): void => {
    let left = value;
    while (left >= 0x80) {
      out[at++] = (left & 0x7f) | 0x80;
      left >>>= 7;
    }
    out[at++] = left;
  };
  for (const [term, run] of runs) {
    varint(term.length);
    for (let i = 0; i < term.length; i++) varint(term.charCodeAt(i));
    varint(run.length);
    out.set(run, at);
    at += run.length;
  }
  return out.slice(0, at);
}

/** Each `[term, run]` of a bucket row that `wanted` keeps (the run a view into the row). */
export function unpackBucket(packed: unknown, wanted: (term: string) => boolean): Array<[string, Uint8Array]> {
  const out: Array<[string, Uint8Array]> = [];
  if (!(packed instanceof Uint8Array)) return out;
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = packed[at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80 || at >= packed.length) return value;
      shift += 7;
    }
  };
  while (at < packed.length) {
    const length = varint();
    const codes: number[] = [];
    for (let i = 0; i < length; i++) codes.push(varint());
    const term = String.fromCharCode(...codes);
    const size = varint();
    if (wanted(term)) out.push([term, packed.subarray(at, at + size)]);
    at += size;
  }
  return out;
}
