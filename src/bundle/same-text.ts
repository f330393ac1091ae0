// Which bundle files land on a memory file holding the very same text, so an import leaves them as they are: only
// files of the same size are read, in the import's own transaction (reads only, so nothing else is awaited in it).

import type { EntryRecord } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import type { ParsedBundle } from './check-entries.js';

/** The keys where a memory file of the bundle file's size stands: the candidates, before any text is read. */
export function sameSize(existing: readonly EntryRecord[], bundle: ParsedBundle): Set<string> {
  const byPath = new Map(existing.map((entry) => [entry.path, entry]));
  const keys = new Set<string>();
  for (const file of bundle.files) {
    const there = byPath.get(file.key);
    if (there?.kind === 'file' && there.bodyId !== undefined && there.size === file.size) keys.add(file.key);
  }
  return keys;
}

/** The keys where the memory file holds exactly the bundle file's text. */
export async function sameText(
  tx: MemoryTx<'readonly'> | MemoryTx<'readwrite'>,
  existing: readonly EntryRecord[],
  bundle: ParsedBundle,
): Promise<Set<string>> {
  const candidates = sameSize(existing, bundle);
  if (candidates.size === 0) return candidates;
  const byPath = new Map(existing.map((entry) => [entry.path, entry]));
  const files = bundle.files.filter((file) => candidates.has(file.key));
  const bodies = tx.objectStore('bodies');
  const texts = await Promise.all(files.map((file) => bodies.get(byPath.get(file.key)?.bodyId ?? -1)));
  return new Set(files.filter((file, i) => texts[i] === file.content).map((file) => file.key));
}
