// What a pass leaves alone: listing entries the memory cannot take (`refused`), files listed larger than it takes,
// and versions a side refused that are still as they were when refused. Each is listed in `skipped` once per pass and
// never read, written or deleted.

import type { Skip } from './baseline.js';
import type { LocalSnapshot } from './local-files.js';
import { sizeRefusal } from './local-refusals.js';
import type { LocalFile } from './merge-plan.js';
import type { RemoteFile } from './remote.js';
import type { SkippedFile } from './sync-report.js';

/** A listing split: the files a pass may work with, by path, and the entries it only lists. */
export function splitListing(listing: readonly RemoteFile[]): { files: Map<string, RemoteFile>; refused: RemoteFile[] } {
  const files = new Map<string, RemoteFile>();
  const refused: RemoteFile[] = [];
  for (const file of listing) {
    if (file.refused !== undefined) refused.push(file);
    else files.set(file.path, file);
  }
  return { files, refused };
}

/** A skip as a report lists it, at `path` (as the report shows paths): its reason, the side and the remote's kind. */
export const listedSkip = (path: string, skip: Skip): SkippedFile => ({
  path,
  reason: skip.reason,
  refusedBy: skip.refusedBy,
  ...(skip.kind === undefined ? {} : { kind: skip.kind }),
});

/**
 * Whether a refusal still holds. A version the remote refused holds while both sides are as they were. A remote version
 * refused here (unreadable, a secret, a path this memory refuses) holds while the remote keeps it, whatever happens
 * here: nothing here may be pushed over a file this memory could not read, and its text is refused again anyway.
 */
export function stillSkipped(skip: Skip, here: LocalFile | undefined, there: RemoteFile | undefined): boolean {
  if (there?.version !== skip.remoteVersion) return false;
  return (skip.refusedBy === 'local' && there !== undefined) || here?.bodyId === skip.local;
}

/**
 * The paths a pass leaves alone (refused entries, files listed as larger than this memory takes, refusals that still
 * hold), each listed once, by the remote's path. A listed size is enough to refuse a file unread; the text of a file
 * listed smaller is measured again before anything else reads it.
 */
export function leaveAlone(
  refused: readonly RemoteFile[],
  local: LocalSnapshot,
  remoteFiles: ReadonlyMap<string, RemoteFile>,
  maxFileBytes: number,
): { alone: Set<string>; listed: SkippedFile[] } {
  const alone = new Set<string>();
  const listed: SkippedFile[] = [];
  const list = (skipped: SkippedFile): number => listed.push(skipped);
  for (const entry of refused) {
    alone.add(entry.path);
    list({ path: entry.path, reason: entry.refused ?? '', refusedBy: 'local' });
  }
  for (const [path, file] of remoteFiles) {
    const tooBig = file.size === undefined ? undefined : sizeRefusal(file.size, maxFileBytes);
    if (tooBig === undefined) continue;
    alone.add(path);
    list({ path, reason: tooBig, refusedBy: 'local' });
  }
  for (const [path, skip] of local.skipped) {
    if (alone.has(path) || !stillSkipped(skip, local.files.get(path), remoteFiles.get(path))) continue;
    alone.add(path);
    list(listedSkip(path, skip));
  }
  return { alone, listed };
}
