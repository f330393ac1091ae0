// The main entry as an app sees it: dist/ compiled as `npm pack` ships it, linked into a throw-away Vite app that
// imports only `IndexedDBMemoryTool`, built with Vite's defaults; each file the page loads up front gzipped on its
// own, Vite's preload helper included. The library-mode figure (size.ts) counts the library's code alone.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { Rolldown } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface AppSize {
  /** Every JS file the page fetches before the app's code runs, each gzipped alone (as a server sends it). */
  upFrontGzipped: number;
  files: { name: string; gzipped: number; upFront: boolean; modules: string[] }[];
}

/** What the app does: opens the tool and answers a `view`, as an app that only runs Claude's commands would. */
export const APP = `import { IndexedDBMemoryTool } from 'idb-memory-tool';
const tool = await IndexedDBMemoryTool.init();
document.title = (await tool.run({ command: 'view', path: '/memories' })).content;
`;

/**
 * The same app without top-level await. Rolldown merges the chunks an entry shares with its lazy parts into the
 * entry's own chunk only when no module of the build uses top-level await, so this app loads fewer files.
 */
export const APP_WITHOUT_TLA = `import { IndexedDBMemoryTool } from 'idb-memory-tool';
IndexedDBMemoryTool.init()
  .then((tool) => tool.run({ command: 'view', path: '/memories' }))
  .then((result) => { document.title = result.content; });
`;

/** Builds the app in a temporary folder (removed after) and measures its output. */
export async function measureAppSize(app: string = APP): Promise<AppSize> {
  const dir = mkdtempSync(join(tmpdir(), 'idb-memory-tool-app-size-'));
  try {
    const linked = join(dir, 'node_modules', 'idb-memory-tool');
    mkdirSync(linked, { recursive: true });
    // dist/ as prepack builds it, without touching the project's own dist/.
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', root, '--outDir', join(linked, 'dist')], { stdio: 'pipe' });
    cpSync(join(root, 'package.json'), join(linked, 'package.json'));
    // The package's dependencies, found from the app's node_modules as an install puts them there.
    const { dependencies = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(dependencies)) symlinkSync(join(root, 'node_modules', dependency), join(dir, 'node_modules', dependency), 'dir');
    writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>');
    writeFileSync(join(dir, 'main.js'), app);
    const result = await build({ root: dir, configFile: false, logLevel: 'silent', build: { write: false } });
    const chunks = (Array.isArray(result) ? result : [result])
      .flatMap((item) => ('output' in item ? item.output : []))
      .filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const upFront = new Set<string>();
    const visit = (name: string): void => {
      if (upFront.has(name)) return;
      upFront.add(name);
      for (const imported of byName.get(name)?.imports ?? []) visit(imported);
    };
    for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
    const files = chunks.map((chunk) => ({
      name: chunk.fileName,
      gzipped: gzipSync(chunk.code, { level: 9 }).length,
      upFront: upFront.has(chunk.fileName),
      modules: chunk.moduleIds.map((id) => id.slice(id.lastIndexOf('idb-memory-tool/') + 1)),
    }));
    const upFrontGzipped = files.filter((file) => file.upFront).reduce((sum, file) => sum + file.gzipped, 0);
    return { upFrontGzipped, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
