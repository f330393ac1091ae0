// Positional postings packed as the index stores them: delta-encoded varints in a Uint8Array, each body's word
// positions beside its count, so a phrase is counted without reading the text (./README.md, "The format").

/** One body's postings of a word: how often it holds it, and where its position gaps lie in `bytes`. */
export interface Posting {
  count: number;
  bytes: Uint8Array;
  start: number;
  end: number;
  /** Another word's posting for the same body (a prefix matching several words): counts add, positions merge. */
  more?: Posting;
}

/** One word's postings while they are worked on: body id → posting. */
export type Postings = Map<number, Posting>;

/** A growing byte buffer written as varints (7 bits a byte, the high bit set on all but the last). */
export class ByteWriter {
  #bytes = new Uint8Array(64);
  length = 0;

  #room(more: number): void {
    if (this.length + more <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.length + more));
    grown.set(this.#bytes.subarray(0, this.length));
    this.#bytes = grown;
  }

  varint(value: number): void {
    this.#room(5);
    let left = value;
    while (left >= 0x80) {
      this.#bytes[this.length++] = (left & 0x7f) | 0x80;
      left >>>= 7;
    }
    this.#bytes[this.length++] = left;
  }

  copy(bytes: Uint8Array, start: number, end: number): void {
    this.#room(end - start);
    this.#bytes.set(bytes.subarray(start, end), this.length);
    this.length += end - start;
  }

  /** The bytes written, in an array of their own size (stored as is). */
  done(): Uint8Array {
    return this.#bytes.slice(0, this.length);
  }
}

/**
 * A term's postings packed: for each body in ascending id order, the id's gap from the previous one (the first: the id),
 * the count, the byte length of its positions, then the positions' gaps (the first: the position). The length lets a
 * word query skip positions, and a merge copy them as they are.
 */
export class RunWriter {
  readonly #out = new ByteWriter();
  #last = 0;
  first: number | undefined;

  /** Appends body `id` (above every id appended before) with its word positions, ascending. */
  add(id: number, positions: readonly number[]): void {
    const gaps = new ByteWriter();
    let previous = 0;
    for (const position of positions) {
      gaps.varint(position - previous);
      previous = position;
    }
    this.#head(id, positions.length, gaps.length);
    const bytes = gaps.done();
    this.#out.copy(bytes, 0, bytes.length);
  }

  /** Appends body `id` with a count and no positions (a biword, ./biwords.ts). */
  addCount(id: number, count: number): void {
    this.#head(id, count, 0);
  }

  /** Appends a decoded posting (its positions copied as stored). */
  addPosting(id: number, posting: Posting): void {
    this.#head(id, posting.count, posting.end - posting.start);
    this.#out.copy(posting.bytes, posting.start, posting.end);
  }

  #head(id: number, count: number, length: number): void {
    this.first ??= id;
    this.#out.varint(id - this.#last);
    this.#out.varint(count);
    this.#out.varint(length);
    this.#last = id;
  }

  /** Bytes written so far (a segment is closed once past its size, ./position-segments.ts). */
  get length(): number {
    return this.#out.length;
  }

  done(): Uint8Array {
    return this.#out.done();
  }
}

/** Reads varints from `bytes` in turn (no allocation a value: a query decodes hundreds of thousands). */
class VarintReader {
  at: number;
  constructor(
    readonly bytes: Uint8Array,
    start = 0,
  ) {
    this.at = start;
  }

  next(): number {
    const bytes = this.bytes;
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[this.at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80 || this.at >= bytes.length) return value;
      shift += 7;
    }
  }
}

/**
 * A stored run's postings into `into` (a body already there gets this one chained). Anything but a Uint8Array is an
 * older format's value, never read: the index is rebuilt when its format changes.
 */
export function decodeRun(packed: unknown, into: Postings = new Map()): Postings {
  scanRun(packed, () => true, (id, posting) => {
    const had = into.get(id);
    if (had) posting.more = had;
    into.set(id, posting);
  });
  return into;
}

/**
 * Walks a stored run, handing `take` a posting for each body `wanted` accepts; the others' positions are skipped
 * unread and nothing is allocated for them (a phrase keeps a few hundred bodies of a common word's 10,000).
 */
