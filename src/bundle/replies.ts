// The wording of bundle import and export, apart from core/replies.ts so that it loads with the bundle code.

/** Every refusal names the first bad entry and says nothing was changed; `where` is `entry(...)` or '' (top level). */
export const bundleReply = {
  refused: (where: string, why: string) =>
    `Cannot import the bundle: ${where === '' ? '' : `${where}: `}${why}. Nothing was changed.`,
  conflict: (where: string) =>
    `Cannot import the bundle: ${where} already exists in the memory, ` +
    'and with onConflict "fail" a file in both refuses the import. Nothing was changed.',
  entry: (list: 'files' | 'folders', index: number, shownPath?: string) =>
    shownPath === undefined ? `${list}[${index}]` : `${list}[${index}] ${shownPath}`,
  notText: (got: string) => `it must be a Blob, a File or a string, got ${got}`,
  notUtf8: () => 'it is not valid UTF-8 text',
  notJson: (detail: string) => `it is not valid JSON, or it was cut short (${detail})`,
  notObject: (got: string) => `its top level must be a JSON object, got ${got}`,
  unknownFormat: (got: string) => `its "format" must be "claude-memory-bundle", got ${got}`,
  futureVersion: (version: number, supported: number) =>
    `it is version ${version} of the format, made by a newer program; this library reads version ${supported}`,
  badField: (field: string, expected: string, got: string) => `"${field}" must be ${expected}, got ${got}`,
  isoTime: () => 'an ISO 8601 date-time string with its zone, a real date from year 1 to 9999 in UTC',
  entryNotObject: (got: string) => `an entry must be an object, got ${got}`,
  rootAsFile: () => 'it names the root /memories itself, which is a folder and cannot be a file',
  rootAsFolder: () => 'it names the root /memories itself, which always exists and must not be listed',
  duplicate: (other: string) => `it names the same path as ${other}`,
  fileAboveFile: (other: string) => `it is a file, but ${other} lies below it`,
  belowFile: (other: string) => `it lies below ${other}, which is a file`,
  folderIsFile: (other: string) => `it is a folder, but ${other} is a file at the same path`,
  shaMismatch: (actual: string) =>
    `its "sha256" does not match its content, which hashes to ${actual}; the bundle is damaged or was edited`,
  memoryFolder: () =>
    'a folder of that path exists in the memory, so a file cannot be put there (mode "replace" can)',
  belowMemoryFile: (file: string) => `it lies below ${file}, which is a file in the memory (mode "replace" can)`,
  memoryFile: () => 'a file of that path exists in the memory, so it cannot be a folder (mode "replace" can)',
  fileTooLarge: (bytes: number, limit: number) => `it is ${bytes} bytes, over the limit of ${limit} bytes per file`,
  tooManyFiles: (files: number, limit: number) =>
    `with it the memory would hold ${files} files, over its limit of ${limit} ${limit === 1 ? 'file' : 'files'}`,
  memoryFull: (bytes: number, limit: number) =>
    `with it the memory would hold ${bytes} bytes, over its limit of ${limit} bytes`,

} as const;
