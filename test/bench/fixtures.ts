// The benchmark's data, plan and result shapes, shared by the page (library and raw IndexedDB) and the Node
// peer (the SDK's file-system tool), so all three run the same command script on the same bytes.
// Pure: no DOM, no Node APIs.

/** The file sizes of the single-file commands. */
export const FILE_SIZES = [
  { label: '1 KB', bytes: 1024 },
  { label: '16 KB', bytes: 16 * 1024 },
  { label: '64 KB', bytes: 64 * 1024 },
  { label: '1 MB', bytes: 1024 * 1024 },
] as const;

/**
 * Bytes of the file `str_replace` and `insert` edit: the size itself, except 4 KB under the library's 1 MiB
 * per-file limit for the 1 MB case, so the lines `insert` adds never push it over.
 */
export const editTargetBytes = (bytes: number): number => (bytes >= 1024 * 1024 ? bytes - 4096 : bytes);

/** The size label of the rows that view or edit a 1 KB file the library has not seen (page.ts). */
export const UNSEEN = '1 KB, unseen';

/** Files per subfolder of `/memories/bulk`, so a listing of it shows two levels. */
export const FILES_PER_FOLDER = 100;
/** Bytes of each bulk file. */
export const BULK_FILE_BYTES = 1024;
/** Files of `/memories/small`, the folder listed beside the bulk. */
export const SMALL_FILES = 10;

/** The two strings `str_replace` swaps, each appearing exactly once in an edit target. */
export const TOKEN_A = 'MARKER_ALPHA_7f3a';
export const TOKEN_B = 'MARKER_OMEGA_9c1d';
/** The line `insert` adds after line 1 (short, so 200 inserts barely change a file's size). */
export const INSERT_TEXT = '- note';

/** How many timed runs (after `warmup` untimed ones) a case gets. */
export interface Reps {
  reps: number;
  warmup: number;
}

/** One memory the page builds and measures: `files` 1 KB files under `/memories/bulk`, plus the edit targets. */
export interface ScenarioPlan {
  /** Files under `/memories/bulk` (0: only `/memories/small`, the "alone" case). */
  files: number;
  /** Reps of each single-file command per size (sizes absent are skipped). */
  single: Partial<Record<(typeof FILE_SIZES)[number]['label'], Reps>>;
  /** Reps of listing the bulk folder, the small folder, renaming and deleting the bulk folder, export, import. */
  list?: Reps;
  listSmall?: Reps;
  renameFolder?: Reps;
  deleteFolder?: Reps;
  exportImport?: Reps;
  /** Reps of str_replace on a 1 MB file of one repeated character (the refusal of its many overlapping matches). */
  repeatedChar?: Reps;
  /** Only these commands (`--only`); all when absent. */
  only?: string[];
}

/** The old_str lengths of the `str_replace repeated` rows: each matches a million times, overlapping. */
export const REPEATED_OLD_STR = [10, 5000, 200_000] as const;

/** Export and import of a folder of `files` files of `bytes` each (no other files in that memory). */
export interface PayloadPlan {
  files: number;
  bytes: number;
  label: string;
  reps: Reps;
}

/** The timings of one case (ms per run), library and raw interleaved in the same loop. */
export interface CaseResult {
  /** Which table the row belongs to. */
  group: 'single' | 'bulk';
  command: string;
  /** Files in the memory (or in the folder exported/imported). */
  files: number;
  /** File size label (`1 KB`, …). */
  size: string;
  lib: number[];
  raw: number[];
  /**
   * For the 10-file listing in a memory of bulk files: the same listing in a memory of only those 10 files, open
   * beside it and timed in the same loop (library and raw), so that the growth with the memory's size is not the
   * machine's drift between two memories measured minutes apart.
   */
  alone?: { lib: number[]; raw: number[] };
  /** The SDK's Node tool on the same script, when it has the command. */
  peer?: number[];
  /** What the raw floor does, in words. */
  floor: string;
}

/** A folder path of the bulk layout for file number `i`. */
export function bulkPath(root: string, i: number): string {
  const folder = Math.floor(i / FILES_PER_FOLDER);
  return `${root}/d${String(folder).padStart(3, '0')}/f${String(i % FILES_PER_FOLDER).padStart(3, '0')}.md`;
}

/** The subfolders of a bulk layout of `files` files. */
export function bulkFolders(root: string, files: number): string[] {
  const folders = [root];
  for (let i = 0; i < Math.ceil(files / FILES_PER_FOLDER); i++) folders.push(`${root}/d${String(i).padStart(3, '0')}`);
  return folders;
}

/**
 * Markdown-like ASCII text of exactly `bytes` bytes, different for each `seed`. With `token` it holds
 * {@link TOKEN_A} once, in the middle, for `str_replace`.
 */
export function makeText(bytes: number, seed: number, token = false): string {
  const words = ['memory', 'project', 'notes', 'user', 'prefers', 'concise', 'answers', 'deadline', 'review', 'the'];
  const lines: string[] = [`# File ${seed}`];
  let length = lines[0]?.length ?? 0;
  let state = (seed * 2654435761) >>> 0;
  while (length < bytes) {
    let line = '-';
    for (let w = 0; w < 8; w++) {
      state = (state * 1103515245 + 12345) >>> 0;
      line += ' ' + (words[state % words.length] ?? 'x');
    }
    lines.push(line);
    length += line.length + 1;
  }
  let text = lines.join('\n').slice(0, bytes);
  if (token) {
    const middle = text.indexOf('\n', Math.floor(bytes / 2));
    const at = middle === -1 ? Math.floor(text.length / 2) : middle + 1;
    const insert = `${TOKEN_A}\n`;
    text = (text.slice(0, at) + insert + text.slice(at)).slice(0, bytes);
    if (!text.includes(TOKEN_A)) text = insert + text.slice(insert.length);
  }
  return text;
}

/** Median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
