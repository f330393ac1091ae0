// Several tabs on one memory database in Chromium, Firefox and WebKit (./tabs/: one driver per engine): two tabs
// writing at once, a tab closed and a browser killed in the middle of a 5,000-file import, change events across
// tabs, and another tab upgrading or deleting the database. Each test has its own browser (on a profile on disk, but
// WebKit's, see tabs/webkit.ts) and database name; the tabs run test/e2e/pages/tabs.html. What an engine's driver
// cannot do is skipped with the reason in the test's name.

import { describe, expect } from 'vitest';
import { servedForFile, startDevServer } from './harness.js';
import type { Engine, Tab, TabBrowser } from './tabs/driver.js';
import { withBrowser } from './tabs/driver.js';
import { ENGINES, itIn } from './tabs/engines.js';
import { reportServerForFile } from './tabs/report-server.js';

const PAGE = 'test/e2e/pages/tabs.html';
const PER_TAB = 200;
// 5,000 files keep the write transaction seconds long; TABS_IMPORT_FILES=10000 runs the size the import was built for.
const IMPORT_FILES = Number(process.env.TABS_IMPORT_FILES ?? 5000);
/**
 * The import reports `(done, 2 × files)` every 1,000 files: the first half is hashing, the second the write
 * transaction, and `done = total` only once it has committed. The closes fall at a tenth, half and four fifths of the
 * write; the last round closes at the end, as a control: all files must stay.
 */
const CLOSE_POINTS = [1.1, 1.5, 1.8, 2].map((at) => Math.round(at * IMPORT_FILES));

const server = servedForFile(startDevServer);
const reports = reportServerForFile();
let dbCounter = 0;

function freshDbName(): string {
  dbCounter++;
  return `tabs-test-${Date.now()}-${dbCounter}`;
}

/** A new tab of `browser` on the test page, its tool opened on `dbName` (unless `null`). */
async function openTab(browser: TabBrowser, dbName: string | null): Promise<Tab> {
  const tab = await browser.openTab(`${server.url}${PAGE}`);
  await tab.waitFor(() => document.body.dataset.ready === 'true', undefined);
  if (dbName !== null) await tab.evaluate((name) => window.tabs.open(name), dbName);
  return tab;
}

function pad(n: number, width = 3): string {
  return String(n).padStart(width, '0');
}

/** How often consecutive lines change tab: 1 means one tab's writes all ran before the other's. */
function tabSwitches(tags: string[]): number {
  let switches = 0;
  for (let i = 1; i < tags.length; i++) if (tags[i] !== tags[i - 1]) switches++;
  return switches;
}

/**
 * Fires `inputs[k]` from tab `k`, every command of every tab at once, starting together (a second ahead: WebKit's
 * driver starts the tabs one after the other).
 */
async function fireTogether(tabs: Tab[], inputs: unknown[][]): Promise<{ errors: string[]; ms: number }> {
  const startAt = Date.now() + 1000;
  const results = await Promise.all(
    tabs.map((tab, k) => tab.evaluate(([batch, at]) => window.tabs.runAll(batch, at), [inputs[k] ?? [], startAt] as const)),
  );
  const ms = Date.now() - startAt;
  return { errors: results.flat().filter((result) => result.is_error).map((result) => result.content), ms };
}

/**
 * A new tab of `browser` that opens a memory on `db` and starts importing a bundle of {@link IMPORT_FILES} files;
 * answers once the import has reported progress `cutAt` (or the end, if it reports less), with that report.
 */
async function importUntil(browser: TabBrowser, db: string, cutAt: number): Promise<{ tab: Tab; lastSeen: number; bundleKiB: number; began: number }> {
  let lastSeen = 0;
  let reached: (() => void) | undefined;
  const cutPoint = new Promise<void>((done) => {
    reached = done;
  });
  // Reports that came with or after the one at the cut point say nothing of when the cut came: they are not counted.
  const progress = reports.channel((done: number, total: number) => {
    if (reached === undefined) return;
    lastSeen = done;
    if (done >= Math.min(cutAt, total)) {
      reached();
      reached = undefined;
    }
  });
  try {
    const tab = await openTab(browser, db);
    await progress.install(tab, 'reportProgress');
    const built = await tab.evaluate((n) => window.tabs.buildBundle(n), IMPORT_FILES);
    const began = Date.now();
    await tab.evaluate(() => window.tabs.startImport());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((done) => {
      timer = setTimeout(() => done('late'), 300_000);
    });
    const why = await Promise.race([cutPoint.then(() => 'reached' as const), late]);
    clearTimeout(timer);
    expect(why).toBe('reached');
    return { tab, lastSeen, bundleKiB: Math.round(built.bytes / 1024), began };
  } finally {
    progress.close();
  }
}

