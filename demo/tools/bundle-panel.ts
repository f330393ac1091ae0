// The bundles panel: Export downloads the whole memory as claude-memory-YYYY-MM-DD.json (or .zip); Import reads a file,
// shows a dry-run report, and applies it only after a confirmation, with a progress bar. A refusal changes nothing.
// "replace" deletes what the bundle lacks: it is marked as such while chosen, and each import ends back on "merge".
// Encrypted export and the key of an encrypted import: ./bundle-encryption.ts, loaded (with ./bundle-panel.css) the
// first time the panel shows, so the demo's first load grows by as little as it can (test/e2e/demo-first-load.test.ts).

import { isMemoryToolError } from '../../src/index.js';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { byId, focusLost, messageOf } from '../page/dom.js';
import type { ImportKey } from './bundle-encryption.js';

type ImportOptions = NonNullable<Parameters<IndexedDBMemoryTool['importBundle']>[1]>;
type ImportReport = Awaited<ReturnType<IndexedDBMemoryTool['importBundle']>>;

export function setupBundlePanel(tool: IndexedDBMemoryTool, afterImport: () => Promise<void>): void {
  const exportButton = byId('bundle-export', HTMLButtonElement);
  const file = byId('bundle-file', HTMLInputElement);
  const mode = byId('bundle-mode', HTMLSelectElement);
  const conflict = byId('bundle-conflict', HTMLSelectElement);
  const report = byId('bundle-report', HTMLElement);
  const reportText = byId('bundle-report-text', HTMLElement);
  const warning = byId('bundle-replace-warning', HTMLElement);
  const apply = byId('bundle-apply', HTMLButtonElement);
  const cancel = byId('bundle-cancel', HTMLButtonElement);
  const progress = byId('bundle-progress', HTMLProgressElement);
  const status = byId('bundle-status', HTMLElement);
  let chosen: File | undefined;

  /** Marks "replace" while it is chosen: the warning shows and describes the field, and Apply names what it deletes. */
  const markMode = (removed = 0) => {
    const replacing = mode.value === 'replace';
    warning.hidden = !replacing;
    mode.classList.toggle('danger', replacing);
    if (replacing) mode.setAttribute('aria-describedby', warning.id);
    else mode.removeAttribute('aria-describedby');
    apply.classList.toggle('danger', replacing && removed > 0);
    apply.textContent = replacing && removed > 0 ? `Apply import and delete ${removed} file${removed === 1 ? '' : 's'}` : 'Apply import';
  };

  /** Saves `blob` as claude-memory-<date>.<extension>, and says under what name. */
  const download = (blob: Blob, extension: string): string => {
    const name = `claude-memory-${localDate(new Date())}.${extension}`;
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.click();
    // The download has started from the URL; the Blob can go once the click is handled.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    return name;
  };
  const exportAs = (format: 'json' | 'zip') => {
    status.textContent = 'Exporting…';
    void tool.exportBundle({ format }).then(
      (blob) => {
        const name = download(blob, format);
        status.textContent = `Exported ${name} (${blob.size} bytes).`;
      },
      (error: unknown) => {
        status.textContent = `Export failed: ${messageOf(error)}`;
      },
    );
  };
  exportButton.addEventListener('click', () => exportAs('json'));
  byId('bundle-export-zip', HTMLButtonElement).addEventListener('click', () => exportAs('zip'));
  let key: ImportKey | undefined;
  const section = byId('bundles', HTMLElement);
  const loadEncryption = () => {
    shown.disconnect();
    void import('./bundle-encryption.js').then((encryption) => {
      encryption.setupEncryptedExport(tool, download);
      key = encryption.setupImportKey(() => void check(false));
    });
  };
  const shown = new MutationObserver(() => {
    if (!section.hidden) loadEncryption();
  });
  if (section.hidden) shown.observe(section, { attributes: true, attributeFilter: ['hidden'] });
  else loadEncryption();

  const options = (dryRun: boolean): ImportOptions => ({
    mode: mode.value === 'replace' ? 'replace' : 'merge',
    onConflict: conflict.value === 'skip' ? 'skip' : conflict.value === 'fail' ? 'fail' : 'overwrite',
    dryRun,
    ...key?.options(),
    onProgress: (done, total) => {
      progress.max = Math.max(1, total);
      progress.value = done;
    },
  });

  const reset = (message: string) => {
    chosen = undefined;
    file.value = '';
    // Each import ends back on the safe mode: a later one deletes nothing unless "replace" is chosen again.
    mode.value = 'merge';
    markMode();
    apply.hidden = true;
    cancel.hidden = true;
    progress.hidden = true;
    status.textContent = message;
  };

  /** Counts dry runs, so one overtaken by a newer (an option changed meanwhile) leaves the screen to it. */
  let checks = 0;

  /** The dry run of the chosen file with the options now set; `fromPicker`: a file was just picked. */
  const check = async (fromPicker: boolean) => {
    const source = chosen;
    const run = ++checks;
    report.hidden = true;
    apply.hidden = true;
    cancel.hidden = true;
    markMode();
    if (!source) return;
    status.textContent = `Checking ${source.name}…`;
    progress.hidden = false;
    try {
      const dry = await tool.importBundle(source, options(true));
      if (run !== checks) return;
      reportText.textContent = describe(dry, true);
      report.hidden = false;
      markMode(dry.removed);
      apply.hidden = false;
      cancel.hidden = false;
      status.textContent = `${source.name} is a valid bundle. Nothing is changed until you apply it.`;
      // Not after an option change: the keyboard stays on the option, to try another.
      if (fromPicker) apply.focus();
    } catch (error) {
      if (run !== checks) return;
      // The file stays chosen: with other options (say "keep mine" for "refuse the import") or its key it may pass.
      // Cancel drops it.
      status.textContent = refusal(error);
      cancel.hidden = false;
      if (isMemoryToolError(error) && (error.code === 'key_needed' || error.code === 'wrong_key')) key?.focus();
    } finally {
      if (run === checks) progress.hidden = true;
    }
  };

  file.addEventListener('change', () => {
    chosen = file.files?.[0];
    void check(true);
  });
  mode.addEventListener('change', () => void check(false));
  conflict.addEventListener('change', () => void check(false));

  // Apply and Cancel hide themselves when done, which drops their focus: the status saying what happened takes it.
  const focusStatus = () => {
    if (focusLost()) status.focus();
  };
  cancel.addEventListener('click', () => {
    report.hidden = true;
    reset('Import cancelled; nothing was changed.');
    focusStatus();
  });
  apply.addEventListener('click', () => {
    if (!chosen) return;
    const source = chosen;
    apply.disabled = true;
    progress.hidden = false;
    status.textContent = `Importing ${source.name}…`;
    void tool
      .importBundle(source, options(false))
      .then(
        async (done) => {
          reportText.textContent = describe(done, false);
          reset(`Imported ${source.name}.`);
          await afterImport();
        },
        (error: unknown) => {
          // Refused as it was applied (the memory changed since the dry run): nothing was changed, and the file stays
          // chosen, to try with other options or to cancel.
          report.hidden = true;
          apply.hidden = true;
          progress.hidden = true;
          status.textContent = refusal(error);
        },
      )
      .finally(() => {
        apply.disabled = false;
        focusStatus();
      });
  });
}

