// Every sentence Claude reads from a command, in one table, and the formatting of listings and numbered lines.
// Each entry keeps a rule (`R-…`) of ../commands/README.md: the official tool's text to the byte where it has one.

/** Width of the right-aligned line number, as in the SDK (String(999999).length). */
const LINE_NUMBER_WIDTH = 6;
/** The SDK refuses to view files with more lines than this. */
export const MAX_VIEW_LINES = 999_999;
/** What the SDK runner (and `tool.run`) puts before a refusal's message: the reply bound counts it too. */
export const ERROR_PREFIX = 'Error: ';

/** The longest reply Claude reads, in UTF-16 characters, unless `limits.maxReplyChars` says otherwise. */
export const MAX_REPLY_CHARS = 16_000;

/** Size as the SDK prints it (R-sizes): `0B`, `512B`, `1K`, `1.5K`, `1.0K` (1025), `1M`. */
export function formatSize(bytes: number): string {
  if (bytes <= 0) return '0B';
  const units = ['B', 'K', 'M', 'G'] as const;
  let size = bytes;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return (Number.isInteger(size) ? String(size) : size.toFixed(1)) + units[unit];
}

/** Every folder is listed as 4K, like a directory on the file systems the SDK tool runs on. */
export const FOLDER_SIZE = '4K';

/** One numbered line (R-view-file): the 1-based number right-aligned to six places, a tab, the text. */
export function numberedLine(lineNumber: number, text: string): string {
  return `${String(lineNumber).padStart(LINE_NUMBER_WIDTH, ' ')}\t${text}`;
}

