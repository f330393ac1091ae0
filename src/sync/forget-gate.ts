// The pushes under way in this page, by database, so that `forget()` resolves only once none of them can still land a
// forgotten text on a remote (./README.md, "Forgetting"). A pass checks the marks before each push; this covers the
// push already sent when the forget committed.

import { covers } from './forget-marks.js';

const underWay = new Map<string, Set<{ key: string; done: Promise<unknown> }>>();

/** Runs `send`, the push of the local file `key` of database `db`, known as under way until it settles. */
export async function pushing<T>(db: string, key: string, send: () => Promise<T>): Promise<T> {
  const set = underWay.get(db) ?? new Set();
  underWay.set(db, set);
  const done = send();
  const entry = { key, done };
  set.add(entry);
  try {
    return await done;
  } finally {
    set.delete(entry);
    if (set.size === 0) underWay.delete(db);
  }
}

/** Waits for the pushes under way of `key`, what is below it, and its conflict copies (whatever their outcome). */
export async function pushesSettled(db: string, key: string): Promise<void> {
  const pending = [...(underWay.get(db) ?? [])].filter((entry) => covers(key, entry.key));
  await Promise.all(pending.map((entry) => entry.done.catch(() => undefined)));
}
