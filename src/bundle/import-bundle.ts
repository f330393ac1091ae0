// Import: a bundle checked whole, then applied in one readwrite transaction and journaled as one change (./README.md).

import type { ResolvedLimits } from '../core/limits.js';
import { checkOptionKeys } from '../core/option-keys.js';
import type { JournalDraft, Recorded, ResolvedHistoryLimits } from '../history/journal.js';
import { record } from '../history/journal.js';
import { readTotals } from '../storage/optimistic-totals.js';
import type { MemoryStore, MemoryTx } from '../storage/store.js';
import { importKeys } from './age-keys.js';
import { applyPlan } from './apply-import.js';
import { parseBundle, readText } from './check-bundle.js';
import type { ParsedBundle, PathSecret } from './check-entries.js';
import type { ImportBundleOptions, ImportReport } from './format.js';
import { planImport } from './plan-import.js';
import type { Settings } from './plan-import.js';
import { refused } from './refusal.js';
import { bundleReply } from './replies.js';
import { sameSize, sameText } from './same-text.js';
import { sha256All } from './sha256.js';
import { inflateZip } from './zip-inflate.js';
import { listZip, startsAsZip } from './zip-listing.js';
import { openIfEncrypted } from './open-age.js';

/**
 * Checks `input` (JSON, or a zip Blob known by its first bytes, either maybe inside an age file) whole, then applies it in one readwrite transaction;
 * any refusal names the first bad entry.
 */
export async function importBundle(
  store: MemoryStore,
  limits: Readonly<ResolvedLimits>,
  given: Blob | File | string | ArrayBuffer | ArrayBufferView,
  options: ImportBundleOptions = {},
  history?: ResolvedHistoryLimits,
  onRecorded?: (tx: MemoryTx<'readwrite'>, recorded: Recorded) => void,
  pathSecret?: PathSecret,
): Promise<ImportReport> {
  await checkOptionKeys(options, OPTION_KEYS);
  const settings = checkOptions(options);
  const keys = importKeys(options);
  const { signal } = options;
  signal?.throwIfAborted();
  // An age file is decrypted first, whole, before anything below reads it; nothing is open while that runs.
  const input = await openIfEncrypted(asBlobOrText(given), keys, limits, signal);
  const zip = await startsAsZip(input);
  const listing = zip ? await listZip(input as Blob, limits, pathSecret) : undefined;
  const bundle: ParsedBundle = listing?.bundle ?? parseBundle(await readText(input), limits, pathSecret);
  const total = bundle.fileCount * (settings.dryRun ? 1 : 2);
  const progress = (done: number): void => {
    // Checked at each step of the hashing or the inflating, so a large import stops soon after an abort.
    signal?.throwIfAborted();
    if (done < total) options.onProgress?.(done, total);
  };

  let checked: ParsedBundle;
  if (listing) {
    // The limits and the memory, on the sizes the zip declares, before a byte of it is inflated.
    const entries = await store.run('readonly', (tx) => tx.objectStore('entries').getAll());
    // The texts are not inflated yet: a file of the same size may be the same text, so it is not refused as a conflict.
    planImport(entries, bundle, settings, limits, sameSize(entries, bundle));
    checked = await inflateZip(input as Blob, listing, progress);
  } else {
    // Only the files that state a hash are hashed; the others count for progress all the same.
    const stated = bundle.files.map((file) => (file.sha256 === undefined ? undefined : file.content));
    const digests = await sha256All(stated, progress);
    bundle.files.forEach((file, i) => {
      if (file.sha256 !== undefined && digests[i] !== file.sha256) {
        throw refused(file.where, bundleReply.shaMismatch(digests[i] ?? ''));
      }
    });
    if (bundle.error) throw bundle.error;
    checked = bundle;
  }

  const now = Date.now();
  const { existing, same } = await store.run('readonly', async (tx) => {
    const entries = await tx.objectStore('entries').getAll();
    return { existing: entries, same: await sameText(tx, entries, checked) };
  });
  const preview = planImport(existing, checked, settings, limits, same);
  if (settings.dryRun) {
    options.onProgress?.(total, total);
    return preview.report;
  }
  signal?.throwIfAborted();
  const report = await store.run('readwrite', async (tx) => {
    const [current, totals] = await Promise.all([tx.objectStore('entries').getAll(), readTotals(tx)]);
    const plan = planImport(current, checked, settings, limits, await sameText(tx, current, checked));
    // Progress counts on from the files hashed (or inflated): every 1,000th file written or skipped is reported.
    const base = checked.fileCount;
    const byPath = new Map(current.map((entry) => [entry.path, entry]));
    const applied = applyPlan(tx, plan, byPath, totals.nextBody, now, (n) =>
      (base + n) % 1000 === 0 ? () => progress(base + n) : undefined,
    );
    if (applied.ops.length === 0) {
      await applied.written;
      return plan.report;
    }
    const paths = [...plan.report.addedPaths, ...plan.report.replacedPaths, ...plan.report.removedPaths];
    const draft: JournalDraft = {
      actor: options.actor ?? 'user',
      command: 'import',
      paths,
      ops: applied.ops,
      retired: applied.retired,
      ...(options.source === undefined ? {} : { source: options.source.slice(0, 256) }),
    };
    // The last moment an abort can stop it: a throw here aborts the transaction, so nothing of it is stored.
    signal?.throwIfAborted();
    // No await since the first write: record() sends the journal record before its own first await.
    const recording = record(tx, draft, now, history, {
      ...totals,
      ...plan.totals,
      nextBody: applied.nextBody,
    });
    const [, recorded] = await Promise.all([applied.written, recording]);
    onRecorded?.(tx, recorded);
    return plan.report;
  });
  try {
    options.onProgress?.(total, total);
  } catch {
    // The import has committed: an app's failing progress bar must not make it look refused (as with listeners).
  }
  return report;
}

/** Bytes (a zip or a JSON file read as an ArrayBuffer) as a Blob, read like a file; a Blob or a text as it is. */
function asBlobOrText(input: Blob | string | ArrayBuffer | ArrayBufferView): Blob | string {
  if (input instanceof ArrayBuffer) return new Blob([input]);
  if (ArrayBuffer.isView(input)) {
    return new Blob([new Uint8Array(input.buffer, input.byteOffset, input.byteLength).slice()]);
  }
  return input;
}

const OPTION_KEYS = ['mode', 'onConflict', 'dryRun', 'onProgress', 'signal', 'actor', 'source', 'passphrase', 'identity'];

/** Wrong options are a programming error, like bad limits: a TypeError, not a refusal Claude reads. */
function checkOptions(options: ImportBundleOptions): Settings {
  const mode = options.mode ?? 'merge';
  const onConflict = options.onConflict ?? 'overwrite';
  const dryRun = options.dryRun ?? false;
  if (mode !== 'merge' && mode !== 'replace') {
    throw new TypeError(`mode must be "merge" or "replace", got ${String(mode)}`);
  }
  if (onConflict !== 'overwrite' && onConflict !== 'skip' && onConflict !== 'fail') {
    throw new TypeError(`onConflict must be "overwrite", "skip" or "fail", got ${String(onConflict)}`);
  }
  if (typeof dryRun !== 'boolean') throw new TypeError('dryRun must be a boolean');
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new TypeError('onProgress must be a function');
  }
  return { mode, onConflict, dryRun };
}
