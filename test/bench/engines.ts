// The browsers `npm run bench` drives, one at a time, each with the same page and the same calls on `window.bench`:
// Chromium through playwright-core (CDP), Firefox through puppeteer-core (WebDriver BiDi), WebKitGTK's MiniBrowser
// through WebKitWebDriver (classic WebDriver over fetch). All timing happens in the page (performance.now()); the
// drivers only start the work and bring the results back, so their own latency is never in a row.

import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
// Static: bench.mjs's module runner is closed once run.ts has loaded, so a later import() would fail.
import puppeteer from 'puppeteer-core';
import { chromiumArgs, chromiumPath, firefoxPath } from '../../vite.config.js';
import { startWebKitDriver, webkitCapabilities } from '../engines/webkit-driver.js';
import type { WebKitDriver } from '../engines/webkit-driver.js';
import type { CaseResult, PayloadPlan, ScenarioPlan } from './fixtures.js';
import type { SyncAnswer, SyncStep } from './sync-fixtures.js';
import type { SearchPlan, SearchResults } from './search-fixtures.js';
import type { Engine } from './report.js';

/** What the page says of itself once loaded. */
export interface PageEnvironment {
  userAgent: string;
  crossOriginIsolated: boolean;
  /** The smallest step of performance.now() in the page, in ms. */
  timerStep: number;
}

/** One browser with the bench page open. */
export interface BenchBrowser {
  engine: Engine;
  /** Name and full version, e.g. `Firefox 153.8.0esr`. */
  browser: string;
  version: string;
  /** How it runs and is driven, in words for results.md. */
  driver: string;
  /** Where it keeps the page's IndexedDB, in words for results.md. */
  storage: string;
  environment: PageEnvironment;
  run(method: 'runScenario', plan: ScenarioPlan): Promise<CaseResult[]>;
  run(method: 'runPayload', plan: PayloadPlan): Promise<CaseResult[]>;
  /** One step of the Sync rows (sync-page.ts). */
  run(method: 'runSync', step: SyncStep): Promise<SyncAnswer>;
  /** The Search rows (search-page.ts). */
  run(method: 'runSearch', plan: SearchPlan): Promise<SearchResults>;
  /** The page's diagnosis (profile.ts), for `--profile`. */
  profile(): Promise<unknown>;
  /** Chromium's playwright page, for `--profile`'s CPU profiles (over CDP). */
  chromiumPage?: Page;
  close(): Promise<void>;
}

type Log = (line: string) => void;
type Method = 'runScenario' | 'runPayload' | 'runSync' | 'runSearch';
type Plan = ScenarioPlan | PayloadPlan | SyncStep | SearchPlan;
type JobState = { log: string[]; done: boolean; value?: unknown; error?: string };

/** How long one `next` may wait in the page for news: well under WebDriver's script timeout set below. */
const POLL_MS = 20_000;

/** Runs a page job (page.ts `start`/`next`) to its end, passing its progress lines on. */
async function runJob<T>(start: () => Promise<unknown>, next: () => Promise<JobState>, log: Log): Promise<T> {
  await start();
  for (;;) {
    const state = await next();
    state.log.forEach(log);
    if (state.error !== undefined) throw new Error(`in the page: ${state.error}`);
    if (state.done) return state.value as T;
  }
}

