// undo(), expire() and forget() are whole or not at all when the page closes part-way (src/storage/README.md,
// "Transactions"): Chromium aborts a closing page's transaction, but Firefox commits the requests it had already
// sent, so each must send every write together, after its last read. Each round fills a memory, starts one of them,
// closes the page after a delay drawn from a seeded generator (anywhere from before it starts to after it ends), and
// reads the stores behind the tool: all of the change or none of it, and totals and bodies that agree with the
// files. No round depends on where the cut falls. ATOMIC_SEED and ATOMIC_ROUNDS choose others and more.

import { describe, expect, it } from 'vitest';
import type { RawDump } from './pages/erase.js';
import { DISK_ENGINES } from './disk-browsers.js';
import type { DiskBrowser, DiskPage } from './disk-browsers.js';
import { servedForFile, startDevServer } from './harness.js';
import { sleep } from './tabs/driver.js';
import { seededRandom } from '../helpers/seeded-random.js';

const PAGE = 'test/e2e/pages/erase.html';
const FOLDER = '/memories/f';
const FILES = 2000;
const SEED = Number(process.env.ATOMIC_SEED ?? 1);
// Each of undo, expiry and forget once per engine and run; ATOMIC_ROUNDS=6 (or more) cuts each at more points.
const ROUNDS = Number(process.env.ATOMIC_ROUNDS ?? 3);
const ACTIONS = ['undo', 'expire', 'forget'] as const;
type Action = (typeof ACTIONS)[number];

const server = servedForFile(startDevServer);


interface Entry {
  path: string;
  kind: string;
  size: number;
  bodyId?: number;
}
interface Rec {
  id: number;
  actor: string;
  command: string;
  paths: string[];
  retains: number[];
  undone?: boolean;
  undoOf?: number;
  hidden?: boolean;
  totals?: number[];
}

/** A new page with the tool open on `dbName`, the folder filled and, for an undo, deleted (the change to undo). */
async function prepared(browser: DiskBrowser, dbName: string, action: Action): Promise<DiskPage> {
  const page = await browser.openPage(`${server.url}${PAGE}`);
  await page.evaluate((name) => window.erase.open(name), dbName);
  await page.evaluate(([folder, count]) => window.erase.fill(folder, count, 200), [FOLDER, FILES] as const);
  if (action === 'undo') {
    expect(await page.evaluate((path) => window.erase.run({ command: 'delete', path }), FOLDER)).toMatchObject({ is_error: false });
  }
  // Expiry deletes what was last used before the moment it is called.
  if (action === 'expire') await sleep(5);
  return page;
}

/** How long `action` takes to its end, uncut. */
async function timed(browser: DiskBrowser, action: Action): Promise<number> {
  const page = await prepared(browser, `atomic-time-${action}-${Date.now()}`, action);
  const began = Date.now();
  await page.evaluate(([what, path]) => window.erase.start(what, path), [action, FOLDER] as const);
  while ((await page.evaluate(() => window.erase.started(), undefined)) === undefined) await sleep(10);
  const ms = Date.now() - began;
  expect(await page.evaluate(() => window.erase.started(), undefined)).toBe('ok');
  await page.close();
  return ms;
}

/** What is wrong with the stores after `action` was cut: [] when the change is all there or not at all. */
function problems(dump: RawDump, action: Action): string[] {
  const entries = (dump.entries ?? []).map(([, value]) => value as Entry);
  const journal = (dump.journal ?? []).map(([, value]) => value as Rec);
  const bodies = new Set((dump.bodies ?? []).map(([key]) => key as number));
  const files = entries.filter((entry) => entry.kind === 'file');
  const found: string[] = [];
  const under = files.filter((entry) => entry.path.startsWith(`${FOLDER}/`)).length;
  if (under !== 0 && under !== FILES) found.push(`${under} of ${FILES} files`);
  const totals = journal.at(-1)?.totals;
  const bytes = files.reduce((sum, entry) => sum + entry.size, 0);
  if (!totals || totals[1] !== bytes || totals[2] !== files.length) {
    found.push(`totals ${JSON.stringify(totals?.slice(1, 3))} for ${files.length} files of ${bytes} bytes`);
  }
  for (const file of files) if (file.bodyId === undefined || !bodies.has(file.bodyId)) found.push(`${file.path} has no body`);
  const held = new Set([...files.flatMap((file) => (file.bodyId === undefined ? [] : [file.bodyId])), ...journal.flatMap((record) => record.retains)]);
  const loose = [...bodies].filter((id) => !held.has(id));
  if (loose.length > 0) found.push(`${loose.length} bodies nothing holds`);
  const changes = journal.filter((record) => !record.hidden);
  if (action === 'undo') {
    const deleted = changes.find((record) => record.command === 'delete');
    const undo = changes.find((record) => record.undoOf !== undefined);
    const back = under === FILES;
    if (!deleted || Boolean(deleted.undone) !== back || Boolean(undo) !== back) {
      found.push(`files ${back ? 'back' : 'not back'}, delete undone: ${deleted?.undone}, undo journaled: ${Boolean(undo)}`);
    }
  } else if (action === 'expire') {
    const expired = changes.some((record) => record.actor === 'expire');
    if (expired !== (under === 0)) found.push(`${under} files, expiry journaled: ${expired}`);
  } else {
    const naming = changes.filter((record) => record.paths.some((path) => path.startsWith(`${FOLDER}/`))).length;
    if (naming > 0 !== under > 0) found.push(`${under} files, ${naming} changes still name them`);
  }
  return found;
}

describe.each(DISK_ENGINES)('in $label, a page closed part-way', (engine) => {
  it('leaves each undo, expiry and forget whole or not at all, at seeded random points', async () => {
    const browser = await engine.launch();
    try {
      const random = seededRandom(SEED);
      const durations = new Map<Action, number>();
      for (const action of ACTIONS) durations.set(action, await timed(browser, action));
      const failures: string[] = [];
      /** Where the cuts fell, for the log: a run whose cuts all fell after the end would prove little. */
      const seen: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const action of ACTIONS) {
          const dbName = `atomic-${SEED}-${round}-${action}-${Date.now()}`;
          const page = await prepared(browser, dbName, action);
          // From just before the start to half as long again as an uncut run takes.
          const delay = Math.floor(random() * 1.5 * (durations.get(action) ?? 0));
          await page.evaluate(([what, path]) => window.erase.start(what, path), [action, FOLDER] as const);
          await sleep(delay);
          await page.close();
          const look = await browser.openPage(`${server.url}${PAGE}`);
          const dump = await look.evaluate((name) => window.erase.dump(name), dbName);
          await look.close();
          const wrong = problems(dump, action);
          if (wrong.length > 0) failures.push(`seed ${SEED} round ${round} ${action} cut after ${delay} ms: ${wrong.join('; ')}`);
          const under = (dump.entries ?? []).filter(([key]) => String(key).startsWith(`${FOLDER}/`)).length;
          seen.push(`${action} ${delay}ms: ${under === 0 ? 'none' : under === FILES ? 'all' : 'part'}`);
        }
      }
      console.info(`${engine.label}: ${seen.join(', ')}`);
      expect(failures).toEqual([]);
    } finally {
      await browser.remove();
    }
  }, 900_000);
});
