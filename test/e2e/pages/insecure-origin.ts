// The page of test/e2e/insecure-origin.test.ts: bundles exported and imported through the public API, on whatever
// origin the test opens it (http://memory.test:<port>/ has no crypto.subtle). It draws nothing.

import { IndexedDBMemoryTool, isMemoryToolError } from '../../../src/index.js';
import type { ImportReport } from '../../../src/index.js';

/** What the page's origin offers. */
export interface PageContext {
  origin: string;
  isSecureContext: boolean;
  subtleIsUndefined: boolean;
}

export interface RoundTrip {
  /** The export of a memory holding `files`. */
  exported: string;
  /** That export imported into a fresh memory, and the report. */
  report: ImportReport;
  /** The fresh memory exported again. */
  reexported: string;
  /** The export with one file's content changed, imported: what the import rejected with. */
  damaged: { isMemoryToolError: boolean; code?: string; message: string; name: string };
}

export interface InsecureOriginApi {
  context(): PageContext;
  /** `files` (path → content) written, exported at `exportedAt`, imported elsewhere and exported again. */
  roundTrip(files: Record<string, string>, exportedAt: string): Promise<RoundTrip>;
}

declare global {
  interface Window {
    insecure: InsecureOriginApi;
  }
}

let opened = 0;

/** A tool on a database of its own (no `crypto.randomUUID` here: it is a secure-context API too). */
function freshTool(): Promise<IndexedDBMemoryTool> {
  opened++;
  return IndexedDBMemoryTool.init({ dbName: `insecure-origin-${Date.now()}-${opened}` });
}

async function roundTrip(files: Record<string, string>, exportedAt: string): Promise<RoundTrip> {
  const [source, target, victim] = [await freshTool(), await freshTool(), await freshTool()];
  try {
    for (const [path, text] of Object.entries(files)) await source.create({ command: 'create', path, file_text: text });
    const at = new Date(exportedAt);
    const exported = await (await source.exportBundle({ exportedAt: at })).text();
    const report = await target.importBundle(exported);
    const reexported = await (await target.exportBundle({ exportedAt: at })).text();
    const bundle = JSON.parse(exported) as { files: { content: string }[] };
    const first = bundle.files[0];
    if (first) first.content += ' (edited)';
    let damaged: RoundTrip['damaged'] = { isMemoryToolError: false, message: 'the import went through', name: '' };
    try {
      await victim.importBundle(JSON.stringify(bundle));
    } catch (error) {
      damaged = isMemoryToolError(error)
        ? { isMemoryToolError: true, code: error.code, message: error.message, name: error.name }
        : { isMemoryToolError: false, message: String(error), name: error instanceof Error ? error.name : '' };
    }
    return { exported, report, reexported, damaged };
  } finally {
    for (const tool of [source, target, victim]) tool.close();
  }
}

window.insecure = {
  context: () => ({
    origin: location.origin,
    isSecureContext: window.isSecureContext,
    subtleIsUndefined: (crypto as { subtle?: SubtleCrypto }).subtle === undefined,
  }),
  roundTrip,
};
document.body.dataset.ready = 'true';
