// Planning an import against the memory as it is: what is added, replaced, skipped, deleted and made, and the totals.

import { MemoryToolError } from '../core/errors.js';
import type { FileTotals, ResolvedLimits } from '../core/limits.js';
import { ancestorsOf, compareKeys } from '../core/paths.js';
import type { EntryRecord } from '../storage/schema.js';
import type { CheckedFile, ParsedBundle } from './check-entries.js';
import type { ImportReport } from './format.js';
import { refused, shownPath } from './refusal.js';
import { bundleReply } from './replies.js';

/** The import's options, checked. */
export interface Settings {
  mode: 'merge' | 'replace';
  onConflict: 'overwrite' | 'skip' | 'fail';
  dryRun: boolean;
}

export interface Plan {
  report: ImportReport;
  /** Entries to delete (with their bodies), before anything is written. */
  deletes: EntryRecord[];
  /** Files to write, each as a new body. */
  writes: CheckedFile[];
  /** The memory's totals after the import. */
  totals: FileTotals;
}

/**
 * What the import does to a memory holding `existing`: pure, so it runs the same before and inside the transaction.
 * `same`: the keys of memory files that hold the very text of the bundle file landing on them (./same-text.ts).
 */
export function planImport(
  existing: readonly EntryRecord[],
  bundle: ParsedBundle,
  settings: Settings,
  limits: Readonly<ResolvedLimits>,
  same: ReadonlySet<string> = new Set(),
): Plan {
  const merge = settings.mode === 'merge';
  const byPath = new Map(existing.map((entry) => [entry.path, entry]));
  const report: ImportReport = {
    added: 0,
    replaced: 0,
    unchanged: 0,
    skipped: 0,
    removed: 0,
    folders: 0,
    dryRun: settings.dryRun,
    addedPaths: [],
    replacedPaths: [],
    unchangedPaths: [],
    skippedPaths: [],
    removedPaths: [],
    folderPaths: [],
    removedFolderPaths: [],
  };
  const writes: CheckedFile[] = [];
  const kept = new Set<string>(); // memory files a bundle file lands on and that stay (unchanged, skipped or overwritten)

  for (const file of bundle.files) {
    const there = byPath.get(file.key);
    if (merge) {
      if (there?.kind === 'folder') throw refused(file.where, bundleReply.memoryFolder());
      for (const ancestor of ancestorsOf(file.key)) {
        if (byPath.get(ancestor)?.kind === 'file') {
          throw refused(file.where, bundleReply.belowMemoryFile(shownPath(ancestor)));
        }
      }
    }
    if (there?.kind === 'file') {
      kept.add(file.key);
      // The same text is no conflict and no write: the file stays as it is, its times included.
      if (same.has(file.key)) {
        report.unchangedPaths.push(file.key);
        continue;
      }
      if (settings.onConflict === 'fail') throw new MemoryToolError('conflict', bundleReply.conflict(file.where));
      if (settings.onConflict === 'skip') {
        report.skippedPaths.push(file.key);
        continue;
      }
      report.replacedPaths.push(file.key);
      writes.push(file);
    } else {
      report.addedPaths.push(file.key);
      writes.push(file);
    }
  }

  // Every ancestor of a file or listed folder, and the listed folders, must end up as folders.
  const folders = new Set<string>();
  for (const file of bundle.files) for (const ancestor of ancestorsOf(file.key)) folders.add(ancestor);
  for (const folder of bundle.folders) {
    if (merge) {
      for (const key of [...ancestorsOf(folder.key), folder.key]) {
        if (byPath.get(key)?.kind !== 'file') continue;
        const why = key === folder.key ? bundleReply.memoryFile() : bundleReply.belowMemoryFile(shownPath(key));
        throw refused(folder.where, why);
      }
    }
    for (const ancestor of ancestorsOf(folder.key)) folders.add(ancestor);
    folders.add(folder.key);
  }

  const deletes: EntryRecord[] = [];
  if (!merge) {
    for (const entry of existing) {
      const stays = entry.kind === 'file' ? kept.has(entry.path) : folders.has(entry.path);
      if (stays) continue;
      deletes.push(entry);
      (entry.kind === 'file' ? report.removedPaths : report.removedFolderPaths).push(entry.path);
    }
    for (const entry of deletes) byPath.delete(entry.path);
  }
  for (const folder of [...folders].sort(compareKeys)) {
    if (byPath.get(folder)?.kind !== 'folder') report.folderPaths.push(folder);
  }

  const totals = checkTotals(existing, byPath, writes, limits);
  report.added = report.addedPaths.length;
  report.replaced = report.replacedPaths.length;
  report.unchanged = report.unchangedPaths.length;
  report.skipped = report.skippedPaths.length;
  report.removed = report.removedPaths.length;
  report.folders = report.folderPaths.length;
  return { report, deletes, writes, totals };
}

/** The totals after the import; refused only over a limit *and* bigger than before, naming the file that pushed it. */
function checkTotals(
  existing: readonly EntryRecord[],
  remaining: ReadonlyMap<string, EntryRecord>,
  writes: readonly CheckedFile[],
  limits: Readonly<ResolvedLimits>,
): FileTotals {
  const before = sumFiles(existing);
  const after = sumFiles(remaining.values());
  let fileOver: CheckedFile | undefined;
  let byteOver: CheckedFile | undefined;
  for (const file of writes) {
    const old = remaining.get(file.key);
    const oldSize = old?.kind === 'file' ? old.size : 0;
    if (old?.kind !== 'file') after.files++;
    after.bytes += file.size - oldSize;
    if (!fileOver && old?.kind !== 'file' && after.files > limits.maxFiles) fileOver = file;
    if (!byteOver && file.size > oldSize && after.bytes > limits.maxTotalBytes) byteOver = file;
  }
  if (fileOver && after.files > limits.maxFiles && after.files > before.files) {
    throw refused(fileOver.where, bundleReply.tooManyFiles(after.files, limits.maxFiles), 'too_large');
  }
  if (byteOver && after.bytes > limits.maxTotalBytes && after.bytes > before.bytes) {
    throw refused(byteOver.where, bundleReply.memoryFull(after.bytes, limits.maxTotalBytes), 'too_large');
  }
  return after;
}

function sumFiles(entries: Iterable<EntryRecord>): FileTotals {
  const totals = { bytes: 0, files: 0 };
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    totals.bytes += entry.size;
    totals.files++;
  }
  return totals;
}