export function scanRun(packed: unknown, wanted: (id: number) => boolean, take: (id: number, posting: Posting) => void): void {
  if (!(packed instanceof Uint8Array)) return;
  const reader = new VarintReader(packed);
  let id = 0;
  while (reader.at < packed.length) {
    id += reader.next();
    const count = reader.next();
    const length = reader.next();
    const start = reader.at;
    reader.at = start + length;
    if (wanted(id)) take(id, { count, bytes: packed, start, end: start + length });
  }
}

/** Walks a stored run handing `take` each body's id and count; positions skipped, nothing allocated (a word query). */
export function scanCounts(packed: unknown, take: (id: number, count: number) => void): void {
  if (!(packed instanceof Uint8Array)) return;
  const reader = new VarintReader(packed);
  let id = 0;
  while (reader.at < packed.length) {
    id += reader.next();
    const count = reader.next();
    const length = reader.next();
    reader.at += length;
    take(id, count);
  }
}

/** Packs `postings` (any order) as one run; `positions` false: their counts alone (each positions' length 0). */
export function encodeRun(postings: Postings, positions = true): Uint8Array {
  const writer = new RunWriter();
  for (const id of [...postings.keys()].sort((a, b) => a - b)) {
    const posting = postings.get(id);
    if (!posting) continue;
    if (!positions) writer.addPosting(id, { count: countOf(posting), bytes: posting.bytes, start: 0, end: 0 });
    else if (posting.more) writer.add(id, positionsOf(posting));
    else writer.addPosting(id, posting);
  }
  return writer.done();
}

/** A posting's word positions, ascending (a chained one's merged). */
export function positionsOf(posting: Posting): number[] {
  const out: number[] = [];
  for (let part: Posting | undefined = posting; part; part = part.more) {
    const reader = new VarintReader(part.bytes, part.start);
    let position = 0;
    while (reader.at < part.end) {
      position += reader.next();
      out.push(position);
    }
  }
  if (posting.more) out.sort((a, b) => a - b);
  return out;
}

/** A posting's count, a chained one's summed. */
export function countOf(posting: Posting): number {
  let count = 0;
  for (let part: Posting | undefined = posting; part; part = part.more) count += part.count;
  return count;
}

/**
 * How many times a phrase occurs given each of its words' positions in one body (ascending), its words next to each
 * other and in order, occurrences not overlapping: exactly `countClause` over the body's words.
 */
export function countPhrase(positions: ReadonlyArray<readonly number[]>): number {
  const [first, ...rest] = positions;
  if (!first) return 0;
  const sets = rest.map((list) => new Set(list));
  const n = positions.length;
  let count = 0;
  let free = 0;
  for (const start of first) {
    if (start < free) continue;
    if (sets.every((set, j) => set.has(start + j + 1))) {
      count++;
      free = start + n;
    }
  }
  return count;
}

/**
 * `countPhrase` over one body's postings of the phrase's words (in its order), without a set or array a body: the
 * positions are decoded into `scratch` (kept by the caller across bodies) and walked with a pointer a word.
 */
export function countPhraseIn(postings: ReadonlyArray<Posting | undefined>, scratch: number[][]): number {
  const n = postings.length;
  for (let j = 0; j < n; j++) {
    const posting = postings[j];
    if (!posting) return 0;
    const list = (scratch[j] ??= []);
    list.length = 0;
    if (posting.more) list.push(...positionsOf(posting));
    else {
      const reader = new VarintReader(posting.bytes, posting.start);
      let position = 0;
      while (reader.at < posting.end) list.push((position += reader.next()));
    }
  }
  const pointers = (scratch[n] ??= []);
  pointers.length = 0;
  for (let j = 0; j < n; j++) pointers.push(0);
  const first = scratch[0] ?? [];
  let count = 0;
  let free = 0;
  for (const start of first) {
    if (start < free) continue;
    let j = 1;
    for (; j < n; j++) {
      const list = scratch[j] ?? [];
      const want = start + j;
      let at = pointers[j] ?? 0;
      while (at < list.length && (list[at] ?? 0) < want) at++;
      pointers[j] = at;
      // A word's positions all passed: no later start can match either.
      if (at >= list.length) return count;
      if (list[at] !== want) break;
    }
    if (j < n) continue;
    count++;
    free = start + n;
  }
  return count;
}

