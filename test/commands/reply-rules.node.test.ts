// The reply contract's rule names (src/commands/README.md, `R-…`) as the code and the tests cite them: every name
// cited is a rule the README defines, so a renamed or dropped rule leaves no stale citation behind.

import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const RULE = /\bR-[a-z]+(?:-[a-z]+)*\b/gu;

async function sources(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(ROOT, folder), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(?:ts|mjs)$/u.test(entry.name)) found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

describe('the reply rules', () => {
  it('cites, in src/ and test/, only rules src/commands/README.md defines', async () => {
    const readme = await readFile(join(ROOT, 'src/commands/README.md'), 'utf8');
    const defined = new Set([...readme.matchAll(/^- \*\*(R-[a-z-]+)\.\*\*/gmu)].map((match) => match[1]));
    expect(defined.size).toBeGreaterThan(30);
    const stale: string[] = [];
    for (const file of [...(await sources('src')), ...(await sources('test'))]) {
      for (const [name] of (await readFile(file, 'utf8')).matchAll(RULE)) {
        if (!defined.has(name)) stale.push(`${file.slice(ROOT.length + 1)}: ${name}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it('names each rule once in the README, and the README cites only rules it defines', async () => {
    const readme = await readFile(join(ROOT, 'src/commands/README.md'), 'utf8');
    const names = [...readme.matchAll(/^- \*\*(R-[a-z-]+)\.\*\*/gmu)].map((match) => match[1]);
    expect(new Set(names).size).toBe(names.length);
    const cited = [...readme.matchAll(RULE)].map(([name]) => name).filter((name) => !names.includes(name));
    expect(cited).toEqual([]);
  });
});
