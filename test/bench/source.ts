// Which library the benchmark builds: the working tree's src/ (default), or with `--head` a snapshot of the
// committed src/ (git archive into head.tmp/), so a run is not thrown off by someone's edit in progress.
// A Vite plugin points the bench's imports of ../../src/ (and size entries' ../../../src/) at the snapshot.

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Source {
  /** What the results say was measured, e.g. `working tree` or `HEAD 8b195c0`. */
  label: string;
  plugins: Plugin[];
}

function describeHead(): string {
  return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
}

/** The working tree's src/ (with `git status` of it in the label), or a snapshot of HEAD's. */
export function librarySource(head: boolean): Source {
  if (!head) {
    let dirty = '';
    try {
      dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: root, encoding: 'utf8' }).trim();
    } catch {
      // Not a git checkout: the label just says working tree.
    }
    return { label: `working tree${dirty ? ' (src/ has uncommitted changes)' : ''}, HEAD ${safeHead()}`, plugins: [] };
  }
  const snapshot = `${here}head.tmp/`;
  rmSync(snapshot, { recursive: true, force: true });
  mkdirSync(snapshot, { recursive: true });
  // `git archive` reads the committed tree only; nothing in the checkout changes.
  // Through a file, not a pipe buffer: src/ is larger than execFileSync's 1 MB maxBuffer (ENOBUFS).
  const tar = `${snapshot}src.tar`;
  execFileSync('git', ['archive', '--format=tar', '-o', tar, 'HEAD', 'src'], { cwd: root });
  execFileSync('tar', ['-x', '-f', tar, '-C', snapshot]);
  rmSync(tar);
  const srcDir = `${root}src/`;
  const plugin: Plugin = {
    name: 'bench-library-snapshot',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer.startsWith(snapshot) || !/^(?:\.\.\/)+src\//u.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !resolved.id.startsWith(srcDir)) return null;
      return this.resolve(snapshot + resolved.id.slice(root.length), importer, { ...options, skipSelf: true });
    },
  };
  return { label: `HEAD ${describeHead()} (committed src/, snapshot)`, plugins: [plugin] };
}

function safeHead(): string {
  try {
    return describeHead();
  } catch {
    return 'unknown';
  }
}