async function launchChromium(url: string, log: Log): Promise<BenchBrowser> {
  // A profile on disk, as a user's browser has. `launch()` would give an off-the-record context, whose IndexedDB
  // lives in memory: there, a write in a memory of 10,000 files cost four times what it costs on disk, and every
  // extra request of a 16 KB write two milliseconds more, which no user's browser shows.
  const profileDir = await mkdtemp(join(tmpdir(), 'idb-memory-bench-'));
  let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined;
  const close = async (): Promise<void> => {
    try {
      await context?.close();
    } finally {
      await rm(profileDir, { recursive: true, force: true });
    }
  };
  try {
    context = await chromium.launchPersistentContext(profileDir, { executablePath: chromiumPath, args: chromiumArgs, headless: true });
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => {
      // The page has no favicon; everything else the page logs is progress.
      if (!message.text().startsWith('Failed to load resource')) log(message.text());
    });
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(url);
    await page.waitForFunction(() => window.bench !== undefined);
    const environment = await page.evaluate(() => ({
      userAgent: window.bench?.userAgent ?? '',
      crossOriginIsolated: window.bench?.crossOriginIsolated ?? false,
      timerStep: window.bench?.timerStep() ?? Number.NaN,
    }));
    // A persistent context has no Browser to ask, and the user agent gives only the major.
    const cdp = await context.newCDPSession(page);
    const { product } = await cdp.send('Browser.getVersion');
    await cdp.detach();
    const version = product.replace(/^[^/]*\//u, '');
    return {
      engine: 'chromium',
      browser: `Chromium ${version}`,
      version,
      driver: 'headless (Debian), playwright-core over CDP',
      storage: 'on disk, a fresh profile',
      environment,
      chromiumPage: page,
      // Chromium's evaluate may wait as long as the page does.
      run: ((method: Method, plan: Plan) =>
        page.evaluate<unknown, readonly [Method, Plan]>(
          ([m, p]) =>
            m === 'runSync'
              ? window.bench?.runSync(p as SyncStep)
              : m === 'runSearch'
                ? window.bench?.runSearch(p as SearchPlan)
              : ((m === 'runScenario' ? window.bench?.runScenario(p as ScenarioPlan) : window.bench?.runPayload(p as PayloadPlan)) ?? []),
          [method, plan],
        )) as BenchBrowser['run'],
      profile: () => page.evaluate(() => window.bench?.profile()),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `153.8.0esr`: over BiDi Firefox says only `153.8.0`, which hides that it is the ESR. */
function firefoxVersion(): string | undefined {
  try {
    const out = execFileSync(firefoxPath, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] });
    return /\d+\.\S+/u.exec(out)?.[0];
  } catch {
    return undefined;
  }
}

/** Off as in a user's Firefox; `BENCH_FIREFOX_ASYNC_STACKS=1` turns it back on, to measure what it costs. */
const ASYNC_STACKS = process.env.BENCH_FIREFOX_ASYNC_STACKS === '1';

async function launchFirefox(url: string, log: Log): Promise<BenchBrowser> {
  // Puppeteer's own temporary profile, on disk (as a user's browser keeps IndexedDB), removed on close.
  // Under WebDriver BiDi the page is a debuggee, so Firefox saves a stack for every promise, await and event handler
  // made (Error().stack shows `async*` frames); a user's Firefox saves none without devtools open. The library makes
  // several times the floor's promises, so that cost was in its rows alone (test/bench/README.md, Engines).
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath,
    headless: true,
    extraPrefsFirefox: { 'javascript.options.asyncstack': ASYNC_STACKS },
  });
  const close = async (): Promise<void> => {
    try {
      await browser.close();
    } catch (error) {
      browser.process()?.kill('SIGKILL');
      throw error;
    }
  };
  try {
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    page.on('pageerror', (error) => console.error(`page error: ${error instanceof Error ? error.message : String(error)}`));
    await page.goto(url);
    await page.waitForFunction(() => window.bench !== undefined);
    const environment = await page.evaluate(() => ({
      userAgent: window.bench?.userAgent ?? '',
      crossOriginIsolated: window.bench?.crossOriginIsolated ?? false,
      timerStep: window.bench?.timerStep() ?? Number.NaN,
    }));
    const version = firefoxVersion() ?? (await browser.version()).replace(/^[^/]*\//u, '');
    const job = <T>(method: Method | 'profile', plan?: Plan): Promise<T> =>
      runJob<T>(
        () => page.evaluate((m, p) => window.bench?.start(m, p), method, plan),
        () => page.evaluate((ms) => window.bench?.next(ms) ?? { log: [], done: true, error: 'no window.bench' }, POLL_MS),
        log,
      );
    return {
      engine: 'firefox',
      browser: `Firefox ${version}`,
      version,
      driver: 'headless (Debian), puppeteer-core over WebDriver BiDi',
      storage: 'on disk, a fresh profile',
      environment,
      // Progress comes back with the job, not over puppeteer's console events or exposeFunction (which lag about
      // a second over BiDi); nothing is timed outside the page either way.
      run: (method: Method, plan: Plan) => job<never>(method, plan),
      profile: () => job<unknown>('profile'),
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** One classic WebDriver call; its `value`, or an error naming the driver's. */
async function webDriver(driver: WebKitDriver, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${driver.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    // Closing must end even if the driver no longer answers: the driver and Xvfb are stopped after it.
    ...(method === 'DELETE' ? { signal: AbortSignal.timeout(15_000) } : {}),
  });
  const { value } = (await response.json()) as { value: unknown };
  if (!response.ok) {
    const failure = value as { error?: string; message?: string } | null;
    throw new Error(`WebKitWebDriver ${method} ${path}: ${failure?.error}: ${failure?.message}`);
  }
  return value;
}

async function launchWebKit(url: string, log: Log): Promise<BenchBrowser> {
  const driver = await startWebKitDriver();
  // Ctrl-C would end Node without the finally blocks; exiting instead runs webkit-driver's exit hook, which kills
  // Xvfb, the driver and the MiniBrowser it started.
  const onSigint = (): never => process.exit(130);
  process.once('SIGINT', onSigint);
  let session: string | undefined;
  const close = async (): Promise<void> => {
    try {
      if (session !== undefined) await webDriver(driver, 'DELETE', `/session/${session}`);
    } finally {
      process.off('SIGINT', onSigint);
      await driver.stop();
    }
  };
  try {
    const created = (await webDriver(driver, 'POST', '/session', { capabilities: { alwaysMatch: webkitCapabilities } })) as {
      sessionId: string;
      capabilities: { browserName?: string; browserVersion?: string };
    };
    session = created.sessionId;
    const base = `/session/${session}`;
    await webDriver(driver, 'POST', `${base}/timeouts`, { script: POLL_MS * 3 });
    const sync = (script: string, args: unknown[] = []): Promise<unknown> => webDriver(driver, 'POST', `${base}/execute/sync`, { script, args });
    await webDriver(driver, 'POST', `${base}/url`, { url });
    const deadline = Date.now() + 60_000;
    while (!(await sync('return window.bench !== undefined'))) {
      if (Date.now() > deadline) throw new Error(`WebKit: window.bench did not appear at ${url} within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const environment = (await sync(
      'return { userAgent: window.bench.userAgent, crossOriginIsolated: window.bench.crossOriginIsolated, timerStep: window.bench.timerStep() }',
    )) as PageEnvironment;
    const job = <T>(method: Method | 'profile', plan?: Plan): Promise<T> =>
      runJob<T>(
        () => sync('window.bench.start(arguments[0], arguments[1])', [method, plan ?? null]),
        async () =>
          (await webDriver(driver, 'POST', `${base}/execute/async`, {
            script:
              'const done = arguments[arguments.length - 1];' +
              "window.bench.next(arguments[0]).then(done, (e) => done({ log: [], done: true, error: String(e) }));",
            args: [POLL_MS],
          })) as JobState,
        log,
      );
    // WebKitWebDriver names the WebKitGTK version (MiniBrowser has none of its own).
    const version = created.capabilities.browserVersion ?? 'unknown';
    return {
      engine: 'webkit',
      browser: `WebKitGTK ${version}`,
      version,
      driver: 'MiniBrowser (Debian) under Xvfb, WebKitWebDriver (classic WebDriver)',
      // MiniBrowser --automation makes an ephemeral website data manager: nothing of IndexedDB reaches the disk.
      storage: "**in memory**: MiniBrowser under automation keeps IndexedDB in an ephemeral session, not in Safari's SQLite store on disk",
      environment,
      run: (method: Method, plan: Plan) => job<never>(method, plan),
      profile: () => job<unknown>('profile'),
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** Starts `engine`'s browser on the bench page at `url`; `close()` ends every process it started. */
export function launchBench(engine: Engine, url: string, log: Log): Promise<BenchBrowser> {
  if (engine === 'firefox') return launchFirefox(url, log);
  if (engine === 'webkit') return launchWebKit(url, log);
  return launchChromium(url, log);
}
