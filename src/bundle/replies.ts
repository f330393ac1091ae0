// The wording of bundle import and export, apart from core/replies.ts so that it loads with the bundle code.

/** Every refusal names the first bad entry and says nothing was changed; `where` is `entry(...)` or '' (top level). */
export const bundleReply = {
  secretInPath: (kind: string) =>
    `its path looks like it holds ${kind}; rename it, or import into a tool opened with blockSecrets: false`,
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

  // A zip: how an entry is named (1-based, in central directory order), and why it, or the archive, is refused.
  zipEntry: (number: number, shownName?: string) =>
    shownName === undefined ? `zip entry ${number}` : `zip entry ${number} ${shownName}`,
  zipDamaged: (why: string) => `the zip is damaged or was made to mislead: ${why}`,
  zipNoEnd: () => 'it starts as a zip but has no end record: it was cut short, or is not a zip',
  zipSpanned: () => 'it is one part of a zip split across several files; join the parts into one zip first',
  zipNoZip64End: () => 'its ZIP64 end record is missing',
  zipHugeField: () => 'it states a size or offset past 2^53 bytes',
  zipDirectoryOutside: () => 'its central directory does not fit inside the file',
  zipTooManyEntries: (entries: number, limit: number) =>
    `its end record declares ${entries} entries, more than the ${limit} an import into this memory reads ` +
    '(four for each file its maxFiles limit allows, and 1000 more); no entry was read',
  zipDirectoryTooLarge: (bytes: number, entries: number, perEntry: number) =>
    `its end record declares a central directory of ${bytes} bytes for ${entries} ` +
    `${entries === 1 ? 'entry' : 'entries'}, more than ${perEntry} bytes an entry; no entry was read`,
  zipBadDirectory: (number: number) => `its central directory is broken at entry ${number}`,
  zipNoZip64Field: () => 'a size or offset is marked as ZIP64, but its ZIP64 field is missing',
  zipNoLocalHeader: () => 'its local header is missing where the central directory puts it',
  zipLocalMismatch: () =>
    'its local header does not match its central directory entry (name, method, encryption or sizes), ' +
    'so tools would read different files from it',
  zipOverlap: (other: string) => `its data runs into ${other} (overlapping entries are a zip bomb's trick)`,
  zipDataOutside: () => 'its data runs past the start of the central directory',
  zipNameNotUtf8: () => 'its name is not UTF-8 text (an old code page?); make the zip again with UTF-8 names',
  zipEncrypted: () => 'it is encrypted; only entries stored in the clear can be imported',
  zipAbsolute: () => 'its name is an absolute path; the entries of a zip are relative to the folder it unzips into',
  zipBackslash: () => 'its name holds a backslash; a zip separates folders with /',
  zipSlip: () => 'its name holds a ".." segment, the zip-slip that puts a file outside the folder a zip unzips into',
  zipSymlink: () => 'it is a symbolic link; a memory holds only files and folders',
  zipSpecialFile: () => 'it is a device, a pipe or a socket; a memory holds only files and folders',
  zipFolderName: () => 'it is marked as a folder, but its name does not end with /',
  zipFolderData: (bytes: number) => `it is a folder, yet states ${bytes} bytes of content`,
  zipMethod: (method: number) =>
    `it is compressed with method ${method}; only stored (0) and deflated (8) entries can be read`,
  zipStoredSizes: (compressed: number, size: number) =>
    `it is stored uncompressed, yet states ${compressed} bytes stored for ${size} bytes of content`,
  zipOutside: () =>
    'it lies outside memories/; a zip must hold the memory as a memories/ folder at its top, or inside one folder ' +
    'at its top',
  zipInflatesMore: (size: number) =>
    `it inflates to more than the ${size} bytes it declares; inflating stopped there (a zip bomb, or a damaged zip)`,
  zipInflatesLess: (got: number, size: number) => `it inflates to ${got} bytes, not the ${size} bytes it declares`,
  zipBadData: (detail: string) => `its compressed data cannot be inflated (${detail})`,
  zipCrc: () => 'its content does not match its CRC-32',
  zipNotText: () => 'its content is not UTF-8 text; a memory holds text files only',

  // An age file (age-encryption.org/v1): the key it needs, a wrong one, a hostile or damaged header.
  ageKeyNeeded: () =>
    'it is encrypted (an age file); give the passphrase or the identity (AGE-SECRET-KEY-1…) that opens it',
  ageWrongPassphrase: () => 'it is encrypted with a passphrase, and the passphrase given does not open it',
  ageNeedsPassphrase: () => 'it is encrypted with a passphrase, and none was given (only an identity)',
  ageWrongIdentity: (recipients: number) =>
    `it is encrypted to ${recipients} ${recipients === 1 ? 'recipient' : 'recipients'}, and no identity given is one of them`,
  ageNeedsIdentity: () => 'it is encrypted to age recipients, not with a passphrase; give the identity that opens it',
  ageNotIdentity: (line: number) =>
    `line ${line} of the identity is neither a comment (#) nor an age secret key (AGE-SECRET-KEY-1…)`,
  ageBadIdentity: (line: number) => `line ${line} of the identity is not a valid age secret key (checksum or length)`,
  ageNoIdentity: () => 'the identity holds no age secret key (AGE-SECRET-KEY-1…)',
  ageAsText: () => 'it is a binary age file passed as text, which cannot hold its bytes; pass it as a Blob or bytes',
  ageTooLarge: (bytes: number, limit: number) =>
    `it is an age file of ${bytes} bytes, more than the ${limit} bytes the largest bundle this memory's limits ` +
    'allow can take; nothing was decrypted',
  ageWorkFactor: (logN: number, max: number) =>
    `its passphrase's scrypt work factor is 2^${logN}, above the 2^${max} an import runs (age writes 2^18), ` +
    'so it would hold the page for minutes; encrypt it again with age -p',
  ageTooManyStanzas: (count: number, max: number) =>
    `its header names ${count} recipients, more than the ${max} an import reads`,
  ageDamaged: (detail: string) => `it is an age file, but it is damaged or was altered (${detail})`,
  notEncrypted: () =>
    'it is not encrypted (not an age file), yet a passphrase or identity was given; import it without one if a ' +
    'bundle in the clear is what you meant',
} as const;
