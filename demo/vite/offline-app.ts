// The demo as an installable offline app, in the build only: the manifest's tags in the page, and `sw.js`, the
// service worker (demo/pwa/service-worker.ts) with this build's file list before it. The dev server gets neither.

import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { transformWithOxc } from 'vite';
import type { HtmlTagDescriptor, Plugin } from 'vite';

/** Where the built worker goes, next to index.html: its folder is its scope. */
export const WORKER_FILE = 'sw.js';

/** The head tags that make the page installable: the manifest, the theme colour (light and dark), the icon. */
const HEAD_TAGS: HtmlTagDescriptor[] = [
  { tag: 'link', attrs: { rel: 'manifest', href: './manifest.webmanifest' }, injectTo: 'head' },
  { tag: 'meta', attrs: { name: 'theme-color', content: '#b4532a', media: '(prefers-color-scheme: light)' }, injectTo: 'head' },
  { tag: 'meta', attrs: { name: 'theme-color', content: '#1b1a18', media: '(prefers-color-scheme: dark)' }, injectTo: 'head' },
  { tag: 'link', attrs: { rel: 'apple-touch-icon', href: './icons/icon-192.png' }, injectTo: 'head' },
];

/**
 * `worker`: the service worker's TypeScript source, one file with no imports (a classic worker script runs in every
 * engine; a module worker does not yet in Firefox ESR). It is stripped of its types, not bundled.
 */
export function offlineApp(options: { worker: string }): Plugin {
  let publicDir = '';
  let building = false;
  return {
    name: 'offline-app',
    // After Vite's own plugins, so index.html and every chunk are in the bundle.
    enforce: 'post',
    // The page registers the worker only where there is one: in a build (not by NODE_ENV, which a build under
    // vitest leaves at `test`).
    config: (_config, { command }) => ({ define: { __OFFLINE_APP__: JSON.stringify(command === 'build') } }),
    configResolved(config) {
      publicDir = config.publicDir;
      building = config.command === 'build';
    },
    transformIndexHtml: () => (building ? HEAD_TAGS : []),
    async generateBundle(_output, bundle) {
      if (!building) return;
      const built = Object.keys(bundle).filter((name) => !name.endsWith('.map') && name !== WORKER_FILE);
      const copied = publicDir === '' ? [] : await filesUnder(publicDir);
      const files = ['./', ...new Set([...built, ...copied])].sort();
      const hash = createHash('sha256');
      for (const name of files) hash.update(`${name}\n`);
      for (const name of built.sort()) {
        const item = bundle[name];
        if (item === undefined) continue;
        hash.update(item.type === 'chunk' ? item.code : item.source);
      }
      const version = hash.digest('hex').slice(0, 16);
      const worker = await workerScript(options.worker);
      this.emitFile({
        type: 'asset',
        fileName: WORKER_FILE,
        source: `const PRECACHE = ${JSON.stringify({ version, files })};\n${worker}`,
      });
    },
  };
}

/** The worker's source as a classic script: types stripped, its `export {}` (which makes it a module for TS) gone. */
async function workerScript(path: string): Promise<string> {
  const source = await readFile(path, 'utf8');
  const { code } = await transformWithOxc(source, path, { lang: 'ts' });
  const script = code.replace(/^export\s*\{\s*\};?\s*$/mu, '');
  if (/^\s*(?:import|export)\b/mu.test(script)) throw new Error(`${path}: a service worker script may not import or export`);
  return script;
}

/** Every file under `dir`, as a URL path relative to it (what Vite copies from the public folder to the build). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}
