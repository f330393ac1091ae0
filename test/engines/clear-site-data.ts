// A test-only route of Vitest's server: GET /__clear-site-data answers `Clear-Site-Data: "storage"`, so the browser
// deletes the origin's storage and force-closes every IndexedDB connection, as an engine does when it drops one
// (a `close` event, in-flight transactions aborted). The same in Chromium, Firefox and WebKit.

import type { Plugin } from 'vite';

export const CLEAR_SITE_DATA_PATH = '/__clear-site-data';

export function clearSiteData(): Plugin {
  return {
    name: 'clear-site-data',
    // Never on the demo's dev server or in a build.
    apply: (_config, env) => env.command === 'serve' && env.mode === 'test',
    configureServer(server) {
      server.middlewares.use(CLEAR_SITE_DATA_PATH, (_req, res) => {
        res.setHeader('Clear-Site-Data', '"storage"');
        res.setHeader('Cache-Control', 'no-store');
        res.end('cleared');
      });
    },
  };
}
