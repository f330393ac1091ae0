// The test files that reach a package: those whose own text names it (a compile test writes it into a project) or
// that import, through any chain of relative imports, a file that imports it. The version matrices run these alone:
// a test that never loads the SDK passes or fails the same on every version of it.

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`: the specifier, whatever the clause.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\1/gu;

/** Every `*.test.ts` under `folder`, as paths relative to `root`, in a stable order. */
function testFiles(root, folder) {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.test.ts')) found.push(relative(root, path));
    }
  };
  walk(join(root, folder));
  return found;
}

/** The file a relative specifier names: TypeScript's `.js` for `.ts`, a bare name, or a folder's index. */
function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.(m?)js$/u, '.$1ts'), `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/**
 * The test files under `folder` (relative to `root`) that reach any of `packages` (names, matched whole or with a
 * subpath: `@anthropic-ai/sdk` matches `@anthropic-ai/sdk/helpers/beta/memory`), skipping those `skip` names.
 */
export function testsReaching(root, folder, packages, skip = () => false) {
  const names = (specifier) => packages.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  const reaches = new Map();
  const visit = (path) => {
    if (reaches.has(path)) return reaches.get(path);
    reaches.set(path, false); // a cycle reaches nothing new through itself
    let found = false;
    for (const [, , specifier] of readFileSync(path, 'utf8').matchAll(SPECIFIER)) {
      if (names(specifier)) found = true;
      else if (specifier.startsWith('.')) {
        const next = resolveRelative(path, specifier);
        if (next && visit(next)) found = true;
      }
      if (found) break;
    }
    reaches.set(path, found);
    return found;
  };
  return testFiles(root, folder).filter((file) => {
    if (skip(file)) return false;
    const path = join(root, file);
    return packages.some((name) => readFileSync(path, 'utf8').includes(name)) || visit(path);
  });
}
