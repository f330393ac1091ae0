// What a conversation wrote, for the Memory panel to open when a turn (live or an Offline demo script) ends: the file
// Claude changed last, and which of its lines differ from before it began (the texts the history keeps, line-diff.ts).

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { diffLines } from '../history/line-diff.js';

/** A file and its changed lines (1-based, in the text it has now). */
export interface WrittenFile {
  path: string;
  changed: Set<number>;
}

/** The newest change in the history: what comes after it is what happens from now on. */
export async function historyMark(tool: IndexedDBMemoryTool): Promise<number> {
  const [newest] = await tool.history({ limit: 1 });
  return newest?.id ?? 0;
}

/** The file Claude wrote last since `mark`, or undefined if it wrote none that is still there. */
export async function writtenSince(tool: IndexedDBMemoryTool, mark: number): Promise<WrittenFile | undefined> {
  const entries = (await tool.history({ actor: 'claude' })).filter((entry) => entry.id > mark && !entry.undone);
  const details = [];
  for (const entry of entries) {
    const detail = await tool.change(entry.id);
    if (detail) details.push(detail);
  }
  // Newest first: the last file written that still has a text.
  const path = details.flatMap((detail) => detail.files).find((file) => file.after !== null)?.path;
  if (path === undefined) return undefined;
  // Its text before the script's first change to it (null: the script created it).
  const first = details.flatMap((detail) => detail.files).filter((file) => file.path === path).at(-1);
  let now: string;
  try {
    now = await tool.read(path);
  } catch {
    return undefined; // gone since (another tab)
  }
  const changed = new Set<number>();
  let line = 0;
  for (const { type } of diffLines(first?.before ?? null, now)) {
    if (type === 'removed') continue;
    line++;
    if (type === 'added') changed.add(line);
  }
  return { path, changed };
}

/**
 * Opens in the Memory panel the file Claude wrote since `mark` (undefined: nothing to show), its new lines marked,
 * and says so in a note in the transcript; `who` names the writer there ("Claude", "the script").
 */
export async function openWritten(
  tool: IndexedDBMemoryTool,
  memory: { open(path: string, changed?: ReadonlySet<number>): Promise<void> },
  mark: number | undefined,
  transcript: { note(text: string): void },
  who: string,
): Promise<void> {
  const written = mark === undefined ? undefined : await writtenSince(tool, mark).catch(() => undefined);
  if (!written) return;
  await memory.open(written.path, written.changed);
  const what = written.changed.size > 0 ? `the lines ${who} wrote marked` : `unchanged since ${who} began`;
  transcript.note(`Opened ${written.path} in the Memory panel, ${what}.`);
}
