// `npm run bench`: builds the benchmark page with Vite, serves it cross-origin isolated (fine timers), drives
// each engine's browser through it in turn (engines.ts; Chromium alone by default), runs the SDK's Node tool on the
// same script, measures sizes, then prints the table and writes test/bench/results.{md,json}. Flags:
// --engines=chromium,firefox,webkit (or all), --quick (fewer runs), --no-peer, --no-size, --no-warmup, --head (bench
// the committed src/, not the working tree), --profile (diagnosis instead: profile.json, profile.<engine>.json),
// --only=create,str_replace and --files=1000 (a partial run, written to results.{md,json}.tmp; --only=sync runs only
// the Sync rows, --only=search the Search rows), --render (no run: results.md again from results.json).

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build, preview } from 'vite';
import { launchBench } from './engines.js';
import type { CaseResult, PayloadPlan, Reps, ScenarioPlan } from './fixtures.js';
import { median } from './fixtures.js';
import { runPeerScenario, peerKey } from './node-peer.js';
import type { PeerTimes } from './node-peer.js';
import { measureSizes } from './size.js';
import type { SizeReport } from './size.js';
import { ENGINES, readResultsFile, renderMarkdown, summarize } from './report.js';
import type { Engine, EngineRecord, ResultsFile, RunInfo } from './report.js';
import { syncGoals } from './report-sync.js';
import { searchGoals } from './report-search.js';
import { runSyncRows } from './sync-bench.js';
import type { SyncPlan } from './sync-bench.js';
import type { SearchPlan, SearchResults } from './search-fixtures.js';
import { librarySource } from './source.js';
import type { Source } from './source.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const round = (ms: number): number => Math.round(ms * 10_000) / 10_000;

export interface Options {
  quick: boolean;
  peer: boolean;
  size: boolean;
  profile: boolean;
  head: boolean;
  /** Off with `--no-warmup`: the untimed warm-up before the recorded rows ({@link WARM_UP}). */
  warmup: boolean;
  /** `--only=create,insert`: just these commands (for working on them; the table is then partial); `sync`: the Sync rows. */
  only?: string[];
  /** `--files=0,1000`: just the memories of these sizes. */
  files?: number[];
  /** `--engines=firefox,webkit` (or `all`): the browsers, in this order; Chromium alone when absent. */
  engines: Engine[];
  /** `--render`: no run; results.md written again from results.json (after a change to report.ts). */
  render: boolean;
}

/**
 * Reps for the full run, scaled down for --quick (at least 3 timed, 1 warm-up), except for the rows of one file and
 * listing a 10-file folder: they keep the full count in --quick too, since theirs are the medians the machine's noise
 * moves most. One file of 1 MB gets 60 (a round costs 1–30 ms): with 12, a `view` moved between 1.14× and 1.85×
 * from run to run in WebKit, and a `delete`, which prunes in one round in four, had its median wherever those fell.
 */
