// The remote texts a pass reads: many at once where the remote can send several in one answer, the rest one by one at
// the remote's concurrency; each file at most once a pass, so one it cannot read is skipped, and listed, once.

import { eachLimited } from './pool.js';
import type { RemoteFile, SyncRemote } from './remote.js';
import { refusable } from './remote-calls.js';
import type { SkipFile } from './remote-calls.js';

/** From this many files to read, a remote's `readMany` is used where it has one. */
const BULK_READ = 20;

export interface RemoteReads {
  /** The texts read so far, by path, each with what the remote said of it then. */
  fetched: Map<string, { file: RemoteFile; text: string }>;
  /** Reads the files not read yet this pass; a refusal of one file skips it (with the version it was refused at). */
  readAll(files: readonly RemoteFile[]): Promise<void>;
}

/** One file's text, or undefined when the remote refused it: then skipped, with the version it was refused at. */
export function readSkipping(
  remote: SyncRemote,
  file: RemoteFile,
  skip: SkipFile,
  signal: AbortSignal,
): Promise<{ file: RemoteFile; text: string } | undefined> {
  return refusable(() => remote.read(file, { signal }), file.path, (path, why, everyPass) =>
    skip(path, { ...why, remoteVersion: file.version }, everyPass),
  );
}

export function remoteReads(remote: SyncRemote, skip: SkipFile, signal: AbortSignal): RemoteReads {
  const fetched = new Map<string, { file: RemoteFile; text: string }>();
  const tried = new Set<string>();
  const readAll = async (all: readonly RemoteFile[]): Promise<void> => {
    const files = all.filter((file) => !tried.has(file.path));
    for (const file of files) tried.add(file.path);
    const bulk = remote.readMany;
    if (bulk && files.length >= BULK_READ) {
      // One file it cannot send fails no other: then each is read on its own.
      const many = await refusable(() => bulk.call(remote, files, { signal }), '', () => undefined);
      for (const [path, read] of many ?? []) fetched.set(path, read);
    }
    await eachLimited(
      files.filter((file) => !fetched.has(file.path)),
      remote.concurrency,
      async (file) => {
        const read = await readSkipping(remote, file, skip, signal);
        if (read) fetched.set(file.path, read);
      },
      signal,
    );
  };
  return { fetched, readAll };
}