/** The report, saying only what is not zero. */
function describe(report: ImportReport, dryRun: boolean): string {
  const counted = (count: number, one: string, many: string, what: string) => {
    if (count === 0) return [];
    const is = dryRun ? 'would be' : count === 1 ? 'was' : 'were';
    return [`${count} ${count === 1 ? one : many} ${is} ${what}`];
  };
  const lines = [
    ...counted(report.added, 'file', 'files', 'added'),
    ...counted(report.replaced, 'file', 'files', 'replaced'),
    ...counted(report.unchanged, 'file', 'files', 'unchanged (the same text is here already)'),
    ...counted(report.skipped, 'file', 'files', report.skipped === 1 ? 'kept as it is' : 'kept as they are'),
    ...counted(report.removed, 'file', 'files', 'removed'),
    ...counted(report.folders, 'folder', 'folders', 'created'),
    ...counted(report.removedFolderPaths.length, 'folder', 'folders', 'removed'),
  ];
  if (lines.length === 0) lines.push(dryRun ? 'Nothing would change.' : 'Nothing changed.');
  const list = (title: string, paths: string[]) =>
    paths.length > 0 ? [`${title}:`, ...paths.slice(0, 50).map((path) => `  ${path}`), ...(paths.length > 50 ? [`  … and ${paths.length - 50} more`] : [])] : [];
  return [
    ...lines,
    ...list('Added', report.addedPaths),
    ...list('Replaced', report.replacedPaths),
    ...list('Removed', report.removedPaths),
    ...list('Removed folders', report.removedFolderPaths),
  ].join('\n');
}

function refusal(error: unknown): string {
  // The library's bundle refusals say themselves that nothing was changed; other errors (storage) do not.
  if (isMemoryToolError(error)) {
    return /Nothing was changed\.$/u.test(error.message) ? `Import refused: ${error.message}` : `Import refused, nothing was changed: ${error.message}`;
  }
  return `Import failed, nothing was changed: ${messageOf(error)}`;
}

function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
