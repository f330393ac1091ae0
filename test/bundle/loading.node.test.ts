// Zip support loads with the bundle part, on first use: the main entry's static imports reach neither fflate nor any
// bundle module but format.ts, while the part the tool loads with import() (bundle.ts) holds the zip reader and
// writer. Read from the sources: the modules a bundler puts in the first load are these static imports.

import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every module `entry` imports statically, transitively: `src/...` paths and bare package names. */
function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    const id = relative(root, file);
    if (seen.has(id)) return;
    seen.add(id);
    const source = readFileSync(file, 'utf8');
    // `import … from`, `export … from` and `import '…'`, but not `import type`, `export type` or `import()`.
    for (const [, specifier] of source.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gmu)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier.replace(/\.js$/u, '.ts')));
      else seen.add(specifier);
    }
  };
  visit(join(root, entry));
  return seen;
}

describe('zip support', () => {
  it('is not in the main entry\'s first load, and loads with the bundle part', () => {
    const main = staticGraph('src/index.ts');
    expect(main.has('src/tool/tool.ts')).toBe(true);
    expect([...main].filter((id) => id === 'fflate' || (id.startsWith('src/bundle/') && id !== 'src/bundle/format.ts'))).toEqual([]);
    const part = staticGraph('src/bundle/bundle.ts');
    expect(part.has('fflate')).toBe(true);
    expect([...part].filter((id) => /^src\/bundle\/zip-/u.test(id)).length).toBeGreaterThanOrEqual(4);
  });
});

describe('age encryption', () => {
  it('keeps the age package out of the main entry and the bundle part: only an encrypted bundle loads it; the worker entry holds it', () => {
    const main = staticGraph('src/index.ts');
    const part = staticGraph('src/bundle/bundle.ts');
    for (const graph of [main, part]) expect(graph.has('age-encryption')).toBe(false);
    // The code around the package stays with the bundle part, so the package's chunk shares no module with the rest.
    expect(part.has('src/bundle/age-part.ts')).toBe(true);
    expect(main.has('src/bundle/age-crypto.ts')).toBe(false);
    expect(staticGraph('src/bundle/age-crypto.ts').has('age-encryption')).toBe(false);
    expect(staticGraph('src/entries/worker.ts').has('age-encryption')).toBe(true);
  });
});
