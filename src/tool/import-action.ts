// `tool.importBundle`'s steps once in its turn: the bundle part loaded, the import run through the tool's write
// runner (so its totals stay remembered), and the change published. Split from ./tool.ts.

import type { ImportBundleOptions, ImportReport } from '../bundle/format.js';
import type { CommandContext } from './write-runner.js';
import type { HistoryActionContext } from './history-actions.js';
import type { LoadedParts } from './lazy-parts.js';

/** What `importBundle` reads: a JSON text, or a Blob or bytes holding JSON or a zip. */
export type BundleInput = Blob | string | ArrayBuffer | ArrayBufferView;

/** Imports `input` (../bundle/README.md) with the tool's units. */
export async function importBundleAction(
  ctx: HistoryActionContext,
  context: CommandContext,
  input: BundleInput,
  options: ImportBundleOptions,
  // Handed in, not imported: the write part this file belongs to must not import the parts' loader (a bundler would
  // then split a service worker's build around it).
  loadBundles: () => Promise<LoadedParts['bundle']>,
): Promise<ImportReport> {
  const bundles = await loadBundles();
  let remembered: (() => void) | undefined;
  const report = await bundles.importBundle(
    ctx.store,
    ctx.limits,
    input,
    options,
    ctx.history,
    (tx, recorded) => {
      remembered = ctx.writes.rememberLater(tx, recorded);
    },
    context.pathSecret,
  );
  remembered?.();
  if (!report.dryRun) ctx.hub.publish(bundles.importChanges(report));
  return report;
}
