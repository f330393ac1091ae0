// The demo's review of Claude's writes in Firefox (puppeteer-core over WebDriver BiDi) and WebKit (WebKitWebDriver),
// through the engine-neutral tab driver of tabs/: a card with the diff takes focus, Deny with a reason stores nothing
// and tells Claude, "Allow for this conversation" lets the next write through, the blame gutter names claude and is
// one tab stop its keys move along, and axe finds nothing on the card or the gutter. Chromium runs the fuller flow in
// demo-review.test.ts.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect } from 'vitest';
import { builtDemoForFile } from './harness.js';
import type { Tab, TabBrowser } from './tabs/driver.js';
import { withBrowser } from './tabs/driver.js';
import { ENGINES, itIn } from './tabs/engines.js';

const site = builtDemoForFile();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

async function openDemo(browser: TabBrowser): Promise<Tab> {
  const tab = await browser.openTab(site.url);
  await tab.waitFor(() => document.body.dataset.ready === 'true', undefined);
  return tab;
}

/** The Offline demo's buttons are back: the script played to its end. */
const idle = (tab: Tab) =>
  tab.waitFor(() => (document.getElementById('offline-demo') as HTMLButtonElement | null)?.disabled === false, undefined);

/** Presses the button named `name` in the last review card (as a click, which the keyboard's Enter also is). */
const press = (tab: Tab, name: string) =>
  tab.evaluate((label) => {
    const cards = document.querySelectorAll('#transcript .msg.review');
    const button = [...(cards[cards.length - 1]?.querySelectorAll('button') ?? [])].find((each) => each.textContent === label);
    if (!button) throw new Error(`no button ${label}`);
    button.click();
  }, name);

/**
 * axe-core's violations within `selector`. Its source goes into the page as the body of the function evaluated (the
 * drivers send a function's text), not through eval, which the demo's Content-Security-Policy forbids.
 */
async function violations(tab: Tab, selector: string): Promise<string[]> {
  const source = await readFile(AXE, 'utf8');
  const run = new Function(
    'arg',
    `${source}\n;return axe.run(arg.selector, { runOnly: { type: 'tag', values: arg.tags }, rules: { 'target-size': { enabled: true } }, resultTypes: ['violations'] })` +
      `.then((result) => result.violations.flatMap((v) => v.nodes.map((node) => v.id + ' at ' + node.target.join(' '))));`,
  ) as (arg: { selector: string; tags: string[] }) => Promise<string[]>;
  return tab.evaluate(run, { selector, tags: TAGS });
}

for (const engine of ENGINES.filter((each) => each.name !== 'chromium')) {
  describe(`the demo’s review of Claude’s writes in ${engine.label}`, () => {
    itIn(engine, [], 'asks with a diff, denies with a reason, allows for the conversation, and shows who wrote each line', async () => {
      await withBrowser(engine, async (browser) => {
        // Review on, remembered: the next page opens its tool with the hook.
        const first = await openDemo(browser);
        await first.evaluate(() => localStorage.setItem('idb-memory-tool-demo:review', 'on'));
        await first.close();
        const tab = await openDemo(browser);
        expect(await tab.evaluate(() => (document.getElementById('review-writes') as HTMLInputElement).checked)).toBe(true);

        await tab.evaluate(() => document.getElementById('offline-demo')?.click());
        await tab.waitFor(() => document.querySelector('#transcript .msg.review') !== null, undefined);
        const card = await tab.evaluate(() => {
          const shown = document.querySelector('#transcript .msg.review');
          return {
            title: shown?.querySelector('.who')?.textContent,
            added: [...(shown?.querySelectorAll('ins.line.added') ?? [])].map((line) => line.textContent),
            focused: document.activeElement === shown,
          };
        });
        expect(card).toEqual({
          title: 'Claude asks to create /memories/offline-demo.md',
          added: ['+ added: # About the user\n', '+ added: - Drinks tea\n'],
          focused: true,
        });
        expect(await violations(tab, '#transcript .msg.review')).toEqual([]);
        await tab.evaluate(() => {
          const reason = document.querySelector<HTMLInputElement>('#transcript .msg.review input');
          if (reason) reason.value = 'not on a shared computer';
        });
        await press(tab, 'Deny');
        await idle(tab);
        const denied = await tab.evaluate(() => ({
          outcome: document.querySelector('#transcript .msg.review .review-outcome')?.textContent,
          told: [...document.querySelectorAll('#transcript pre.result.error')].map((pre) => pre.textContent ?? '').find((text) => text.includes('declined')),
          stored: [...document.querySelectorAll('#memory-tree [role="treeitem"]')].some((item) => item.textContent?.includes('offline-demo.md')),
        }));
        expect(denied.outcome).toBe('Denied: not on a shared computer. Nothing was written.');
        expect(denied.told).toContain('not on a shared computer');
        expect(denied.stored).toBe(false);

        await tab.evaluate(() => document.getElementById('new-chat')?.click());
        await tab.evaluate(() => document.getElementById('offline-demo')?.click());
        await tab.waitFor(() => document.querySelector('#transcript .msg.review') !== null, undefined);
        await press(tab, 'Allow for this conversation');
        await idle(tab);
        const allowed = await tab.evaluate(() => ({
          cards: document.querySelectorAll('#transcript .msg.review').length,
          answer: document.getElementById('transcript')?.textContent?.includes('My note from our last conversation says: “Drinks green tea, no sugar”.'),
        }));
        expect(allowed).toEqual({ cards: 1, answer: true });

        // The options load when reached (focus), and the box applies as they do.
        await tab.evaluate(() => {
          const box = document.getElementById('blame-toggle');
          box?.focus();
          box?.click();
        });
        await tab.waitFor(() => document.querySelector('#blame .blame-who') !== null, undefined);
        const who = await tab.evaluate(() => [...document.querySelectorAll('#blame .blame-who')].map((cell) => cell.textContent ?? ''));
        expect(who.length).toBeGreaterThan(1);
        for (const text of who) expect(text).toMatch(/^claude, .*conversation /u);
        // One tab stop, moved by the keys (their keydown, as the engine dispatches it, on the cell that holds the stop:
        // the Memory pane may be a hidden tab at this window's size, where nothing takes focus) along the gutter.
        const stops = await tab.evaluate(() => {
          const cells = [...document.querySelectorAll<HTMLElement>('#blame .blame-who')];
          const stop = () => cells.findIndex((cell) => cell.tabIndex === 0);
          const after = (key: string) => {
            cells[stop()]?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
            return stop();
          };
          const ones = cells.filter((cell) => cell.tabIndex === 0).length;
          return { ones, first: stop(), down: after('ArrowDown'), end: after('End'), up: after('ArrowUp'), home: after('Home') };
        });
        expect(stops).toEqual({ ones: 1, first: 0, down: 1, end: who.length - 1, up: who.length - 2, home: 0 });
        expect(await violations(tab, '#blame')).toEqual([]);
      });
    }, 300_000);
  });
}
