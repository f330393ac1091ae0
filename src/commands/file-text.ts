// A file's text as view and the edits read it: the body the read-ahead guessed, if it is the entry's own.

import type { EntryRecord } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import { getRecord } from '../storage/store.js';
import { readBody } from '../storage/entries.js';

type ReadTx = MemoryTx<'readonly'> | MemoryTx<'readwrite'>;

/** The body `guess` names, read now, beside the entry; nothing without a guess. */
export function readAhead(tx: ReadTx, guess: number | undefined): Promise<string | undefined> | undefined {
  if (guess === undefined) return undefined;
  const body = getRecord(tx, 'bodies', guess);
  // Unused when the guess was wrong; a failed read fails the transaction, which the caller hears of anyway.
  body.catch(() => undefined);
  return body;
}

/** A file's text: the body read ahead when it is the entry's own, otherwise read now. */
export async function bodyOf(
  tx: ReadTx,
  entry: EntryRecord,
  guess: number | undefined,
  ahead: Promise<string | undefined> | undefined,
): Promise<string> {
  return ahead && entry.bodyId === guess ? ((await ahead) ?? '') : readBody(tx, entry);
}
