// Search stays in step with the files when a page closes part-way through writes and searches (issue 33): each round
// starts a seeded run of writes (an import of 300 files among them) and searches in a page of Chromium or Firefox on a
// profile on disk, closes the page after a seeded delay (from before the run starts to after it ends), opens a new
// page on the same database, and holds every search there to the oracle built from the files as list() and read()
// give them. No round depends on where the cut falls. SEARCH_CLOSED_SEED and SEARCH_CLOSED_ROUNDS choose others and more.

import { describe, expect, it } from 'vitest';
import { DISK_ENGINES } from './disk-browsers.js';
import type { DiskBrowser } from './disk-browsers.js';
import { servedForFile, startDevServer } from './harness.js';
import { sleep } from './tabs/driver.js';
import { STORM_WORDS, expected } from '../helpers/search-storm.js';
import type { OracleQuery } from '../helpers/search-oracle.js';
import { comparable } from '../helpers/search-oracle.js';
import { seededRandom } from '../helpers/seeded-random.js';
import type { SearchResult } from '../../src/index.js';

const PAGE = 'test/e2e/pages/search-closed.html';
const SEED = Number(process.env['SEARCH_CLOSED_SEED'] ?? 1);
// SEARCH_CLOSED_ROUNDS=5 (or more) closes the page at more points.
const ROUNDS = Number(process.env['SEARCH_CLOSED_ROUNDS'] ?? 3);
const STEPS = 40;

const server = servedForFile(startDevServer);

/** The queries asked after each reopening: single words, pairs, a phrase, a prefix, a scope. */
function queries(random: () => number): Array<{ query: string; options: OracleQuery }> {
  const word = () => STORM_WORDS[Math.floor(random() * STORM_WORDS.length)] ?? 'tea';
  return [
    { query: 'tea', options: {} },
    { query: 'cafe creme', options: { limit: 50 } },
    { query: `${word()} ${word()}`, options: {} },
    { query: `"${word()} ${word()}"`, options: {} },
    { query: `${word()} app`, options: { prefix: true } },
    { query: word(), options: { path: '/memories/bulk0', limit: 5 } },
    { query: word(), options: { path: '/memories/notes' } },
  ];
}

/** How long an uncut run of `STEPS` steps takes in this browser (ms). */
async function uncut(browser: DiskBrowser): Promise<number> {
  const page = await browser.openPage(`${server.url}${PAGE}`);
  await page.evaluate((name) => window.searchClosed.open(name), `search-closed-time-${Date.now()}`);
  const began = Date.now();
  await page.evaluate(([seed, steps]) => window.searchClosed.start(seed, steps), [SEED, STEPS] as const);
  while ((await page.evaluate(() => window.searchClosed.finished(), undefined)) < STEPS) await sleep(20);
  const ms = Date.now() - began;
  await page.close();
  return ms;
}

describe.each(DISK_ENGINES)('in $label, pages closed part-way through writes and searches', (engine) => {
  it('leave every search of the reopened memory agreeing with the oracle built from its files', async () => {
    const browser = await engine.launch();
    try {
      const random = seededRandom(SEED);
      const duration = await uncut(browser);
      const dbName = `search-closed-${SEED}-${Date.now()}`;
      const failures: string[] = [];
      const seen: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const page = await browser.openPage(`${server.url}${PAGE}`);
        await page.evaluate((name) => window.searchClosed.open(name), dbName);
        const delay = Math.floor(random() * 1.3 * duration);
        await page.evaluate(([seed, steps]) => window.searchClosed.start(seed, steps), [SEED * 1000 + round, STEPS] as const);
        await sleep(delay);
        const finished = await page.evaluate(() => window.searchClosed.finished(), undefined);
        await page.close();
        seen.push(`round ${round}: cut after ${delay} ms, ${finished} of ${STEPS} steps`);

        const look = await browser.openPage(`${server.url}${PAGE}`);
        await look.evaluate((name) => window.searchClosed.open(name), dbName);
        // Searched first, before anything reads the files: an index behind the files must catch up here.
        const asked = queries(random);
        const answers: unknown[] = [];
        for (const { query, options } of asked) answers.push(await look.evaluate(([q, o]) => window.searchClosed.search(q, o), [query, options] as const));
        const now = await look.evaluate(() => window.searchClosed.files(), undefined);
        const snapshot = { files: new Map(now.files), paths: new Set(now.paths) };
        asked.forEach(({ query, options }, i) => {
          const answer = answers[i] as SearchResult | { error: string };
          const got = 'error' in answer ? answer.error : comparable(answer);
          const want = expected(snapshot, query, options);
          if (JSON.stringify(got) !== JSON.stringify(want)) {
            failures.push(`seed ${SEED} round ${round} ${JSON.stringify(query)} ${JSON.stringify(options)}: got ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
          }
        });
        await look.close();
      }
      console.info(`${engine.label}: uncut ${duration} ms; ${seen.join('; ')}`);
      expect(failures).toEqual([]);
    } finally {
      await browser.remove();
    }
  }, 900_000);
});
