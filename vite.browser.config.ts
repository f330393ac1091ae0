// The browser build for import maps (`npm run build:browser`, part of build:lib): every entry of package.json `exports`
// minified to dist/browser/<entry>.js, with idb and fflate inside and the optional peers left to the page's import map.
// One build of all entries, so the code they share is one module in one chunk (sync reaches the tool's own internals).

import { defineConfig } from 'vite';

/** The entries as dist/browser names them; `worker` is left out: a service worker has no import map. */
export const BROWSER_ENTRIES: Readonly<Record<string, string>> = {
  index: 'src/index.ts',
  sdk: 'src/entries/sdk.ts',
  agent: 'src/entries/agent.ts',
  offline: 'src/entries/offline.ts',
  'ai-sdk': 'src/entries/ai-sdk.ts',
  react: 'src/entries/react.ts',
  sync: 'src/entries/sync.ts',
};

/** The optional peers: the page names them in its import map, as it names this package. */
export const BROWSER_EXTERNAL = [/^@anthropic-ai\/sdk(\/|$)/u, /^ai(\/|$)/u, /^@ai-sdk\//u, /^react(\/|$)/u];

export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: 'dist/browser',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    // None: a page debugs with the unminified dist/ (its maps hold the sources); these would double the tarball.
    sourcemap: false,
    // No preload helper: it reaches for `document`, and a page loads a part's chunk when the part is first used.
    modulePreload: false,
    copyPublicDir: false,
    rolldownOptions: {
      input: BROWSER_ENTRIES,
      external: BROWSER_EXTERNAL,
      // An app build drops an entry's exports; here they are the point.
      preserveEntrySignatures: 'strict',
      output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
