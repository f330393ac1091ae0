// axe-core on a demo page, as the a11y tests run it: WCAG 2.0–2.2 A and AA, best practices, 24 px targets, visible
// label in the name; in light and dark. Shared by the e2e tests that check a state of their own.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
export const AXE_RULES = { 'target-size': { enabled: true }, 'label-content-name-mismatch': { enabled: true } };

/** axe-core's violations on the page as it is now, light and dark, one line per element. */
export async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(AXE, 'utf8'));
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const lines = await page.evaluate(
      async ({ tags, rules }) => {
        const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe;
        const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'] });
        return result.violations.flatMap((v) => v.nodes.map((node) => `${v.id} at ${node.target.map(String).join(' ')}: ${node.failureSummary ?? ''}`));
      },
      { tags: AXE_TAGS, rules: AXE_RULES },
    );
    found.push(...lines.map((line) => `${colorScheme}: ${line}`));
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}
