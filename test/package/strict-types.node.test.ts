// The emitted declarations as a strict app compiles them: the library built with the repository's tsconfig into a
// temporary folder, linked as `node_modules/idb-memory-tool` of a project where `@anthropic-ai/sdk` does not
// resolve, and a consumer of every entry that does not need the SDK compiled with `skipLibCheck: false`.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const work = mkdtempSync(join(tmpdir(), 'idb-memory-tool-strict-types-'));
const app = join(work, 'app');
const installed = join(app, 'node_modules', 'idb-memory-tool');
const dist = join(installed, 'dist');

/** Runs tsc; its errors (printed on stdout) become the thrown message. */
function compile(args: string[]): void {
  try {
    execFileSync(process.execPath, [tsc, ...args], { cwd: root, stdio: 'pipe', encoding: 'utf8' });
  } catch (error) {
    throw new Error(String((error as { stdout?: unknown }).stdout));
  }
}

/** Every file below `dir`, as paths relative to it. */
const filesBelow = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));

// What an app with `exactOptionalPropertyTypes` writes: options spread from its own optional settings, so some are
// an explicit `undefined`, and results narrowed on `is_error`. Each line failed to compile before the types said so.
const CONSUMER = `
import {
  IndexedDBMemoryTool,
  type BeforeWriteHook,
  type HistoryCommand,
  type IndexedDBMemoryToolOptions,
  type MemoryToolResult,
} from 'idb-memory-tool';
import { IndexedDBMemoryTool as WorkerTool } from 'idb-memory-tool/worker';
import { createScriptedClaude, type ScriptedRequest } from 'idb-memory-tool/offline';
import { useMemoryFile, useMemorySearch, useMemoryTree, type MemoryTreeOptions } from 'idb-memory-tool/react';
import { createMemorySync, webdavRemote, type MemorySyncOptions } from 'idb-memory-tool/sync';

declare const settings: { dbName?: string; maxFiles?: number; source?: string; signal?: AbortSignal; limit?: number };

const beforeWrite: BeforeWriteHook = (write) => (write.command === 'insert' ? undefined : write.content);
const options: IndexedDBMemoryToolOptions = {
  dbName: settings.dbName,
  overwrite: undefined,
  limits: { maxFiles: settings.maxFiles, maxFileBytes: undefined },
  history: { maxEntries: undefined },
  blockSecrets: undefined,
  beforeWrite,
  approve: undefined,
};
const tool = await IndexedDBMemoryTool.init(options);
await WorkerTool.init({ dbName: undefined });

const result: MemoryToolResult = await tool.run(
  { command: 'view', path: '/memories' },
  { actor: undefined, source: settings.source, signal: settings.signal },
);
const code: string = result.is_error ? result.code : 'none';
await tool.search('tea', { path: undefined, limit: settings.limit, prefix: undefined });
const commands: HistoryCommand[] = (await tool.history({ limit: undefined, actor: undefined })).map((e) => e.command);
await tool.exportBundle({ path: undefined, format: undefined });
await tool.importBundle('{}', { mode: undefined, dryRun: undefined, onProgress: undefined });

const claude = createScriptedClaude([], { model: undefined, delayMs: undefined });
const requests: ScriptedRequest[] = claude.requests;
const roles = requests.flatMap((request) => request.messages ?? []).map((message) => message.role);

const tree: MemoryTreeOptions = { path: undefined };
export const hooks = [useMemoryTree, useMemoryFile, useMemorySearch, tree] as const;

const remote = webdavRemote({ url: 'https://dav.example/memories/', username: undefined, password: undefined, concurrency: undefined });
const syncOptions: MemorySyncOptions = { remote, mount: undefined, interval: undefined, debounce: undefined };
const sync = createMemorySync(tool, syncOptions);
await sync.syncNow({ confirmDeletes: undefined });
export { code, commands, roles };
`;

beforeAll(() => {
  // The repository's own tsconfig (declarations, their maps), into a folder of this test: dist/ stays untouched.
  compile(['-p', root, '--outDir', dist]);
  writeFileSync(join(installed, 'package.json'), readFileSync(join(root, 'package.json')));
  // What the declarations may import: `idb` (a dependency). Not the SDK, not `react`, not `ai`.
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  symlinkSync(join(root, 'node_modules', 'idb'), join(app, 'node_modules', 'idb'), 'dir');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'strict-app', type: 'module', private: true }));
  writeFileSync(join(app, 'main.ts'), CONSUMER);
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        module: 'ESNext',
        moduleResolution: 'bundler',
        target: 'ES2022',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: [],
        noEmit: true,
      },
      files: ['main.ts'],
    }),
  );
}, 240_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the declarations of the entries that need no SDK', () => {
  it('compile in a strict app where @anthropic-ai/sdk does not resolve', () => {
    expect(existsSync(join(app, 'node_modules', '@anthropic-ai'))).toBe(false);
    expect(() => compile(['-p', app])).not.toThrow();
  }, 120_000);

  it('import neither the SDK nor any package but idb, in any file they reach', () => {
    const entries = ['index.d.ts', 'entries/offline.d.ts', 'entries/worker.d.ts', 'entries/react.d.ts', 'entries/sync.d.ts'];
    const reached = new Set<string>();
    const packages = new Set<string>();
    const stack = entries.map((entry) => join(dist, entry));
    for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
      if (reached.has(file)) continue;
      reached.add(file);
      for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\(\s*)['"]([^'"]+)['"]/g)) {
        if (specifier.startsWith('.')) stack.push(resolve(file, '..', specifier.replace(/\.js$/, '.d.ts')));
        else packages.add(specifier);
      }
    }
    expect(reached.size).toBeGreaterThan(entries.length);
    expect([...packages]).toEqual(['idb']);
  });
});

describe('every emitted declaration', () => {
  it('names the SDK only by its public entry, never a file inside it (resources/…)', () => {
    const inside = filesBelow(dist)
      .filter((file) => file.endsWith('.d.ts'))
      .flatMap((file) => {
        const text = readFileSync(join(dist, file), 'utf8');
        return [...text.matchAll(/['"](@anthropic-ai\/sdk\/[^'"]*)['"]/g)].map((match) => `${file}: ${match[1]}`);
      });
    expect(inside).toEqual([]);
  });

  it('has its declaration map beside it, for "go to definition" into the source', () => {
    const files = new Set(filesBelow(dist));
    const declarations = [...files].filter((file) => file.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(100);
    expect(declarations.filter((file) => !files.has(`${file}.map`))).toEqual([]);
    const map = JSON.parse(readFileSync(join(dist, 'index.d.ts.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.map((source) => resolve(dist, source))).toEqual([join(root, 'src', 'index.ts')]);
  });
});