function plans(quick: boolean): { scenarios: ScenarioPlan[]; payloads: PayloadPlan[]; sync: SyncPlan; search: SearchPlan } {
  const r = (reps: number, warmup: number): Reps =>
    quick ? { reps: Math.max(3, Math.round(reps / 5)), warmup: Math.max(1, Math.round(warmup / 3)) } : { reps, warmup };
  const cheap = (reps: number, warmup: number): Reps => ({ reps, warmup });
  const single = { '1 KB': cheap(100, 5), '16 KB': cheap(100, 5), '64 KB': cheap(100, 5), '1 MB': cheap(60, 5) };
  return {
    scenarios: [
      { files: 0, single: {}, listSmall: cheap(100, 10) },
      { files: 100, single, list: r(100, 10), listSmall: cheap(100, 10), renameFolder: r(50, 4), deleteFolder: r(30, 2), exportImport: r(30, 3), repeatedChar: r(15, 2) },
      { files: 1000, single, list: r(50, 5), listSmall: cheap(100, 10), renameFolder: r(20, 2), deleteFolder: r(12, 2), exportImport: r(10, 2) },
      { files: 10_000, single, list: r(15, 3), listSmall: cheap(100, 10), renameFolder: r(7, 1), deleteFolder: r(5, 1), exportImport: r(5, 1) },
    ],
    payloads: [
      { files: 1000, bytes: 16 * 1024, label: '16 KB', reps: r(5, 1) },
      { files: 100, bytes: 1024 * 1024, label: '1 MB', reps: quick ? { reps: 2, warmup: 1 } : { reps: 3, warmup: 1 } },
    ],
    // A first pull at 20 ms a request takes seconds; the other passes tens of milliseconds to a second.
    // The big pulls (10,000 files) take seconds (Memory Stores) to a minute (WebDAV) each.
    sync: quick ? { pulls: 1, reps: 3, bigPulls: 1 } : { pulls: 3, reps: 5, bigPulls: 2 },
    // 10,000 files of 3 KB (about 30 MB of prose); a search answered by reading every file takes seconds.
    // BENCH_SEARCH=writes: the 10 KB write rows alone, without the 10,000-file memory (for working on them). The
    // write rows take 30 rounds even when quick: a round costs milliseconds, and 10 left a ratio to one slow round.
    search: {
      files: 10_000, bytes: 3000, queryReps: quick ? 5 : 20, writeReps: 30, writeFiles: 1000,
      ...(process.env.BENCH_SEARCH === 'writes' ? { writesOnly: true } : {}),
    },
  };
}

/** The warm-up before the recorded rows: one file of 1 and 16 KB, each command 200 times, in a memory of no other files. */
const WARM_UP: ScenarioPlan = { files: 0, single: { '1 KB': { reps: 200, warmup: 0 }, '16 KB': { reps: 200, warmup: 0 } } };

/** Builds page.html (with the library, minified as an app would ship it) into page.tmp/ and serves it. */
async function servePage(minify: boolean, source: Source): Promise<{ url: string; close(): Promise<void> }> {
  const outDir = `${here}page.tmp`;
  await build({
    configFile: false,
    root: here,
    base: './',
    logLevel: 'warn',
    plugins: source.plugins,
    build: { outDir, emptyOutDir: true, minify, rolldownOptions: { input: `${here}page.html` } },
  });
  const server = await preview({
    configFile: false,
    root: here,
    logLevel: 'warn',
    build: { outDir },
    // Cross-origin isolation gives performance.now() 5 µs steps instead of 100 µs.
    preview: {
      host: '127.0.0.1',
      port: 0,
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
    },
  });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('preview server has no port');
  return {
    url: `http://127.0.0.1:${address.port}/page.html`,
    close: () => server.close(),
  };
}

/**
 * Samples the CPU while the page runs library commands (300 of 1 KB, 40 of 1 MB), and the raw floor's create for
 * comparison; self time per function.
 */
async function cpuProfiles(page: Page): Promise<Record<string, unknown>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  const out: Record<string, unknown> = {};
  for (const command of ['create', 'create-raw', 'str_replace', 'view', 'create-1mb', 'str_replace-1mb'] as const) {
    const runs = command.endsWith('1mb') ? 40 : 300;
    await page.evaluate((c) => window.bench?.hotLoop(c, 10), command);
    await cdp.send('Profiler.start');
    const perRun = await page.evaluate(([c, n]) => window.bench?.hotLoop(c, n) ?? 0, [command, runs] as const);
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map<string, number>();
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const deltas = profile.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, i) => {
      const node = byId.get(id);
      if (!node) return;
      const frame = node.callFrame;
      const file = frame.url.split('/').pop() ?? '';
      const key = frame.functionName === '' ? `(anonymous) ${file}:${frame.lineNumber + 1}` : `${frame.functionName} ${file}:${frame.lineNumber + 1}`;
      self.set(frame.url === '' ? frame.functionName || '(native)' : key, (self.get(frame.url === '' ? frame.functionName || '(native)' : key) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
    });
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([fn, ms]) => `${fn}: ${((ms / total) * 100).toFixed(1)}%`);
    const busy = [...self].filter(([fn]) => fn !== '(idle)' && fn !== '(program)' && fn !== '(garbage collector)').reduce((a, [, ms]) => a + ms, 0);
    out[command] = { msPerRun: Number(perRun.toFixed(3)), jsMsPerRun: Number((busy / runs).toFixed(3)), idleShare: `${(((self.get('(idle)') ?? 0) / total) * 100).toFixed(1)}%`, programShare: `${(((self.get('(program)') ?? 0) / total) * 100).toFixed(1)}%`, top };
  }
  await cdp.detach();
  return out;
}

