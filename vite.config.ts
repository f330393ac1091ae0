// One config for the demo (dev server, static build) and the three test projects:
// `node` (fake-indexeddb), `chromium` (the same suite on real IndexedDB) and `e2e` (the demo driven by Playwright).

import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';

/** Debian's Chromium; test tools cannot download browsers here. CHROMIUM_PATH overrides it. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Root needs --no-sandbox; the rest keep Chromium off a network it cannot reach. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Tests that use Node APIs (the SDK's file-system tool, an HTTP server) and so cannot run in a page. */
const nodeOnly = ['test/**/*.node.test.ts'];

export default defineConfig({
  build: { outDir: 'dist/demo', emptyOutDir: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        extends: true,
        test: {
          name: 'chromium',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', ...nodeOnly],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({ launchOptions: { executablePath: chromiumPath, args: chromiumArgs } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
