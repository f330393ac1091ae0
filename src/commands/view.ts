// The view command: a folder's two-level listing (R-view-folder in ./README.md) or a file's lines (R-view-file).

import type { ViewCommand } from '../core/command-input.js';
import { MemoryToolError } from '../core/errors.js';
import { compareKeys, isHiddenName, nameOf, normalizeMemoryPath } from '../core/paths.js';
import { FOLDER_SIZE, formatSize, reply } from '../core/replies.js';
import { getEntry } from '../storage/entries.js';
import type { BodyGuesses } from '../storage/read-ahead.js';
import type { EntryRecord } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import { plainStore, request } from '../storage/store.js';
import { fileView, folderView } from './bounded-replies.js';
import { bodyOf, readAhead } from './file-text.js';

type ReadTx = MemoryTx<'readonly'> | MemoryTx<'readwrite'>;

/**
 * A folder's listing or a file's lines; `onFileRead` hears which file was shown, `ahead` guesses its body, `search`
 * names the search tool a cut listing offers.
 */
export async function view(
  tx: ReadTx,
  command: ViewCommand,
  maxReplyChars: number,
  onFileRead?: (entry: EntryRecord) => void,
  ahead?: BodyGuesses,
  search?: string,
): Promise<string> {
  const key = normalizeMemoryPath(command.path);
  const guess = ahead?.guess(key);
  const early = readAhead(tx, guess);
  // A name without an extension is most likely a folder: its children are read beside its entry, a round trip sooner.
  const children = guess !== undefined || nameOf(key).includes('.') ? undefined : childrenOf(tx, key);
  children?.catch(() => undefined);
  const entry = await getEntry(tx, key);
  ahead?.saw(key, entry);
  // R-view-missing
  if (!entry) throw new MemoryToolError('not_found', reply.viewMissing(command.path));
  if (entry.kind === 'folder') {
    const [header, own, entries] = await listFolder(tx, key, command.path, children);
    return folderView(header, own, entries, command.view_range, maxReplyChars, search);
  }
  const text = fileView(command.path, await bodyOf(tx, entry, guess, early), command.view_range, maxReplyChars);
  onFileRead?.(entry);
  return text;
}

const isVisible = (entry: EntryRecord): boolean => !isHiddenName(nameOf(entry.path));
// By UTF-16 code units, as Array.prototype.sort() orders names (R-view-folder).
const byName = (a: EntryRecord, b: EntryRecord): number => compareKeys(a.path, b.path);

/** The entries whose parent is `folder`, from the parent index. */
const childrenOf = (tx: ReadTx, folder: string): Promise<EntryRecord[]> =>
  request(plainStore(tx, 'entries').index('parent').getAll(folder)) as Promise<EntryRecord[]>;

/** Two levels below `key`, from the parent index (`read`: the first level, if sent already). */
async function listFolder(
  tx: ReadTx,
  key: string,
  shownPath: string,
  read = childrenOf(tx, key),
): Promise<[string, string, string[]]> {
  const children = (await read).filter(isVisible).sort(byName);
  const grandchildren = await Promise.all(
    children.map((child) => (child.kind === 'folder' ? childrenOf(tx, child.path) : Promise.resolve([]))),
  );
  const lines: string[] = [];
  // R-sizes: every folder is 4K, a file its UTF-8 size.
  const line = (entry: EntryRecord, rel: string): string =>
    entry.kind === 'folder' ? `${FOLDER_SIZE}\t${shownPath}/${rel}/` : `${formatSize(entry.size)}\t${shownPath}/${rel}`;
  children.forEach((child, i) => {
    const childName = nameOf(child.path);
    lines.push(line(child, childName));
    for (const grandchild of (grandchildren[i] ?? []).filter(isVisible).sort(byName)) {
      lines.push(line(grandchild, `${childName}/${nameOf(grandchild.path)}`));
    }
  });
  return [reply.listingHeader(shownPath), `${FOLDER_SIZE}\t${shownPath}`, lines];
}