/** A wrong command line: bench.mjs prints its message alone. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const FLAGS = ['--quick', '--no-peer', '--no-size', '--profile', '--head', '--no-warmup', '--render'];
const VALUED = ['only', 'files', 'engines'];

/** The command line; an unknown flag is an error, so that a typo cannot start ten minutes of the wrong run. */
export function parseArgs(argv: readonly string[]): Options {
  for (const arg of argv) {
    if (FLAGS.includes(arg) || VALUED.some((flag) => arg.startsWith(`--${flag}=`))) continue;
    const name = arg.split('=')[0];
    const valued = VALUED.find((flag) => name === `--${flag}` || name === `--${flag.replace(/s$/u, '')}`);
    throw new UsageError(
      valued
        ? `npm run bench: write --${valued}=… (e.g. --${valued}=${valued === 'engines' ? 'firefox,webkit' : '…'})`
        : `npm run bench: unknown flag ${arg} (known: ${[...FLAGS, ...VALUED.map((flag) => `--${flag}=`)].join(' ')})`,
    );
  }
  const list = (flag: string): string[] | undefined =>
    argv.find((arg) => arg.startsWith(`--${flag}=`))?.slice(flag.length + 3).split(',').filter(Boolean);
  const engines = list('engines')?.flatMap((name) => (name === 'all' ? [...ENGINES] : [name])) ?? ['chromium'];
  const unknown = engines.filter((name) => !(ENGINES as readonly string[]).includes(name));
  if (unknown.length > 0 || engines.length === 0) {
    throw new UsageError(`npm run bench: --engines takes ${ENGINES.join(', ')} or all, comma-separated (got ${unknown.join(', ') || 'none'})`);
  }
  const options: Options = {
    quick: argv.includes('--quick'),
    peer: !argv.includes('--no-peer'),
    size: !argv.includes('--no-size'),
    profile: argv.includes('--profile'),
    head: argv.includes('--head'),
    warmup: !argv.includes('--no-warmup'),
    engines: [...new Set(engines as Engine[])],
    render: argv.includes('--render'),
  };
  const only = list('only')?.map((command) => command.replaceAll('_', ' ').replace('str replace', 'str_replace'));
  const files = list('files')?.map(Number);
  if (only) options.only = only;
  if (files) options.files = files;
  return options;
}

/** results.json as recorded, or none. */
async function readRecord(file: string): Promise<ResultsFile> {
  if (!existsSync(file)) return { engines: {} };
  return readResultsFile(JSON.parse(await readFile(file, 'utf8')));
}

