// The one error class the library throws: `message` is the reply Claude reads, `code` what programs branch on.

/** Machine-readable reason of a {@link MemoryToolError}. */
export type MemoryToolErrorCode =
  | 'not_found'
  | 'invalid_path'
  | 'invalid_input'
  | 'no_match'
  | 'multiple_matches'
  | 'already_exists'
  /** A command that needs a file met a folder, or a write would put something below a file. */
  | 'not_a_file'
  /** An app method that needs a folder (`list`) met a file. */
  | 'not_a_folder'
  | 'is_a_directory'
  | 'too_large'
  | 'forbidden'
  | 'conflict'
  | 'invalid_bundle'
  /** An encrypted (age) bundle imported without a passphrase or identity. */
  | 'key_needed'
  /** The passphrase or identity given does not open the encrypted (age) bundle. */
  | 'wrong_key'
  | 'storage'
  /** The app's `beforeWrite` hook returned something other than a string or nothing: a fault in the app's code. */
  | 'invalid_hook'
  /** The person (the app's `approve` hook) declined Claude's write, or the hook failed: nothing was stored. */
  | 'declined'
  /** The write's open question was withdrawn (its `AbortSignal`, e.g. the agent's Stop): nothing was stored. */
  | 'withdrawn'
  /** An app method whose code, loaded on first use, could not be fetched (see `IndexedDBMemoryTool.preload`). */
  | 'unavailable';

/**
 * Thrown by every command that cannot be carried out. Nothing was changed when it is thrown.
 *
 * @example
 * try { await tool.view({ command: 'view', path: '/memories/x' }) }
 * catch (e) { if (isMemoryToolError(e) && e.code === 'not_found') … }
 */
export class MemoryToolError extends Error {
  /** Always `'MemoryToolError'`, so {@link isMemoryToolError} can tell it across realms. */
  override readonly name = 'MemoryToolError' as const;
  /** What went wrong, for programs to branch on; `message` is the wording Claude reads. */
  readonly code: MemoryToolErrorCode;

  constructor(code: MemoryToolErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/** True for a {@link MemoryToolError}, also one from another realm (an iframe), where `instanceof` fails. */
export function isMemoryToolError(error: unknown): error is MemoryToolError {
  if (error instanceof MemoryToolError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { name?: unknown; code?: unknown; message?: unknown };
  return (
    candidate.name === 'MemoryToolError' &&
    typeof candidate.code === 'string' &&
    typeof candidate.message === 'string'
  );
}
