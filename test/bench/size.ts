// Size: the library's own code minified and gzipped (the SDK left external, idb included), from small entry
// files built with Vite (rolldown), whether the tool alone tree-shakes bundles and the agent away, and the
// demo's first load (its `vite build` JS and CSS, gzipped). Builds in memory; writes nothing to dist/.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, minifySync } from 'vite';
import type { Plugin, Rolldown } from 'vite';
import { measureAppSize } from './size-app.js';
import type { AppSize } from './size-app.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The modules of each part that the tool alone must not load. */
const PARTS = {
  bundle: /^src\/bundle\/(?!format\.ts$)/u,
  agent: /^src\/agent\//u,
  scripted: /^src\/offline\//u,
} as const;

export interface EntrySize {
  entry: string;
  minified: number;
  gzipped: number;
  /** Which parts the eagerly loaded code holds (by module, see {@link PARTS}). */
  contains: Record<keyof typeof PARTS, boolean>;
  /**
   * Source modules, biggest share first: rendered bytes (tree-shaken, not yet minified), that code minified and
   * gzipped alone, and its share: what the gzipped code of every module loses without it. Alone a module shares no
   * gzip dictionary, so the `gzipped` sum to more than the total; the shares sum to about the total, and say what
   * taking one out (or loading it later) would save.
   */
  modules: { id: string; bytes: number; gzipped: number; share: number }[];
  /** Chunks split off by dynamic import(), loaded on first use. */
  lazy: { name: string; gzipped: number; modules: string[] }[];
}

export interface DemoSize {
  /** Entry chunk, its static imports and the CSS: what the first page load fetches. */
  firstLoadGzipped: number;
  /** Every JS and CSS file of the build. */
  allGzipped: number;
  files: { name: string; bytes: number; gzipped: number; firstLoad: boolean }[];
}

export interface SizeReport {
  core: EntrySize;
  whole: EntrySize;
  /** Each entry point of package.json `exports` (`.`, `./sdk`, …), built from its source file. */
  entries?: EntrySize[];
  /** The main entry in a Vite app that imports only the tool (size-app.ts), from the current source. */
  app?: AppSize | { error: string };
  demo: DemoSize | { error: string };
}

/** The package's entry points and their source files (package.json `exports` maps them to dist/). */
export const PACKAGE_ENTRIES: Readonly<Record<string, string>> = {
  'idb-memory-tool': 'src/index.ts',
  'idb-memory-tool/sdk': 'src/entries/sdk.ts',
  'idb-memory-tool/agent': 'src/entries/agent.ts',
  'idb-memory-tool/offline': 'src/entries/offline.ts',
  'idb-memory-tool/worker': 'src/entries/worker.ts',
  'idb-memory-tool/ai-sdk': 'src/entries/ai-sdk.ts',
  'idb-memory-tool/react': 'src/entries/react.ts',
  'idb-memory-tool/sync': 'src/entries/sync.ts',
};