/** Writes results.md and results.json (or, with `tmp`, results.md.tmp and results.json.tmp); returns the markdown. */
async function writeResults(results: ResultsFile, tmp = false): Promise<string> {
  const markdown = renderMarkdown(results);
  const suffix = tmp ? '.tmp' : '';
  await writeFile(`${here}results.md${suffix}`, markdown);
  const engines = Object.fromEntries(
    Object.entries(results.engines).map(([engine, record]) => [
      engine,
      {
        ...record,
        results: record.results.map((r) => ({ ...r, lib: r.lib.map(round), raw: r.raw.map(round), ...(r.peer ? { peer: r.peer.map(round) } : {}) })),
        ...(record.sync ? { sync: record.sync.map((row) => ({ ...row, passes: row.passes.map((pass) => ({ ...pass, ms: round(pass.ms) })) })) } : {}),
      },
    ]),
  );
  // Every run's time is kept (ms, 4 decimals), one row's samples to a line.
  const json = JSON.stringify({ ...results, engines }, null, 2).replace(/\[\s+(-?[\d.]+(?:,\s+-?[\d.]+)*)\s+\]/gu, (_, list: string) => `[${list.replace(/\s+/gu, ' ')}]`);
  await writeFile(`${here}results.json${suffix}`, json + '\n');
  return markdown;
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const options = parseArgs(argv);
  if (options.render) {
    const recorded = await readRecord(`${here}results.json`);
    for (const record of Object.values(recorded.engines)) record.summary = summarize(record.results);
    await writeResults(recorded);
    console.log(`wrote ${here}results.md and results.json from results.json (nothing measured)`);
    return;
  }
  const source = librarySource(options.head);
  console.log(`library: ${source.label}; engines: ${options.engines.join(', ')}`);
  const started = Date.now();
  const planned = plans(options.quick);
  // `--only=sync` runs the Sync rows alone; a partial run of commands (or of memory sizes) leaves them out.
  const only = options.only?.filter((command) => command !== 'sync' && command !== 'search');
  const syncWanted = options.only?.includes('sync') ?? options.files === undefined;
  const searchWanted = options.only?.includes('search') ?? options.files === undefined;
  const scenarios = planned.scenarios
    .filter((plan) => (options.files === undefined || options.files.includes(plan.files)) && only?.length !== 0)
    .map((plan) => (only ? { ...plan, only } : plan));
  const partial = options.only !== undefined || options.files !== undefined;
  // The big-payload export/import rows run in a partial run too when it asks for export or import (and their size).
  const payloads = planned.payloads.filter(
    (plan) =>
      (only === undefined || only.some((command) => command === 'export' || command === 'import')) &&
      (options.files === undefined || options.files.includes(plan.files)),
  );

  let sizes: SizeReport | undefined;
  if (options.size) {
    console.log('sizes: building the size entries and the demo …');
    sizes = await measureSizes(source.plugins);
  }

  // Unminified for --profile, so the CPU profile names the library's functions.
  const server = await servePage(!options.profile, source);
  const records: EngineRecord[] = [];
  const profiles = new Map<Engine, unknown>();
  try {
    // One browser at a time, each closed before the next starts: on 2 cores, two would time each other.
    for (const engine of options.engines) {
      const engineStarted = Date.now();
      // What else the machine was doing: the 1-minute load average every 10 s (the bench itself keeps about one core busy).
      const loads = [loadavg()[0] ?? 0];
      const sampler = setInterval(() => loads.push(loadavg()[0] ?? 0), 10_000);
      console.log(`\n${engine}: starting the browser …`);
      const browser = await launchBench(engine, server.url, (line) => console.log(line));
      const results: CaseResult[] = [];
      let sync: Awaited<ReturnType<typeof runSyncRows>> | undefined;
      let search: SearchResults | undefined;
      const environment = browser.environment;
      try {
        console.log(
          `${browser.browser}, cross-origin isolated: ${environment.crossOriginIsolated}, ` +
            `performance.now() steps: ${(environment.timerStep * 1000).toFixed(1)} µs; IndexedDB ${browser.storage.replaceAll('**', '')}`,
        );
        if (options.profile) {
          // CPU profiles only where CDP gives them.
          const page = browser.chromiumPage;
          profiles.set(engine, { ...((await browser.profile()) as object), ...(page ? { cpu: await cpuProfiles(page) } : {}) });
        } else {
          // Untimed, so that the first rows are not measured on code the JIT has yet to optimize (the library's many
          // functions take longer to reach their optimized tier than the raw floor's few): every single-file command,
          // library and raw, a few hundred times on a throwaway memory. What the page reports of it is dropped.
          if (options.warmup && scenarios.length + payloads.length > 0) {
            console.log('warm-up (not recorded):');
            await browser.run('runScenario', WARM_UP);
          }
          for (const plan of scenarios) results.push(...(await browser.run('runScenario', plan)));
          for (const plan of payloads) results.push(...(await browser.run('runPayload', plan)));
          if (syncWanted) {
            console.log('sync (a memory of 2,000 files; Memory Stores on loopback, then WebDAV on Apache):');
            sync = await runSyncRows(browser, planned.sync, (line) => console.log(line));
          }
          if (searchWanted) search = await browser.run('runSearch', planned.search);
        }
      } finally {
        clearInterval(sampler);
        await browser.close();
      }
      const run: RunInfo = {
        engine,
        date: new Date(engineStarted).toISOString(),
        seconds: Math.round((Date.now() - engineStarted) / 1000),
        quick: options.quick,
        ...(options.warmup ? { warmup: WARM_UP } : {}),
        library: source.label,
        node: process.version,
        cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
        load: { median: Math.round(median(loads) * 100) / 100, max: Math.round(Math.max(...loads) * 100) / 100 },
        userAgent: environment.userAgent,
        browser: browser.browser,
        browserVersion: browser.version,
        driver: browser.driver,
        storage: browser.storage,
        crossOriginIsolated: environment.crossOriginIsolated,
        timerStep: Math.round(environment.timerStep * 1e6) / 1e6,
      };
      records.push({
        run,
        results,
        summary: { goals: [] },
        ...(sync ? { sync: sync.rows, ...(sync.errors.length > 0 ? { syncErrors: sync.errors } : {}) } : {}),
        ...(search ? { search } : {}),
      });
    }
  } finally {
    await server.close();
  }

  if (options.profile) {
    for (const [engine, profile] of profiles) {
      const out = `${here}${engine === 'chromium' ? 'profile.json' : `profile.${engine}.json`}`;
      await writeFile(out, JSON.stringify(profile, null, 2) + '\n');
      console.log(JSON.stringify(profile, null, 2));
      console.log(`wrote ${out}`);
    }
    return;
  }

  if (options.peer) {
    console.log('SDK Node tool (BetaLocalFilesystemMemoryTool) on a temp folder:');
    const peer: PeerTimes = new Map();
    for (const plan of scenarios) {
      for (const [key, values] of await runPeerScenario(plan, (line) => console.log(line))) peer.set(key, values);
    }
    for (const result of records.flatMap((record) => record.results)) {
      const values = peer.get(peerKey(result.command, result.files, result.size));
      if (values) result.peer = values;
    }
  }
  for (const record of records) record.summary = summarize(record.results);

  // A partial run (--only, --files) is for working on a command: printed, never taken for the record. A full run
  // replaces its engines' rows and keeps the other engines' (and the sizes, when it measured none) from results.json.
  const previous = partial ? { engines: {} } : await readRecord(`${here}results.json`);
  const thisRun = { date: new Date(started).toISOString(), library: source.label };
  const file: ResultsFile = {
    engines: { ...previous.engines, ...Object.fromEntries(records.map((record) => [record.run.engine, record])) },
    ...(sizes ? { sizes, sizesRun: thisRun } : previous.sizes ? { sizes: previous.sizes, ...(previous.sizesRun ? { sizesRun: previous.sizesRun } : {}) } : {}),
  };
  const markdown = await writeResults(file, partial);
  console.log('\n' + markdown);
  // A run of the Sync rows alone has none of these goals.
  for (const record of records.filter((found) => found.results.length > 0)) {
    const missed = record.summary.goals.filter((goal) => !goal.met);
    console.log(
      `${record.run.browser}: ${record.summary.goals.length - missed.length} of ${record.summary.goals.length} goals met` +
        (missed.length ? `; missed: ${missed.map((goal) => `${goal.goal} (${goal.measured})`).join('; ')}` : ''),
    );
  }
  for (const record of records.filter((found) => found.sync)) {
    const goals = syncGoals(record.sync ?? []);
    const missed = goals.filter((goal) => !goal.met);
    console.log(
      `${record.run.browser}, sync: ${goals.length - missed.length} of ${goals.length} goals met` +
        (missed.length ? `; missed: ${missed.map((goal) => `${goal.goal} (${goal.measured})`).join('; ')}` : '') +
        (record.syncErrors ? `; not run: ${record.syncErrors.join('; ')}` : ''),
    );
  }
  for (const record of records.filter((found) => found.search)) {
    const goals = record.search ? searchGoals(record.search) : [];
    console.log(`${record.run.browser}, search: ${goals.map((goal) => `${goal.goal}: ${goal.measured}${goal.met ? '' : ' (missed)'}`).join('; ')}`);
  }
  const written = partial ? 'results.md.tmp and results.json.tmp' : 'results.md and results.json';
  console.log(`wrote ${here}${written} (${Math.round((Date.now() - started) / 1000)} s)`);
}