/**
 * After an import was cut at `cutAt` (progress last seen `lastSeen`): a new tab finds none or all of its files
 * (all once it had committed), totals that count what is there, and a memory that works; answers the file count and
 * how long the new tab's first look at the database waited.
 */
async function checkCutImport(browser: TabBrowser, db: string, cutAt: number, lastSeen: number): Promise<{ count: number; waitedMs: number }> {
  const afterCommit = cutAt === 2 * IMPORT_FILES;
  if (afterCommit) expect(lastSeen).toBe(2 * IMPORT_FILES);
  else {
    // Cut during the write transaction: past the hashing half, before the end was reported.
    expect(lastSeen).toBeGreaterThan(IMPORT_FILES);
    expect(lastSeen).toBeLessThan(2 * IMPORT_FILES);
  }
  const b = await openTab(browser, null);
  // WebKit answers no open of the origin until it has rolled the cut transaction back in its memory store (4-30 s
  // seen), often longer than the tool's own open waits before it gives up (5 s, BLOCKED_WAIT_MS): a raw look waits.
  const looking = Date.now();
  await b.evaluate((name) => window.tabs.rawStats(name), db);
  const waitedMs = Date.now() - looking;
  await b.evaluate((name) => window.tabs.open(name), db);
  const count = await b.evaluate(() => window.tabs.exportedFileCount());
  const stats = await b.evaluate((name) => window.tabs.rawStats(name), db);
  expect(afterCommit ? [IMPORT_FILES] : [0, IMPORT_FILES]).toContain(count);
  // All at once, so that a failure shows the whole store: the files without their journal record and totals (seen in
  // Firefox, which commits the writes a closing tab had issued) is the import committed in part.
  const whole = count === 0 ? { folders: 0, bodies: 0, journal: 0 } : { folders: 101, bodies: IMPORT_FILES, journal: 1 };
  expect({ files: stats.files, usageFiles: stats.usage?.files ?? 0, folders: stats.folders, bodies: stats.bodies, journal: stats.journal })
    .toEqual({ files: count, usageFiles: count, ...whole });

  const path = '/memories/after-import.md';
  expect(await b.evaluate((p) => window.tabs.run({ command: 'create', path: p, file_text: 'still works\n' }), path))
    .toEqual({ content: `File created successfully at: ${path}`, is_error: false });
  const view = await b.evaluate((p) => window.tabs.run({ command: 'view', path: p }), path);
  expect(view.is_error).toBe(false);
  expect(view.content).toContain('still works');
  await b.close();
  return { count, waitedMs };
}

/** One line of the log of cut imports. */
const cutOutcome = (cutAt: number, lastSeen: number, ms: number, bundleKiB: number, count: number, waitedMs: number): string =>
  `at ${cutAt === 2 * IMPORT_FILES ? 'the end (control)' : `≥${cutAt}`} (last progress ${lastSeen}/${2 * IMPORT_FILES}, ${ms} ms after start, bundle ${bundleKiB} KiB) → ${count} files (the next open waited ${waitedMs} ms)`;

const cutSummary = (outcomes: string[]): string =>
  `${outcomes.slice(0, -1).filter((o) => o.includes('→ 0 files')).length} × 0 files, ${outcomes.slice(0, -1).filter((o) => o.includes(`→ ${IMPORT_FILES} files`)).length} × ${IMPORT_FILES}`;

/**
 * An import at each of {@link CLOSE_POINTS}, each into a fresh database of one browser, cut there by `cut`; then,
 * in the browser started again if `relaunch`, what is left is checked ({@link checkCutImport}). Answers the log.
 */
async function cutImports(engine: Engine, verb: string, cut: (tab: Tab, browser: TabBrowser) => Promise<void>, relaunch: boolean): Promise<string[]> {
  const outcomes: string[] = [];
  await withBrowser(engine, async (browser) => {
    for (const cutAt of CLOSE_POINTS) {
      const db = freshDbName();
      const { tab, lastSeen, bundleKiB, began } = await importUntil(browser, db, cutAt);
      await cut(tab, browser);
      const cutAfter = Date.now() - began;
      if (relaunch) await browser.relaunch();
      const { count, waitedMs } = await checkCutImport(browser, db, cutAt, lastSeen);
      const outcome = `${verb} ${cutOutcome(cutAt, lastSeen, cutAfter, bundleKiB, count, waitedMs)}`;
      outcomes.push(outcome);
      console.info(`[tabs ${engine.name}] ${outcome}`);
    }
  });
  expect(outcomes).toHaveLength(CLOSE_POINTS.length);
  return outcomes;
}

