// The README's pictures of the demo, made from the built demo as a person sees it after the Offline demo: on a
// desktop, on a phone (dark), and the history with a change opened. `npm run screenshots` writes them to
// demo/screenshots/; in the suite they go to a temporary folder, so the script that makes them cannot rot.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { builtDemoForFile, openDemo, showTool, withDiskProfile } from './harness.js';

const site = builtDemoForFile();
/** Where the README keeps them, relative to the repository. */
const README_DIR = 'demo/screenshots';

interface Shot {
  file: string;
  viewport: { width: number; height: number };
  colorScheme: 'light' | 'dark';
  /** Brings the page to what the picture shows, after the Offline demo has played. */
  arrange(page: Page): Promise<void>;
  /** A part of the page rather than the viewport. */
  part?: string;
}

const SHOTS: Shot[] = [
  { file: 'desktop.png', viewport: { width: 1280, height: 800 }, colorScheme: 'light', arrange: async () => undefined },
  {
    file: 'phone.png',
    viewport: { width: 390, height: 844 },
    colorScheme: 'dark',
    arrange: (page) => page.getByRole('tab', { name: 'Memory', exact: true }).click(),
  },
  {
    file: 'history.png',
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    part: '#tools',
    arrange: async (page) => {
      await showTool(page, 'History');
      const history = page.getByRole('tabpanel', { name: 'What Claude changed' });
      await history.getByRole('button', { name: 'Show changes' }).first().click();
      // The diff's code and look may come with this click: the picture waits for its lines.
      await history.locator('.diff-lines').first().waitFor();
    },
  },
];

/** A PNG's size, from its header. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('the README’s screenshots of the demo', () => {
  it('are made from the built demo after the Offline demo, and the README shows each', async () => {
    const out = process.env.SCREENSHOTS_DIR ? resolve(process.env.SCREENSHOTS_DIR) : await mkdtemp(join(tmpdir(), 'demo-shots-'));
    try {
      for (const shot of SHOTS) {
        await withDiskProfile(async (context) => {
          const page = await openDemo(context, site.url);
          await page.setViewportSize(shot.viewport);
          await page.emulateMedia({ colorScheme: shot.colorScheme, reducedMotion: 'reduce' });
          const offline = page.getByRole('button', { name: 'Offline demo' });
          await offline.click();
          await expect.poll(() => offline.isDisabled()).toBe(true);
          await expect.poll(() => offline.isEnabled(), { timeout: 120_000 }).toBe(true);
          await expect.poll(() => page.locator('#viewer-path').textContent()).toBe('/memories/offline-demo.md');
          await shot.arrange(page);
          const path = join(out, shot.file);
          const target = shot.part ? page.locator(shot.part) : page;
          await target.screenshot({ path, animations: 'disabled', caret: 'hide' });
          const size = pngSize(await readFile(path));
          if (!shot.part) expect(size).toEqual(shot.viewport);
          else expect(size.width).toBeLessThanOrEqual(shot.viewport.width);
        });
      }
      const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
      for (const shot of SHOTS) {
        // Shown by the README, and there to show: the committed picture is a PNG.
        expect(readme).toContain(`${README_DIR}/${shot.file}`);
        pngSize(await readFile(new URL(`../../${README_DIR}/${shot.file}`, import.meta.url)));
      }
    } finally {
      if (!process.env.SCREENSHOTS_DIR) await rm(out, { recursive: true, force: true });
    }
  });
});
