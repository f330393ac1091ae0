// A zip as a bundle, before a byte is inflated: each entry's name, kind, encryption, method and declared size
// checked, the memories/ folder found (at the top, or inside one folder at the top, as a zip of the official Node
// tool's folder has it), and every entry put through the checks of a JSON bundle's entries.

import type { ResolvedLimits } from '../core/limits.js';
import { EntryChecker } from './check-entries.js';
import type { CheckedFile, CheckedFolder, ParsedBundle, PathSecret } from './check-entries.js';
import { crc32 } from './crc32.js';
import { refused, shownPath } from './refusal.js';
import { bundleReply } from './replies.js';
import { BlobWindow, extraField, isZipSignature, readCentralDirectory, readLocalHeaders, u32 } from './zip-records.js';
import type { ZipRecord } from './zip-records.js';
import { zipTimes } from './zip-times.js';

/** A zip checked whole but not inflated: its files with their declared sizes and no content yet. */
export interface ZipListing {
  bundle: ParsedBundle;
  /** The record of each of `bundle.files`, in the same order. */
  records: ZipRecord[];
}

const STORED = 0;
const DEFLATED = 8;
const UNICODE_PATH = 0x7075;
// The file type in the high bits of a Unix mode (external attributes >> 16).
const TYPE_MASK = 0o170000;
const [REGULAR, FOLDER, SYMLINK] = [0o100000, 0o040000, 0o120000];
const DOS_FOLDER = 0x10;

/**
 * The most entries a zip may declare for an import into a memory of these limits: a file, its folder entry, and the
 * `__MACOSX/` twins of both (Finder's zips) for each file `maxFiles` allows, and 1,000 more. Checked on the end record,
 * before the directory is read: the work and memory an import spends per entry stay bounded by the app's own limit.
 */
export function zipEntryLimit(limits: Pick<ResolvedLimits, 'maxFiles'>): number {
  return 4 * limits.maxFiles + 1000;
}

interface NamedEntry {
  record: ZipRecord;
  name: string;
  where: string;
  folder: boolean;
}

/** True for a Blob (of any realm) that starts as a zip does; a string never is one. */
export async function startsAsZip(input: unknown): Promise<boolean> {
  const blob = input as { slice?: unknown; arrayBuffer?: unknown } | null;
  if (typeof blob !== 'object' || blob === null || typeof blob.slice !== 'function') return false;
  const head = (input as Blob).slice(0, 4);
  return isZipSignature(new Uint8Array(await head.arrayBuffer()));
}

/** The zip's files and folders, every check done that needs neither the memory nor the inflated data. */
export async function listZip(blob: Blob, limits: Readonly<ResolvedLimits>, pathSecret?: PathSecret): Promise<ZipListing> {
  const reader = new BlobWindow(blob);
  const { records, end } = await readCentralDirectory(reader, zipEntryLimit(limits));
  const named = records.map(namedEntry);
  await readLocalHeaders(reader, records, end, (record) => named[record.number - 1]?.where ?? '');
  const entries = named.filter((entry) => !isLitter(entry.name));
  const prefix = wrapperOf(entries);

  const checker = new EntryChecker(limits, pathSecret);
  const files: CheckedFile[] = [];
  const fileRecords: ZipRecord[] = [];
  const folders: { entry: NamedEntry; path: string }[] = [];
  for (const entry of entries) {
    if (prefix !== '' && entry.name === prefix) continue; // the wrapper folder itself
    const inside = entry.name.startsWith(prefix) ? entry.name.slice(prefix.length) : '';
    if (inside !== 'memories' && !inside.startsWith('memories/')) throw refused(entry.where, bundleReply.zipOutside());
    const path = `/${inside}`;
    if (entry.folder) {
      folders.push({ entry, path });
      continue;
    }
    const { record, where } = entry;
    const key = checker.file(where, path, record.size);
    const { created, modified } = zipTimes(record.centralExtra, record.localExtra, record.dos);
    // No content until inflated: the size is the declared one, which inflating holds the entry to.
    const file = { where, key, content: '', size: record.size, createdAt: created, updatedAt: modified };
    files.push({ ...file, sha256: undefined });
    fileRecords.push(record);
  }
  const checkedFolders: CheckedFolder[] = [];
  for (const { entry, path } of folders) {
    // `memories/` itself is in most zips of the memory: the root, which always exists.
    const key = checker.folder(entry.where, path, 'skip');
    if (key !== undefined) checkedFolders.push({ where: entry.where, key });
  }
  return { bundle: { fileCount: files.length, files, folders: checkedFolders }, records: fileRecords };
}

