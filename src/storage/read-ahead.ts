// Which body each file had when this tool last saw it, read beside the entry: a guess (./README.md, "Read-ahead").

import type { EntryRecord } from './schema.js';

/** Bodies above this are not guessed: a wrong guess would read them for nothing, and their read dwarfs a round trip. */
export const READ_AHEAD_BYTES = 64 * 1024;
/** Files remembered, the least recently seen forgotten first. */
export const READ_AHEAD_FILES = 256;

/** What a command asks of the guesses: a {@link ReadAhead}, or one write's {@link StagedReadAhead}. */
export interface BodyGuesses {
  guess(key: string): number | undefined;
  saw(key: string, entry: EntryRecord | undefined): void;
}

export class ReadAhead implements BodyGuesses {
  readonly #bodies = new Map<string, number>();

  /** The body to read beside `key`'s entry, if one is worth guessing. */
  guess(key: string): number | undefined {
    return this.#bodies.get(key);
  }

  /** What `key` holds as of a read or a write: a file's entry (its body is remembered if small), or nothing. */
  saw(key: string, entry: EntryRecord | undefined): void {
    this.#bodies.delete(key);
    if (entry?.kind !== 'file' || entry.bodyId === undefined || entry.size > READ_AHEAD_BYTES) return;
    this.#bodies.set(key, entry.bodyId);
    if (this.#bodies.size > READ_AHEAD_FILES) {
      for (const oldest of this.#bodies.keys()) {
        this.#bodies.delete(oldest);
        break;
      }
    }
  }
}

/** One write's guesses: taken from `into`, and what it saw kept there only once it has committed (`commit`). */
export class StagedReadAhead implements BodyGuesses {
  readonly #into: ReadAhead;
  readonly #seen: Array<[string, EntryRecord | undefined]> = [];

  constructor(into: ReadAhead) {
    this.#into = into;
  }

  guess(key: string): number | undefined {
    return this.#into.guess(key);
  }

  saw(key: string, entry: EntryRecord | undefined): void {
    this.#seen.push([key, entry]);
  }

  /** Once the transaction has committed: what it saw becomes the guesses. */
  commit(): void {
    for (const [key, entry] of this.#seen) this.#into.saw(key, entry);
  }
}
