// The published package as an app gets it: `npm pack` (which builds dist/ first), the tarball installed with npm into
// a fresh project that has no `@anthropic-ai/sdk`, then used from Node on fake-indexeddb, type-checked strictly
// against its own declarations, and built with Vite. A second project with the SDK checks the entries that need it.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'vite';
import type { Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'idb-memory-tool-package-'));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, Record<string, string> | string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  sideEffects: string[];
  scripts: Record<string, string>;
  version: string;
  files: string[];
};
let tarball = '';
/** The tarball's files, as `npm pack` packed them (without the `package/` folder). */
let packed: string[] = [];

const npm = (cwd: string, args: string[]): string =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

/** A project with `files`, the packed tarball and `extra` installed from npm's cache (the registry if missing). */
function project(name: string, files: Record<string, string>, extra: string[]): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, type: 'module', private: true }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  npm(dir, ['install', '--prefer-offline', '--no-package-lock', tarball, ...extra]);
  return dir;
}

/** Strict `tsc` of the project's main.ts; without `skipLibCheck`, the package's own declarations are checked too. */
const typecheck = (dir: string, skipLibCheck = false): void => {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, exactOptionalPropertyTypes: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022', 'DOM'], noEmit: true, types: [], skipLibCheck }, files: ['main.ts'] }),
  );
  try {
    execFileSync(process.execPath, [tsc, '-p', dir], { stdio: 'pipe', encoding: 'utf8' });
  } catch (error) {
    // tsc prints its errors on stdout: they are the failure's message.
    throw new Error(String((error as { stdout?: unknown }).stdout));
  }
};

