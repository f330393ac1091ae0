// The published package: `tsc` builds dist/ the way `npm run build:lib` does, a consumer project installs it
// (package.json + dist, as `npm pack` would ship them), imports it by name through `exports`, and type-checks.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'idb-memory-tool-package-'));
const installed = join(work, 'consumer', 'node_modules', 'idb-memory-tool');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

beforeAll(() => {
  execFileSync(process.execPath, [tsc, '-p', root, '--outDir', join(installed, 'dist')], { stdio: 'pipe' });
  cpSync(join(root, 'package.json'), join(installed, 'package.json'));
  const modules = join(work, 'consumer', 'node_modules');
  mkdirSync(join(modules, '@anthropic-ai'), { recursive: true });
  for (const dep of ['idb', '@anthropic-ai/sdk', 'fake-indexeddb']) symlinkSync(join(root, 'node_modules', dep), join(modules, dep));
  writeFileSync(join(work, 'consumer', 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the built package', () => {
  it('declares types first in exports["."] and ships only dist', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string>> };
    expect(Object.keys(pkg.exports['.'] ?? {})[0]).toBe('types');
    expect(readFileSync(join(installed, 'dist', 'index.d.ts'), 'utf8')).toContain('IndexedDBMemoryTool');
  });

  it('takes the SDK as a peer, so an app and the library share one copy of it, and builds dist/ before it is packed', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.dependencies?.['@anthropic-ai/sdk']).toBeUndefined();
    expect(pkg.peerDependencies?.['@anthropic-ai/sdk']).toMatch(/^\^1\./);
    expect(pkg.scripts['prepack']).toBe('npm run build:lib');
  });

  it('is imported by name and works in another project', () => {
    const script = `
      import 'fake-indexeddb/auto';
      import { IndexedDBMemoryTool, memoryTool, isMemoryToolError, normalizeMemoryPath } from 'idb-memory-tool';
      const tool = await IndexedDBMemoryTool.init({ dbName: 'consumer' });
      const created = await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'hi' });
      const def = memoryTool(tool);
      let code;
      try { normalizeMemoryPath('/memories/../x'); } catch (e) { code = isMemoryToolError(e) && e.code; }
      console.log(JSON.stringify({ created, type: def.type, name: def.name, code }));
      tool.close();`;
    writeFileSync(join(work, 'consumer', 'main.mjs'), script);
    const out = execFileSync(process.execPath, ['main.mjs'], { cwd: join(work, 'consumer'), encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({
      created: { content: 'File created successfully at: /memories/a.md', is_error: false },
      type: 'memory_20250818',
      name: 'memory',
      code: 'invalid_path',
    });
  }, 60_000);

  it('ships source maps that carry their sources (src/ is not in the package)', () => {
    const maps = (readdirSync(join(installed, 'dist'), { recursive: true }) as string[]).filter((name) => name.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(10);
    for (const name of maps) {
      const map = JSON.parse(readFileSync(join(installed, 'dist', name), 'utf8')) as { sources: string[]; sourcesContent?: unknown[] };
      expect(map.sourcesContent, name).toHaveLength(map.sources.length);
      expect(map.sourcesContent?.every((text) => typeof text === 'string' && text.length > 0), name).toBe(true);
    }
  });

  it('lets a Node process end with a tool still open (nothing it opened keeps the process alive)', () => {
    const script = `
      import 'fake-indexeddb/auto';
      import { IndexedDBMemoryTool } from 'idb-memory-tool';
      const tool = await IndexedDBMemoryTool.init({ dbName: 'left-open' });
      tool.subscribe(() => {});
      await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'hi' });
      console.log('done');`;
    writeFileSync(join(work, 'consumer', 'open.mjs'), script);
    // A channel left referenced would keep it running until the timeout kills it (execFileSync then throws).
    const out = execFileSync(process.execPath, ['open.mjs'], { cwd: join(work, 'consumer'), encoding: 'utf8', timeout: 20_000 });
    expect(out.trim()).toBe('done');
  });

  it('type-checks a consumer against its .d.ts', () => {
    writeFileSync(
      join(work, 'consumer', 'main.ts'),
      `import { IndexedDBMemoryTool, memoryTool, type MemoryToolErrorCode } from 'idb-memory-tool';
       import type { MemoryToolHandlers } from '@anthropic-ai/sdk/helpers/beta/memory';
       export async function start(): Promise<MemoryToolErrorCode | string> {
         const tool: MemoryToolHandlers = await IndexedDBMemoryTool.init({ dbName: 'x', limits: { maxFiles: 10 } });
         memoryTool(await IndexedDBMemoryTool.init());
         return String(tool);
       }`,
    );
    writeFileSync(
      join(work, 'consumer', 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022', 'DOM'], noEmit: true, skipLibCheck: true }, files: ['main.ts'] }),
    );
    expect(() => execFileSync(process.execPath, [tsc, '-p', join(work, 'consumer')], { stdio: 'pipe' })).not.toThrow();
  }, 60_000);
});
