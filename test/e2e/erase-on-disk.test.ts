// What the browser keeps on disk of a forgotten text (src/storage/README.md, "Erase on disk"): Chromium and Firefox on
// a profile folder, a memory written, its secrets forgotten, the history cleared and the storage compacted; then the
// browser quits and starts again, and no byte sequence of any secret is anywhere in the profile folder, as Latin-1 or
// as UTF-16. A text that stays is found there, so the look does see what IndexedDB holds.

import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DISK_ENGINES, findInFolder } from './disk-browsers.js';
import { servedForFile, startDevServer } from './harness.js';

const PAGE = 'test/e2e/pages/erase.html';
const server = servedForFile(startDevServer);

/**
 * Markers no other text holds: each its name, then letters no filler below uses, and no four bytes twice in any of
 * them (LevelDB's snappy folds a repeat of four bytes or more into a copy: the marker would no longer be there whole).
 */
function markers(...names: string[]): string[] {
  const letters = 'qwxzvjkyup';
  const used = new Set<string>();
  return names.map((name) => {
    for (;;) {
      let out = name;
      for (let i = 0; i < 28; i++) out += letters[randomInt(letters.length)];
      const grams = Array.from({ length: out.length - 3 }, (_, i) => out.slice(i, i + 4));
      if (new Set(grams).size !== grams.length || grams.some((gram) => used.has(gram))) continue;
      for (const gram of grams) used.add(gram);
      return out;
    }
  });
}

describe.each(DISK_ENGINES)('in $label, on a profile on disk', (engine) => {
  it('forget(), clearHistory() and compactStorage() leave no byte of the forgotten texts in the profile after a restart', async () => {
    const [keep, live, older, wide, big, deleted] = markers('Keep', 'Live', 'Older', 'Wide', 'Big', 'Deleted') as [
      string, string, string, string, string, string,
    ];
    const filler = Array.from({ length: 6000 }, (_, i) => `line ${i} of the big note`).join('\n');
    const browser = await engine.launch();
    try {
      const dbName = `erase-${Date.now()}`;
      let page = await browser.openPage(`${server.url}${PAGE}`);
      await page.evaluate((name) => window.erase.open(name), dbName);
      const inputs = [
        { command: 'create', path: '/memories/keep.md', file_text: `stays: ${keep}\n` },
        { command: 'create', path: '/memories/secret/a.md', file_text: `first: ${older}\n` },
        { command: 'str_replace', path: '/memories/secret/a.md', old_str: older, new_str: live },
        // Two-byte text (V8 and SpiderMonkey keep it as UTF-16), and one big enough for Chromium's blob files.
        { command: 'create', path: '/memories/secret/wide.md', file_text: `snow ☃ ${wide}\n` },
        { command: 'create', path: '/memories/secret/big.md', file_text: `${filler}\n${big}\n${filler}\n` },
        { command: 'create', path: '/memories/secret/old.md', file_text: `deleted: ${deleted}\n` },
        { command: 'delete', path: '/memories/secret/old.md' },
      ];
      for (const input of inputs) {
        expect(await page.evaluate((cmd) => window.erase.run(cmd), input)).toMatchObject({ is_error: false });
      }
      expect(await page.evaluate(() => window.erase.forget('/memories/secret'), undefined)).toBe('ok');
      await page.evaluate(() => window.erase.clearHistory(), undefined);
      expect(await page.evaluate(() => window.erase.compact(), undefined)).toMatchObject({ files: 1, changes: 0 });

      await browser.stop();
      await browser.start();
      page = await browser.openPage(`${server.url}${PAGE}`);
      await page.evaluate((name) => window.erase.open(name), dbName);
      expect(await page.evaluate(() => window.erase.read('/memories/keep.md'), undefined)).toBe(`stays: ${keep}\n`);
      expect(await page.evaluate(() => window.erase.read('/memories/secret/a.md'), undefined)).toBe('missing: not_found');
      await browser.stop();

      const hits = await findInFolder(browser.dir, [keep, live, older, wide, big, deleted]);
      expect(hits.get(keep)).not.toEqual([]);
      expect({ live: hits.get(live), older: hits.get(older), wide: hits.get(wide), big: hits.get(big), deleted: hits.get(deleted) }).toEqual({
        live: [],
        older: [],
        wide: [],
        big: [],
        deleted: [],
      });
    } finally {
      await browser.remove();
    }
  }, 300_000);
});
