// The main entry as an app sees it (test/bench/size-app.ts): a Vite app importing only `IndexedDBMemoryTool`, each file
// it loads up front gzipped alone, Vite's preload helper among them.

import { beforeAll, expect, it } from 'vitest';
import { measureAppSize } from '../bench/size-app.js';
import type { AppSize } from '../bench/size-app.js';

let app: AppSize | undefined;
beforeAll(async () => {
  app = await measureAppSize();
}, 300_000);

const measured = (): AppSize => {
  if (!app) throw new Error('not measured');
  return app;
};

it('counts every file the page loads before the app runs, and leaves the parts loaded on first use out', () => {
  const { files, upFrontGzipped } = measured();
  const upFront = files.filter((file) => file.upFront);
  expect(upFront.length).toBeGreaterThan(0);
  expect(files.some((file) => !file.upFront)).toBe(true);
  expect(upFrontGzipped).toBe(upFront.reduce((sum, file) => sum + file.gzipped, 0));
});

// Issue 35's goal (16 KiB stays the direction): the write path loads while init() opens the database
// (src/tool/README.md, "Size"), so only what opens the database and answers `view` is up front.
const BUDGET_KIB = 18;

it(`loads at most ${BUDGET_KIB} KiB gzipped up front`, () => {
  expect(measured().upFrontGzipped).toBeLessThanOrEqual(BUDGET_KIB * 1024);
});