export const reply = {
  // view: R-view-folder, R-view-file, R-view-missing, R-view-lines
  listingHeader: (path: string) =>
    `Here're the files and directories up to 2 levels deep in ${path}, excluding hidden items and node_modules:`,
  fileHeader: (path: string) => `Here's the content of ${path} with line numbers:`,
  viewMissing: (path: string) => `The path ${path} does not exist. Please provide a valid path.`,
  tooManyLines: (path: string, lines: number) =>
    `File ${path} has too many lines (${lines}). Maximum is ${MAX_VIEW_LINES.toLocaleString('en-US')} lines.`,
  // cut notes (bounded-replies.ts): R-cut-view, R-cut-line, R-cut-listing, R-view-range-folder, R-cut-snippet,
  // R-cut-refusals
  viewCut: (max: number, from: number, to: number, windowEnd: number, total: number) =>
    `[Output cut at ${max} characters: showing lines ${from}-${to} of ${total}. ` +
    `Use view_range [${to + 1}, ${windowEnd}] to see the rest.]`,
  lineCut: (max: number, line: number, shown: number, length: number, windowEnd: number) =>
    `[Output cut at ${max} characters: line ${line} is ${length} characters long ` +
    `and only its first ${shown} are shown. ` +
    `Use view_range [${line}, ${line}] to see the whole line` +
    (windowEnd > line ? `, then view_range [${line + 1}, ${windowEnd}] for the rest.]` : '.]'),
  // `search`: the search tool's name when Claude has one (../tool/search-offer.ts).
  listingCut: (max: number, from: number, to: number, windowEnd: number, total: number, search?: string) =>
    `[Listing cut at ${max} characters: showing entries ${from}-${to} of ${total}. ` +
    `Use view_range [${to + 1}, ${windowEnd}] on this folder to see the next ones, or view one of its folders` +
    `${search === undefined ? '' : `, or search with ${search}`}.]`,
  listingPart: (from: number, to: number, total: number) => `[Showing entries ${from}-${to} of ${total}.]`,
  noEntriesInRange: (start: number, end: number, total: number) =>
    `[view_range [${start}, ${end}] names no entries: this folder lists ${total} (view_range [1, ${total}]).]`,
  snippetCut: (max: number, from: number, to: number) =>
    `[Snippet cut at ${max} characters. View lines ${from}-${to} with view_range to see them; ` +
    'a range of one line shows it whole.]',
  oldStrCut: (shown: number, length: number) =>
    `[old_str is ${length} characters long; only its first ${shown} are shown above.]`,
  matchLinesCut: (listed: number, total: number, echoed: number, length: number) =>
    `[${listed} of the ${total} lines with a match are listed` +
    (echoed < length ? `, and the first ${echoed} of the ${length} characters of old_str` : '') +
    '. Add the text around old_str that makes it unique.]',

  // create: R-create, R-create-exists, R-below-file
  created: (path: string) => `File created successfully at: ${path}`,
  alreadyExists: (path: string) => `File ${path} already exists`,
  belowFile: (path: string, file: string) =>
    `Cannot create ${path}: ${file} is a file, so nothing can be stored below it.`,

  // str_replace: R-replace-snippet, R-replace-none, R-replace-many, R-edit-target (`notAFolder`: the app's list())
  edited: (snippet: string) =>
    `The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${snippet}`,
  noMatch: (oldStr: string, path: string) =>
    `No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`,
  multipleMatches: (oldStr: string, lines: readonly number[]) =>
    `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines: ${lines.join(', ')}. ` +
    'Please ensure it is unique',
  notAFile: (path: string) => `The path ${path} is not a file.`,
  notAFolder: (path: string) => `The path ${path} is not a folder.`,
  emptyOldStr: () => `Invalid input for str_replace: "old_str" must not be empty.`,

  // insert: R-insert, R-insert-line
  inserted: (path: string) => `The file ${path} has been edited.`,
  badInsertLine: (line: number, lines: number) =>
    `Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${lines}]`,

  // delete: R-delete, R-delete-root
  deleted: (path: string) => `Successfully deleted ${path}`,
  deleteMissing: (path: string) => `The path ${path} does not exist`,
  deleteRoot: () => 'Cannot delete the /memories directory itself',

  // rename: R-rename, R-rename-root, R-rename-into-itself, R-rename-limits
  renamed: (from: string, to: string) => `Successfully renamed ${from} to ${to}`,
  renameMissing: (path: string) => `The path ${path} does not exist`,
  renameRoot: () => 'Cannot rename the /memories directory itself',
  destinationExists: (path: string) => `The destination ${path} already exists`,
  renameIntoItself: (from: string, to: string) =>
    `Cannot rename ${from} to ${to}: a folder cannot be moved inside itself.`,
  renamePastLimits: (from: string, to: string, moved: string, past: string) =>
    `Cannot rename ${from} to ${to}: ${moved} would be ${past}. Nothing was changed.`,

  // paths, R-paths (the first two are the SDK's own wording)
  outsideMemories: (path: string) => `Path must start with /memories, got: ${path}`,
  escapes: (path: string) => `Path ${path} would escape /memories directory`,
  badPath: (path: string, why: string) => `The path ${path} is not allowed: ${why}.`,

  // input, R-input
  invalidInput: (what: string) => `Invalid input for the memory tool: ${what}.`,

  // limits (R-limits) and storage
  fileTooLarge: (path: string, bytes: number, limit: number) =>
    `File ${path} would be ${bytes} bytes, over the limit of ${limit} bytes per file. Nothing was written.`,
  memoryFull: (bytes: number, limit: number) =>
    `The memory would hold ${bytes} bytes, over its limit of ${limit} bytes. ` +
    'Delete or shorten files first. Nothing was written.',
  tooManyFiles: (limit: number) =>
    `The memory already holds its limit of ${limit} files. Delete files first. Nothing was written.`,
  quota: () =>
    'The browser refused to store this change because its storage quota for this site is full. Nothing was written.',
  storage: (detail: string) => `The memory storage failed (${detail}). Nothing was written.`,
  noIndexedDb: () => 'IndexedDB is not available here (a server, or a browser without it)',
  unavailable: (detail: string) =>
    `This part of the memory tool could not be loaded (${detail}): the page may be offline, ` +
    'or a new version replaced its files. Reload the page while online. Nothing was changed.',
  unavailableHere: (detail: string) =>
    `This part of the memory tool could not be loaded (${detail}): a service worker or an extension's background ` +
    "worker may not load code on demand. Import the tool from 'idb-memory-tool/worker' there, which loads every part " +
    'with it. Nothing was changed.',
  blocked: () =>
    'The memory is held open by another tab of this site running an older version of this app. ' +
    'Close or reload that tab, then try again. Nothing was written.',
  stalled: (ms: number) =>
    `The browser's storage did not answer for ${Math.round(ms / 100) / 10} s: it may be still undoing the writes of ` +
    'a tab that closed part-way (Safari can take seconds), or another tab is deleting or upgrading the memory. ' +
    'Try again in a moment. Nothing was written.',

  // content checks (secrets.ts and the beforeWrite option), R-guarded-write
  secret: (path: string, kind: string) =>
    `Refused to write ${path}: the text looks like it contains ${kind}. Do not store API keys, passwords, ` +
    'tokens or private keys in memory; write the note without the secret. Nothing was written.',
  beforeWriteRefused: (path: string, why: string) => `Refused to write ${path}: ${why}. Nothing was written.`,
  /** `got`: the value the hook returned, described (shown-text.ts describeValue), so the reply stays short. */
  beforeWriteInvalid: (path: string, got: string) =>
    `Refused to write ${path}: the app's beforeWrite hook returned ${got} instead of a text or nothing. ` +
    'This is a fault in the app, not in the command; trying again will not help. Nothing was written.',

} as const;