/** A module id as the report shows it: `src/…` (also for the --head snapshot) or `node_modules/…`. */
const shortId = (id: string): string =>
  id.replace(root, '').replace(/^test\/bench\/head\.tmp\//u, '').replace(/^.*node_modules\//u, 'node_modules/');

const gz = (code: string | Uint8Array): number => gzipSync(code, { level: 9 }).length;

function outputs(result: Awaited<ReturnType<typeof build>>): (Rolldown.OutputChunk | Rolldown.OutputAsset)[] {
  const list = Array.isArray(result) ? result : [result];
  return list.flatMap((item) => ('output' in item ? item.output : []));
}

/** The optional peers an app installs itself: never part of the library's size. */
const PEERS = [/^@anthropic-ai\/sdk(\/|$)/u, /^ai(\/|$)/u, /^@ai-sdk\//u, /^react(\/|$)/u];

async function entrySize(name: string, plugins: Plugin[], file = `${here}size-entries/${name}.ts`): Promise<EntrySize> {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    plugins,
    build: {
      write: false,
      minify: true,
      sourcemap: false,
      lib: { entry: file, formats: ['es'], fileName: name.replace(/\W+/gu, '-') },
      rolldownOptions: { external: PEERS },
    },
  });
  const chunks = outputs(result).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  // What `import` of the entry loads: the entry chunk and its static imports. Chunks reached only by a dynamic
  // import() are counted apart (`lazyGzipped`): they load when first used.
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const eager = new Set<string>();
  const visit = (fileName: string): void => {
    if (eager.has(fileName)) return;
    eager.add(fileName);
    for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
  const loaded = chunks.filter((chunk) => eager.has(chunk.fileName));
  const lazy = chunks.filter((chunk) => !eager.has(chunk.fileName));
  // Vite's library mode keeps whitespace in ES output (so that pure annotations survive for the app's bundler); the
  // app's own build then minifies it fully, and that is what its users download.
  const shipped = (chunk: Rolldown.OutputChunk): string => minifySync(chunk.fileName, chunk.code, { module: true }).code;
  const code = loaded.map(shipped).join('\n');
  const rendered = loaded
    .flatMap((chunk) => Object.entries(chunk.modules))
    .filter(([, info]) => info.renderedLength > 0 && info.code !== null)
    .map(([id, info]) => ({ id: shortId(id), bytes: info.renderedLength, code: info.code ?? '' }));
  // As a script, so its top-level code counts as used (it is, from the other modules), and without dead-code
  // removal, so that taking one module out leaves the others' code as it was.
  const squeezed = (list: readonly { code: string }[]): number =>
    gz(minifySync('modules.js', list.map((module) => module.code).join('\n'), { module: false, compress: false }).code);
  const all = squeezed(rendered);
  const modules = rendered
    .map((module) => ({
      id: module.id,
      bytes: module.bytes,
      gzipped: squeezed([module]),
      share: all - squeezed(rendered.filter((other) => other !== module)),
    }))
    .sort((a, b) => b.share - a.share);
  const contains = Object.fromEntries(
    Object.entries(PARTS).map(([part, pattern]) => [part, modules.some((module) => pattern.test(module.id))]),
  ) as EntrySize['contains'];
  const lazyChunks = lazy.map((chunk) => ({
    name: chunk.fileName,
    gzipped: gz(shipped(chunk)),
    modules: Object.keys(chunk.modules).map(shortId),
  }));
  return { entry: name, minified: Buffer.byteLength(code), gzipped: gz(code), contains, modules, lazy: lazyChunks };
}

async function demoSize(plugins: Plugin[]): Promise<DemoSize> {
  // The project's own config (as `npm run build:demo` uses it), built in memory.
  const result = await build({
    configFile: `${root}vite.config.ts`,
    root,
    logLevel: 'silent',
    plugins,
    build: { write: false, outDir: `${here}demo.tmp`, emptyOutDir: false },
  });
  const items = outputs(result);
  const chunks = new Map(items.flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])));
  const firstLoad = new Set<string>();
  const visit = (fileName: string): void => {
    if (firstLoad.has(fileName)) return;
    firstLoad.add(fileName);
    for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
  };
  for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
  const files = items
    .filter((item) => /\.(?:js|css)$/u.test(item.fileName))
    .map((item) => {
      const body = item.type === 'chunk' ? item.code : item.source;
      const isCss = item.fileName.endsWith('.css');
      return {
        name: item.fileName,
        bytes: typeof body === 'string' ? Buffer.byteLength(body) : body.length,
        gzipped: gz(body),
        firstLoad: isCss || firstLoad.has(item.fileName),
      };
    });
  const sum = (list: typeof files): number => list.reduce((total, file) => total + file.gzipped, 0);
  return { firstLoadGzipped: sum(files.filter((file) => file.firstLoad)), allGzipped: sum(files), files };
}

/** Builds the size entries and the demo; a demo that does not build (it is being edited) is reported, not fatal. */
export async function measureSizes(plugins: Plugin[] = []): Promise<SizeReport> {
  const core = await entrySize('core', plugins);
  const whole = await entrySize('whole', plugins);
  // Each entry through a one-line stub, as the size entries are, so that `--head` points its import at the snapshot.
  const stubs = `${here}entries.tmp/`;
  rmSync(stubs, { recursive: true, force: true });
  mkdirSync(stubs, { recursive: true });
  const entries: EntrySize[] = [];
  for (const [name, file] of Object.entries(PACKAGE_ENTRIES)) {
    const stub = `${stubs}${name.replace(/\W+/gu, '-')}.ts`;
    writeFileSync(stub, `export * from '../../../${file.replace(/\.ts$/u, '.js')}';\n`);
    entries.push(await entrySize(name, plugins, stub));
  }
  rmSync(stubs, { recursive: true, force: true });
  let app: SizeReport['app'];
  try {
    app = await measureAppSize();
  } catch (error) {
    app = { error: error instanceof Error ? error.message.split('\n')[0] ?? 'build failed' : String(error) };
  }
  let demo: SizeReport['demo'];
  try {
    demo = await demoSize(plugins);
  } catch (error) {
    demo = { error: error instanceof Error ? error.message.split('\n')[0] ?? 'build failed' : String(error) };
  }
  return { core, whole, entries, app, demo };
}
