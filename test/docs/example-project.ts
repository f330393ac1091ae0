// A project where the docs' examples are compiled and run as a user's app would: the library built with the
// repository's tsconfig into `node_modules/idb-memory-tool` of a folder below the repository's `node_modules/.cache`,
// so `idb-memory-tool` and its subpaths resolve through the package's exports and every other package from the repo.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..', '..');

/** The project's folder and its way out. */
export interface ExampleProject {
  readonly dir: string;
  readonly remove: () => void;
}

/**
 * Builds the library (declarations and JavaScript, as `npm run build:lib` emits them; not the minified browser
 * build) into a fresh project folder. Its parent is the repository's `node_modules/.cache`, so Node and TypeScript
 * find the SDK, `ai`, `react` and `fake-indexeddb` by walking up, as in an app that installed them.
 */
export function createExampleProject(): ExampleProject {
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'idb-memory-tool-docs-'));
  const installed = join(dir, 'node_modules', 'idb-memory-tool');
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', root, '--outDir', join(installed, 'dist')], { cwd: root, stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`the library did not build: ${String((error as { stdout?: unknown }).stdout)}`);
  }
  writeFileSync(join(installed, 'package.json'), readFileSync(join(root, 'package.json')));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'docs-examples', type: 'module', private: true }));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
