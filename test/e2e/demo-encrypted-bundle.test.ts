// The demo's encrypted bundles in Chromium, driven as a person would: an export with a passphrase typed twice (a
// mismatch caught, the strength shown), downloaded as an age file; its import refused without the passphrase and
// with a wrong one (the memory unchanged), then applied with the right one; the report naming only what is not zero;
// the selects as wide as their options; axe-core clean throughout.

import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { builtDemoForFile, diskProfile, dumpIndexedDB, openDemo, runCommand, showTool } from './harness.js';

const site = builtDemoForFile();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PASSPHRASE = 'Velvet-Harbor-42-Quince';

/** axe-core's violations (WCAG 2.x A/AA, best practices, target-size), one line each. */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(AXE, 'utf8'));
  return page.evaluate(async () => {
    type Result = { violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> };
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<Result> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      rules: { 'target-size': { enabled: true }, 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations'],
    });
    return result.violations.flatMap((v) => v.nodes.map((node) => `${v.id} at ${node.target.map(String).join(' ')}`));
  });
}

describe('the demo’s encrypted bundles, in Chromium', () => {
  it('exports with a passphrase typed twice and imports back only with it, the memory unchanged until then', async () => {
    const profile = await diskProfile();
    try {
      const page = await openDemo(await profile.launch(), site.url);
      await runCommand(page, 'create', { path: '/memories/secret.md', file_text: 'The garden key is under the third pot.' });
      await showTool(page, 'Bundles');
      const panel = page.locator('#bundles');
      const status = panel.getByRole('status');

      // The encryption controls and the panel's styles load the first time it shows.
      await page.getByRole('button', { name: 'Export encrypted' }).waitFor();
      // Each select is as wide as its options, not the panel.
      const panelWidth = (await panel.boundingBox())?.width ?? 0;
      for (const label of ['Mode', 'Same file in both']) {
        const width = (await page.getByLabel(label, { exact: true }).boundingBox())?.width ?? 0;
        expect(width).toBeGreaterThan(0);
        expect(width).toBeLessThan(panelWidth / 2);
      }

      await page.locator('#bundles').getByLabel('Passphrase', { exact: true }).fill('abc');
      await expect.poll(() => panel.locator('#bundle-passphrase-strength').textContent()).toMatch(/^Weak/u);
      await page.locator('#bundles').getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
      await expect.poll(() => panel.locator('#bundle-passphrase-strength').textContent()).toMatch(/^Strong/u);
      await page.getByLabel('Confirm passphrase', { exact: true }).fill(`${PASSPHRASE}x`);
      await page.getByRole('button', { name: 'Export encrypted' }).click();
      await expect.poll(() => status.textContent()).toContain('The two passphrases differ');
      expect(await violations(page)).toEqual([]);

      await page.getByLabel('Confirm passphrase', { exact: true }).fill(PASSPHRASE);
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByRole('button', { name: 'Export encrypted' }).click()]);
      const bytes = await readFile(await download.path());
      expect(download.suggestedFilename()).toMatch(/^claude-memory-\d{4}-\d\d-\d\d\.json\.age$/u);
      expect(bytes.subarray(0, 22).toString('latin1')).toBe('age-encryption.org/v1\n');
      expect(bytes.includes(Buffer.from('garden key'))).toBe(false);
      await expect.poll(() => status.textContent(), { timeout: 120_000 }).toContain('encrypted with your passphrase');

      await runCommand(page, 'delete', { path: '/memories/secret.md' });
      const before = await dumpIndexedDB(page);
      const file = { name: 'claude-memory.json.age', mimeType: 'application/octet-stream', buffer: bytes };
      await page.getByLabel('Import a bundle').setInputFiles(file);
      await expect.poll(() => status.textContent()).toContain('give the passphrase or the identity');
      // The refusal sends the keyboard to the field it needs.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('bundle-import-passphrase');
      expect(await violations(page)).toEqual([]);

      const key = page.getByLabel('Bundle passphrase', { exact: true });
      await key.fill('not it');
      await key.press('Tab');
      await expect.poll(() => status.textContent(), { timeout: 120_000 }).toContain('the passphrase given does not open it');
      expect(await dumpIndexedDB(page)).toBe(before);

      await key.fill(PASSPHRASE);
      await key.press('Tab');
      const report = page.getByLabel('Import report');
      await expect.poll(() => report.textContent(), { timeout: 120_000 }).toContain('1 file would be added');
      // Only what is not zero.
      expect(await report.textContent()).not.toMatch(/\b0 (?:file|folder)/u);
      expect(await dumpIndexedDB(page)).toBe(before);
      expect(await violations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Apply import' }).click();
      await expect.poll(() => status.textContent(), { timeout: 120_000 }).toContain('Imported claude-memory.json.age.');
      expect(await report.textContent()).toContain('1 file was added');
      expect(await runCommand(page, 'view', { path: '/memories/secret.md' })).toContain('The garden key is under the third pot.');
    } finally {
      await profile.close();
    }
  });
});