beforeAll(() => {
  tarball = join(work, npm(root, ['pack', '--silent', '--pack-destination', work]).trim().split('\n').pop() ?? '');
  packed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').map((line) => line.replace(/^package\//u, ''));
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('package.json', () => {
  it('takes the SDK as an optional peer, and builds dist/ before it is packed', () => {
    expect(pkg.dependencies['@anthropic-ai/sdk']).toBeUndefined();
    expect(pkg.peerDependencies['@anthropic-ai/sdk']).toMatch(/^\^1\./);
    expect(pkg.peerDependenciesMeta['@anthropic-ai/sdk']).toEqual({ optional: true });
    expect(pkg.scripts['prepack']).toBe('npm run build:lib');
  });

  it('names the types first in every entry, and the worker entry as its one side effect', () => {
    for (const [entry, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string') continue;
      expect(Object.keys(target)[0], entry).toBe('types');
    }
    // The source file too, for builds from src/ (the bench's size of each entry).
    expect(pkg.sideEffects).toEqual(['./dist/entries/worker.js', './src/entries/worker.ts']);
  });
});

describe('the tarball', () => {
  it('is the version the README pins and the changelog releases, with the changelog, the licence and every export\'s files', () => {
    const [major, minor] = pkg.version.split('.');
    const pins = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/idb-memory-tool@(\d+\.\d+)/gu)];
    expect(pins.length).toBeGreaterThan(0);
    for (const [, pinned] of pins) expect(pinned).toBe(`${major}.${minor}`);
    // The newest release heading is this version: nothing published is left under Unreleased alone.
    const releases = [...readFileSync(join(root, 'CHANGELOG.md'), 'utf8').matchAll(/^## \[?(\d+\.\d+\.\d+)\]?/gmu)];
    expect(releases[0]?.[1]).toBe(pkg.version);
    for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json']) expect(packed, file).toContain(file);
    for (const [entry, target] of Object.entries(pkg.exports)) {
      for (const file of typeof target === 'string' ? [target] : Object.values(target)) {
        if (file.includes('*')) continue;
        expect(packed, entry).toContain(file.replace(/^\.\//u, ''));
      }
    }
  });

  it('ships the declaration maps and the sources they point to, so "go to definition" opens the TypeScript', () => {
    const declarations = packed.filter((file) => file.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(0);
    const maps = packed.filter((file) => file.endsWith('.d.ts.map'));
    // Only once the build emits them (tsconfig `declarationMap`); the globs ship them then.
    expect(pkg.files).toContain('dist/**/*.d.ts.map');
    for (const map of maps) {
      const { sources } = JSON.parse(execFileSync('tar', ['-xzOf', tarball, `package/${map}`], { encoding: 'utf8' })) as { sources: string[] };
      for (const source of sources) expect(packed, map).toContain(join(dirname(map), source));
    }
    for (const file of packed.filter((name) => /^src\/.*\.ts$/u.test(name))) expect(file).not.toMatch(/\.test\.ts$/u);
  });

  it('ships the minified browser build: one file per entry, under ./browser/*.js', () => {
    expect(pkg.exports['./browser/*.js']).toBe('./dist/browser/*.js');
    for (const entry of ['index', 'sdk', 'agent', 'offline', 'ai-sdk', 'react', 'sync']) expect(packed).toContain(`dist/browser/${entry}.js`);
  });

  it('has a file for every relative link and image of the README, so they work from node_modules', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)|<img [^>]*src="([^"]+)"|^\[[^\]]+\]:\s*(\S+)/gmu)]
      .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
      .filter((target) => !/^[a-z][a-z+.-]*:|^#/iu.test(target))
      .map((target) => decodeURIComponent(target.replace(/#.*$/u, '')).replace(/^\.\//u, ''));
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((target) => !packed.includes(target) && !packed.some((file) => file.startsWith(`${target.replace(/\/$/u, '')}/`)))).toEqual([]);
  });

  it('never ships dist/demo, even when a demo build lies in dist/', () => {
    // The `files` globs alone, on a folder holding a library file and a demo build.
    const dir = join(work, 'globs');
    for (const file of ['dist/index.js', 'dist/demo/index.html', 'dist/demo/assets/index.js', 'dist/demo/assets/index.js.map']) {
      mkdirSync(join(dir, dirname(file)), { recursive: true });
      writeFileSync(join(dir, file), '');
    }
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'globs', version: '1.0.0', files: pkg.files }));
    const [listing] = JSON.parse(npm(dir, ['pack', '--dry-run', '--json', '--ignore-scripts'])) as [{ files: { path: string }[] }];
    expect(listing.files.map((file) => file.path).sort()).toEqual(['dist/index.js', 'package.json']);
    expect(packed.filter((file) => file.startsWith('dist/demo'))).toEqual([]);
  });
});

describe('the packed tarball in a project without the SDK', () => {
  let dir = '';
  beforeAll(() => {
    dir = project(
      'no-sdk',
      {
        'main.ts': `
          import 'fake-indexeddb/auto';
          import { IndexedDBMemoryTool, isMemoryToolError, type MemoryCommand, type MemoryBundle } from 'idb-memory-tool';
          import { createMemorySync, memoryStoreRemote, webdavRemote, type SyncRemote } from 'idb-memory-tool/sync';
          const tool = await IndexedDBMemoryTool.init({ dbName: 'consumer' });
          const command: MemoryCommand = { command: 'create', path: '/memories/a.md', file_text: 'hello\\n' };
          const created = await tool.run(command);
          const view = await tool.view({ command: 'view', path: '/memories/a.md' });
          const blob = await tool.exportBundle();
          const bundle = JSON.parse(await blob.text()) as MemoryBundle;
          const other = await IndexedDBMemoryTool.init({ dbName: 'consumer-2' });
          const report = await other.importBundle(blob);
          const read = await other.read('/memories/a.md');
          let refused: string | false = false;
          try { await tool.view({ command: 'view', path: '/memories/../x' }); } catch (e) { refused = isMemoryToolError(e) && e.code; }
          // Sync, on a remote of the app's own (WebDAV and Memory Stores type-check here without the SDK too).
          const kept = new Map<string, { text: string; version: string }>();
          let versions = 0;
          const remote: SyncRemote = {
            id: 'app:map', kind: 'map', limits: {}, concurrency: 2,
            list: async () => [...kept].map(([path, file]) => ({ path, version: file.version })),
            read: async (file) => ({ file, text: kept.get(file.path)?.text ?? '' }),
            write: async (path, text) => { const version = String(++versions); kept.set(path, { text, version }); return { path, version }; },
            delete: async (file) => { kept.delete(file.path); },
          };
          const remotes: Array<typeof webdavRemote | typeof memoryStoreRemote> = [webdavRemote, memoryStoreRemote];
          const sync = createMemorySync(tool, { remote, interval: null });
          const synced = await sync.syncNow();
          const third = await IndexedDBMemoryTool.init({ dbName: 'consumer-3' });
          const pulled = await createMemorySync(third, { remote, interval: null }).syncNow();
          console.log(JSON.stringify({ created, view, files: bundle.files.length, added: report.added, read, refused,
            pushed: synced.pushed, pulled: pulled.pulled, remotes: remotes.length }));
          sync.close();
          tool.close();
          other.close();
          third.close();
        `,
        'index.html': '<!doctype html><script type="module" src="./page.js"></script>',
        'page.js': `import { IndexedDBMemoryTool } from 'idb-memory-tool';
          const tool = await IndexedDBMemoryTool.init();
          document.title = await tool.run({ command: 'view', path: '/memories' }).then((r) => r.content);
          window.list = () => tool.list();`,
        'sw.js': `import { IndexedDBMemoryTool } from 'idb-memory-tool/worker';
          self.addEventListener('message', async (event) => {
            const tool = await IndexedDBMemoryTool.init();
            event.source.postMessage(await tool.list());
          });`,
      },
      ['fake-indexeddb@' + pkg.devDependencies['fake-indexeddb']],
    );
  }, 300_000);

  it('has no SDK installed', () => {
    expect(existsSync(join(dir, 'node_modules', 'idb-memory-tool', 'package.json'))).toBe(true);
    expect(existsSync(join(dir, 'node_modules', '@anthropic-ai'))).toBe(false);
  });

  it('type-checks strictly against the package\'s declarations, the SDK absent', () => {
    expect(() => typecheck(dir)).not.toThrow();
  }, 120_000);

  it('creates, views, exports, imports and syncs from Node on fake-indexeddb', () => {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', outDir: 'out', lib: ['ES2022', 'DOM'], types: [], skipLibCheck: true }, files: ['main.ts'] }));
    execFileSync(process.execPath, [tsc, '-p', dir], { stdio: 'pipe' });
    const out = execFileSync(process.execPath, [join('out', 'main.js')], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(out)).toEqual({
      created: { content: 'File created successfully at: /memories/a.md', is_error: false },
      // As the SDK's tool shows a text ending in a newline: the empty line after it is numbered too.
      view: "Here's the content of /memories/a.md with line numbers:\n     1\thello\n     2\t",
      files: 1,
      added: 1,
      read: 'hello\n',
      refused: 'invalid_path',
      pushed: ['/memories/a.md'],
      pulled: ['/memories/a.md'],
      remotes: 2,
    });
  }, 120_000);

  it('builds with Vite: the page loads the rarely used parts on demand, the worker entry holds them all', async () => {
    const chunks = async (input: string): Promise<Rollup.OutputChunk[]> => {
      const output = (await build({
        root: dir,
        configFile: false,
        logLevel: 'silent',
        build: { write: false, rollupOptions: { input: join(dir, input) } },
      })) as Rollup.RollupOutput | Rollup.RollupOutput[];
      return (Array.isArray(output) ? output : [output]).flatMap((o) => o.output).filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
    };
    /** The part modules in chunks the entry loads statically, and those in chunks only import() reaches. */
    const parts = (built: Rollup.OutputChunk[]) => {
      const byName = new Map(built.map((chunk) => [chunk.fileName, chunk]));
      const loaded = new Set<string>();
      const visit = (name: string): void => {
        if (loaded.has(name)) return;
        loaded.add(name);
        for (const next of byName.get(name)?.imports ?? []) visit(next);
      };
      for (const chunk of built) if (chunk.isEntry) visit(chunk.fileName);
      const modules = (static_: boolean) =>
        built
          .filter((chunk) => loaded.has(chunk.fileName) === static_)
          .flatMap((chunk) => Object.keys(chunk.modules))
          .filter((id) => /dist\/(storage\/tree-reads|history\/(undo|expire|read-history)|bundle\/bundle)\.js$/.test(id)).length;
      return { withEntry: modules(true), onDemand: modules(false) };
    };
    const page = await chunks('index.html');
    expect(parts(page)).toEqual({ withEntry: 0, onDemand: 5 });
    // A service worker may not import(): there, every part loads with the entry.
    const worker = await chunks('sw.js');
    expect(parts(worker)).toEqual({ withEntry: 5, onDemand: 0 });
    for (const chunk of [...page, ...worker]) expect(chunk.code).not.toContain('@anthropic-ai');
  }, 120_000);
});

describe('the packed tarball in a project with the optional peers', () => {
  it('type-checks the entries that need them: the runnable for toolRunner, the agent, the offline Claude, the AI SDK tool, the React hooks', () => {
    const dir = project(
      'with-sdk',
      {
        'main.ts': `
          import Anthropic from '@anthropic-ai/sdk';
          import { IndexedDBMemoryTool } from 'idb-memory-tool';
          import { memoryTool } from 'idb-memory-tool/sdk';
          import { createMemoryAgent, type MemoryAgentEvent } from 'idb-memory-tool/agent';
          import { createScriptedClaude } from 'idb-memory-tool/offline';
          import { aiSdkMemoryTool } from 'idb-memory-tool/ai-sdk';
          import { useMemoryFile, useMemoryTree } from 'idb-memory-tool/react';
          import type { ToolSet } from 'ai';
          export function View({ tool }: { tool: IndexedDBMemoryTool | undefined }): string {
            const tree = useMemoryTree(tool, { path: '/memories' });
            const file = useMemoryFile(tool, tree.status === 'ready' ? tree.entries[0]?.path : undefined);
            return file.status === 'ready' ? file.text : tree.status;
          }
          export async function start(): Promise<void> {
            const tool = await IndexedDBMemoryTool.init();
            const claude = createScriptedClaude([{ text: 'hi' }]);
            const client = new Anthropic({ apiKey: 'k', fetch: claude.fetch });
            await client.beta.messages.toolRunner({ model: 'm', max_tokens: 10, messages: [], tools: [memoryTool(tool)] }).runUntilDone();
            const agent = createMemoryAgent({ tool, apiKey: 'k', onEvent: (event: MemoryAgentEvent) => void event });
            await agent.send('hello');
            const tools: ToolSet = { memory: aiSdkMemoryTool(tool) };
            void tools;
          }
        `,
      },
      ['@anthropic-ai/sdk', 'ai', 'react', '@types/react'].map((name) => `${name}@${pkg.devDependencies[name]}`),
    );
    // `ai`'s own declarations need Node's and JSON Schema's types, which are not ours to check: its use sites are.
    expect(() => typecheck(dir, true)).not.toThrow();
    expect(readdirSync(join(dir, 'node_modules', '@anthropic-ai'))).toEqual(['sdk']);
  }, 300_000);
});