for (const engine of ENGINES) {
  describe(engine.label, () => {
    describe('two tabs writing at once', () => {
      itIn(engine, [], 'keeps every line when each tab inserts 200 lines into the same file at once', async () => {
        await withBrowser(engine, async (browser) => {
          const db = freshDbName();
          const [a, b] = [await openTab(browser, db), await openTab(browser, db)];
          const path = '/memories/log.md';
          await a.evaluate((p) => window.tabs.run({ command: 'create', path: p, file_text: '# log\n' }), path);
          const inserts = (tab: string) =>
            Array.from({ length: PER_TAB }, (_, i) => ({ command: 'insert', path, insert_line: 1, insert_text: `${tab}-${pad(i)}\n` }));

          const { errors, ms } = await fireTogether([a, b], [inserts('A'), inserts('B')]);
          expect(errors).toEqual([]);

          const content = await b.evaluate((p) => window.tabs.readFile(p), path);
          const lines = content.split('\n');
          expect(lines[0]).toBe('# log');
          expect(lines.at(-1)).toBe('');
          const written = lines.slice(1, -1);
          expect(written).toHaveLength(2 * PER_TAB);
          expect([...written].sort()).toEqual([...inserts('A'), ...inserts('B')].map((cmd) => cmd.insert_text.trim()).sort());
          console.info(`[tabs ${engine.name}] 2 × ${PER_TAB} inserts on one file: ${ms} ms, ${tabSwitches(written.map((l) => l.slice(0, 1)))} tab switches in commit order`);
        });
      });

      itIn(engine, [], 'fills every slot when each tab makes 200 str_replace edits on distinct slots of the same file at once', async () => {
        await withBrowser(engine, async (browser) => {
          const db = freshDbName();
          const [a, b] = [await openTab(browser, db), await openTab(browser, db)];
          const path = '/memories/slots.md';
          const slots = ['A', 'B'].flatMap((tab) => Array.from({ length: PER_TAB }, (_, i) => `${tab}-${pad(i)}`));
          const initial = `${slots.map((slot) => `${slot}: empty`).join('\n')}\n`;
          expect(await a.evaluate(([p, text]) => window.tabs.run({ command: 'create', path: p, file_text: text }), [path, initial] as const))
            .toMatchObject({ is_error: false });
          const edits = (tab: string) =>
            slots
              .filter((slot) => slot.startsWith(`${tab}-`))
              .map((slot) => ({ command: 'str_replace', path, old_str: `${slot}: empty`, new_str: `${slot}: filled by ${tab}` }));

          const { errors, ms } = await fireTogether([a, b], [edits('A'), edits('B')]);
          expect(errors).toEqual([]);

          const content = await a.evaluate((p) => window.tabs.readFile(p), path);
          expect(content).toBe(`${slots.map((slot) => `${slot}: filled by ${slot.slice(0, 1)}`).join('\n')}\n`);
          console.info(`[tabs ${engine.name}] 2 × ${PER_TAB} str_replace on one file: ${ms} ms`);
        });
      });

      itIn(engine, [], 'keeps every file and an exact usage count when both tabs create 250 files at once, 50 of them the same', async () => {
        await withBrowser(engine, async (browser) => {
          const db = freshDbName();
          const [a, b] = [await openTab(browser, db), await openTab(browser, db)];
          const shared = Array.from({ length: 50 }, (_, i) => `/memories/many/shared/s-${pad(i)}.md`);
          // Own files spread over folders that neither tab has made yet, so both race to make the same parents.
          const own = (tab: string) => Array.from({ length: PER_TAB }, (_, i) => `/memories/many/d${i % 10}/${tab}-${pad(i)}.md`);
          const creates = (tab: string) =>
            [...own(tab), ...shared].map((path) => ({ command: 'create', path, file_text: `${path} from ${tab}\n` }));

          const { errors, ms } = await fireTogether([a, b], [creates('A'), creates('B')]);
          expect(errors).toEqual([]);

          const files = await b.evaluate(() => window.tabs.readAll());
          const expected = [...own('A'), ...own('B'), ...shared].sort();
          expect(Object.keys(files).sort()).toEqual(expected);
          for (const path of own('A')) expect(files[path]).toBe(`${path} from A\n`);
          for (const path of own('B')) expect(files[path]).toBe(`${path} from B\n`);
          for (const path of shared) expect([`${path} from A\n`, `${path} from B\n`]).toContain(files[path]);

          // The running totals are a read-modify-write of one record by 500 transactions from two connections.
          const stats = await a.evaluate((name) => window.tabs.rawStats(name), db);
          const bytes = Object.values(files).reduce((sum, text) => sum + new TextEncoder().encode(text).length, 0);
          expect(stats).toMatchObject({ files: expected.length, folders: 12, usage: { files: expected.length, bytes } });
          const listing = await a.evaluate(() => window.tabs.run({ command: 'view', path: '/memories/many' }));
          expect(listing.content.split('\n').filter((line) => line.endsWith('.md'))).toHaveLength(expected.length);
          console.info(`[tabs ${engine.name}] 2 × ${PER_TAB + shared.length} creates over ${stats.folders} new folders: ${ms} ms`);
        });
      });
    });

    describe('a tab closed during an import', () => {
      // Whether the queued write transaction still commits differs (Firefox's often does, Chromium's and WebKit's
      // are dropped): all or nothing holds in every engine.
      itIn(
        engine,
        [],
        `leaves none or all of ${IMPORT_FILES} files, and a working store, whenever the write transaction is cut`,
        async () => {
          const outcomes = await cutImports(engine, 'close', (tab) => tab.close(), false);
          console.info(`[tabs ${engine.name}] tab closed mid-write: ${cutSummary(outcomes)}`);
        },
        900_000,
      );
    });

    describe('a browser killed during an import', () => {
      itIn(
        engine,
        ['kill'],
        `leaves none or all of ${IMPORT_FILES} files on disk, and a working store, once it is started again`,
        async () => {
          // The whole browser at once, as a crash would end it: no tab is closed, no connection, nothing flushed.
          const outcomes = await cutImports(engine, 'kill', (_tab, browser) => browser.kill(), true);
          console.info(`[tabs ${engine.name}] browser killed mid-write: ${cutSummary(outcomes)}`);
        },
        900_000,
      );
    });

    describe('change events across tabs', () => {
      itIn(engine, [], 'tells a subscribed tab of another tab’s create and of its undo, only after they commit', async () => {
        await withBrowser(engine, async (browser) => {
          const db = freshDbName();
          const [a, b] = [await openTab(browser, db), await openTab(browser, db)];
          await a.evaluate(() => window.tabs.subscribe());
          await b.evaluate(() => window.tabs.subscribe());
          const path = '/memories/notes/hello.md';

          // A refused command commits nothing and so announces nothing.
          const refused = await a.evaluate(() =>
            window.tabs.run({ command: 'str_replace', path: '/memories/nothing.md', old_str: 'x', new_str: 'y' }),
          );
          expect(refused.is_error).toBe(true);

          await a.evaluate((p) => window.tabs.run({ command: 'create', path: p, file_text: 'hello from A\n' }), path);
          await b.waitFor(() => window.tabs.events().length >= 1, undefined, 60_000);
          expect(await b.evaluate(() => window.tabs.events())).toEqual([
            { dbName: db, source: 'remote', changes: [{ type: 'write', path }] },
          ]);
          expect(await a.evaluate(() => window.tabs.events())).toEqual([
            { dbName: db, source: 'local', changes: [{ type: 'write', path }] },
          ]);

          expect(await a.evaluate(() => window.tabs.undo())).toMatchObject({ ok: true });
          await b.waitFor(() => window.tabs.events().length >= 2, undefined, 60_000);
          expect((await b.evaluate(() => window.tabs.events()))[1]).toEqual({
            dbName: db,
            source: 'remote',
            // The undo takes away the folder the create made, too.
            changes: [{ type: 'delete', path }, { type: 'delete', path: path.slice(0, path.lastIndexOf('/')) }],
          });
          // B's listener viewed the path as soon as it heard: the create was there, and after the undo it was gone.
          await b.waitFor(() => window.tabs.seenAtEvent().length >= 2, undefined, 60_000);
          const seenByB = await b.evaluate(() => window.tabs.seenAtEvent());
          expect(seenByB[0]).toContain('hello from A');
          expect(seenByB[1]).toMatch(/^not_found: /u);
          // No echo: A heard its own two changes once each, as local.
          expect((await a.evaluate(() => window.tabs.events())).map((event) => event.source)).toEqual(['local', 'local']);
        });
      });
    });

    describe('another tab changes the database under a tool', () => {
      itIn(engine, [], 'steps aside for a schema upgrade and then fails with a storage error instead of hanging', async () => {
        await withBrowser(engine, async (browser) => {
          const db = freshDbName();
          const a = await openTab(browser, db);
          await a.evaluate(() => window.tabs.run({ command: 'create', path: '/memories/a.md', file_text: 'a\n' }));
          const b = await openTab(browser, null);
          const version = await b.evaluate(() => window.tabs.dbVersion);
          expect((await b.evaluate((name) => window.tabs.rawStats(name), db)).version).toBe(version);

          const upgrade = await b.evaluate(([name, v]) => window.tabs.openRaw(name, v, 10_000), [db, version + 1] as const);
          expect(upgrade).toMatchObject({ outcome: 'success', version: version + 1, blocked: false });

          const next = await a.evaluate(() => window.tabs.execute({ command: 'view', path: '/memories' }, 10_000));
          expect(next).toMatchObject({ ok: false, code: 'storage' });
          const message = next.ok ? '' : next.message;
          expect(message).toMatch(/^The memory storage failed \(VersionError: .+\)\. Nothing was written\.$/u);
          const write = await a.evaluate(() => window.tabs.execute({ command: 'create', path: '/memories/b.md', file_text: 'b\n' }, 10_000));
          expect(write).toMatchObject({ ok: false, code: 'storage' });
          await b.evaluate(() => window.tabs.closeRaw());
          console.info(`[tabs ${engine.name}] upgrade to v${version + 1} from another tab: open took ${upgrade.ms} ms; A then got: ${message}`);
        });
      });

      itIn(engine, [], 'does not block another tab deleting the database, and carries on in a fresh empty one', async () => {
        await withBrowser(engine, async (browser) => {
          const db = freshDbName();
          const a = await openTab(browser, db);
          await a.evaluate(() => window.tabs.run({ command: 'create', path: '/memories/old.md', file_text: 'old\n' }));
          const b = await openTab(browser, null);

          const deletion = await b.evaluate((name) => window.tabs.deleteRaw(name, 10_000), db);
          expect(deletion).toMatchObject({ outcome: 'success', blocked: false });

          const listing = await a.evaluate(() => window.tabs.execute({ command: 'view', path: '/memories' }, 10_000));
          expect(listing).toMatchObject({ ok: true });
          expect(listing.ok && listing.content.split('\n').filter((line) => line.includes('/memories/'))).toEqual([]);
          expect(await a.evaluate(() => window.tabs.execute({ command: 'view', path: '/memories/old.md' }, 10_000)))
            .toMatchObject({ ok: false, code: 'not_found' });
          const path = '/memories/new.md';
          expect(await a.evaluate((p) => window.tabs.execute({ command: 'create', path: p, file_text: 'new\n' }, 10_000), path))
            .toMatchObject({ ok: true });
          const view = await a.evaluate((p) => window.tabs.execute({ command: 'view', path: p }, 10_000), path);
          expect(view.ok && view.content).toContain('new');
          const version = await b.evaluate(() => window.tabs.dbVersion);
          expect(await b.evaluate((name) => window.tabs.rawStats(name), db)).toMatchObject({
            exists: true,
            version,
            files: 1,
            journal: 1,
            usage: { files: 1, bytes: 4 },
          });
          console.info(`[tabs ${engine.name}] deleteDatabase from another tab took ${deletion.ms} ms; A reconnected to a fresh database`);
        });
      });
    });

    describe('a tab that goes offline before it first needs a part loaded on first use', () => {
      itIn(engine, ['offline'], 'answers that method with an unavailable error while Claude\'s commands go on', async () => {
        await withBrowser(engine, async (browser) => {
          const tab = await openTab(browser, freshDbName());
          await tab.evaluate(() => window.tabs.run({ command: 'create', path: '/memories/a.md', file_text: 'a\n' }));
          // Undo's code has not been fetched yet (no preload() on this page): offline, the browser cannot get it.
          await tab.setOffline(true);
          expect(await tab.evaluate(() => window.tabs.undo())).toMatchObject({
            ok: false,
            code: 'unavailable',
            message: expect.stringMatching(/^This part of the memory tool could not be loaded \(.+\).*Reload the page while online/) as unknown,
          });
          expect(await tab.evaluate(() => window.tabs.execute({ command: 'view', path: '/memories/a.md' }, 10_000))).toMatchObject({ ok: true });
          await tab.setOffline(false);
          // The undo refused changed nothing: the file is still there after it.
          expect(await tab.evaluate(() => window.tabs.readFile('/memories/a.md'))).toBe('a\n');
        });
      });
    });
  });
}