/** An entry's name and kind, or the refusal of what no import takes, whatever its path. */
function namedEntry(record: ZipRecord): NamedEntry {
  const name = nameOf(record);
  if (name === undefined) throw refused(bundleReply.zipEntry(record.number), bundleReply.zipNameNotUtf8());
  const where = bundleReply.zipEntry(record.number, shownPath(name));
  const folder = name.endsWith('/');
  const entry = { record, name, where, folder };
  if (isLitter(name)) return entry; // never read
  if ((record.flags & 1) !== 0) throw refused(where, bundleReply.zipEncrypted());
  if (name.startsWith('/') || /^[a-z]:/iu.test(name)) throw refused(where, bundleReply.zipAbsolute());
  if (name.includes('\\')) throw refused(where, bundleReply.zipBackslash());
  if (name.split('/').includes('..')) throw refused(where, bundleReply.zipSlip());
  const type = (record.externalAttributes >>> 16) & TYPE_MASK;
  if (type === SYMLINK) throw refused(where, bundleReply.zipSymlink());
  if (type !== 0 && type !== REGULAR && type !== FOLDER) throw refused(where, bundleReply.zipSpecialFile());
  const markedFolder = type === FOLDER || (type === 0 && (record.externalAttributes & DOS_FOLDER) !== 0);
  if (markedFolder && !folder) throw refused(where, bundleReply.zipFolderName());
  if (folder) {
    if (record.size !== 0) throw refused(where, bundleReply.zipFolderData(record.size));
    return entry;
  }
  if (record.method !== STORED && record.method !== DEFLATED) {
    throw refused(where, bundleReply.zipMethod(record.method));
  }
  if (record.method === STORED && record.compressedSize !== record.size) {
    throw refused(where, bundleReply.zipDamaged(bundleReply.zipStoredSizes(record.compressedSize, record.size)));
  }
  return entry;
}

/**
 * The name as UTF-8: flagged so (bit 11), or in a Unicode Path field whose CRC matches the name it stands for (what
 * Info-ZIP's zip writes), or unflagged bytes that are valid UTF-8 (macOS and others). Any other bytes are an old
 * code page, which could only be guessed at: undefined.
 */
function nameOf(record: ZipRecord): string | undefined {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const unicodePath = (record.flags & 0x800) === 0 ? extraField(record.centralExtra, UNICODE_PATH) : undefined;
  const stands =
    unicodePath !== undefined &&
    unicodePath.length >= 5 &&
    unicodePath[0] === 1 &&
    u32(unicodePath, 1) === crc32(record.name);
  const bytes = stands ? unicodePath.subarray(5) : record.name;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** What macOS adds to a zip it makes, never part of a memory: resource forks and Finder's folder settings. */
function isLitter(name: string): boolean {
  return name.startsWith('__MACOSX/') || name === '.DS_Store' || name.endsWith('/.DS_Store');
}

/**
 * `''` when the zip holds `memories/` at its top, else its first entry's top folder (`base/` of a zip of the Node
 * tool's folder), which every entry must then lie in.
 */
function wrapperOf(entries: readonly NamedEntry[]): string {
  const first = entries[0]?.name ?? '';
  const top = first.slice(0, first.indexOf('/') + 1);
  return top === 'memories/' ? '' : top;
}
