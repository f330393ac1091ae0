// `npm run bench`: builds the benchmark page with Vite, serves it cross-origin isolated (fine timers), drives
// Debian's headless Chromium through it, runs the SDK's Node tool on the same script, measures sizes, then
// prints the table and writes test/bench/results.{md,json}. Flags: --quick (fewer runs), --no-peer, --no-size,
// --head (bench the committed src/, not the working tree), --profile (diagnosis instead: profile.json),
// --only=create,str_replace and --files=1000 (a partial run, written to results.{md,json}.tmp).

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import { build, preview } from 'vite';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';
import type { CaseResult, PayloadPlan, Reps, ScenarioPlan } from './fixtures.js';
import { runPeerScenario, peerKey } from './node-peer.js';
import type { PeerTimes } from './node-peer.js';
import { measureSizes } from './size.js';
import type { SizeReport } from './size.js';
import { renderMarkdown, summarize } from './report.js';
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
  /** `--only=create,insert`: just these commands (for working on them; the table is then partial). */
  only?: string[];
  /** `--files=0,1000`: just the memories of these sizes. */
  files?: number[];
}

/**
 * Reps for the full run, scaled down for --quick (at least 3 timed, 1 warm-up), except where a run costs a few
 * milliseconds: one file of 1 or 16 KB, and listing a 10-file folder. Those keep the full count in --quick too
 * (about 20 seconds in all), since theirs are the medians the machine's noise moves most. One file of 1 MB gets 60
 * (about 10 ms a run): with 20, the median of a row moved by 0.2× between runs.
 */
function plans(quick: boolean): { scenarios: ScenarioPlan[]; payloads: PayloadPlan[] } {
  const r = (reps: number, warmup: number): Reps =>
    quick ? { reps: Math.max(3, Math.round(reps / 5)), warmup: Math.max(1, Math.round(warmup / 3)) } : { reps, warmup };
  const cheap = (reps: number, warmup: number): Reps => ({ reps, warmup });
  const single = { '1 KB': cheap(100, 5), '16 KB': cheap(100, 5), '1 MB': r(60, 5) };
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

/** Chromium's full version: a persistent context has no Browser to ask, and the user agent gives only the major. */
async function browserVersion(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { product } = await cdp.send('Browser.getVersion');
    return product.replace(/^[^/]*\//u, '');
  } finally {
    await cdp.detach();
  }
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

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const options: Options = {
    quick: argv.includes('--quick'),
    peer: !argv.includes('--no-peer'),
    size: !argv.includes('--no-size'),
    profile: argv.includes('--profile'),
    head: argv.includes('--head'),
    warmup: !argv.includes('--no-warmup'),
  };
  const list = (flag: string): string[] | undefined =>
    argv.find((arg) => arg.startsWith(`--${flag}=`))?.slice(flag.length + 3).split(',').filter(Boolean);
  const only = list('only')?.map((command) => command.replaceAll('_', ' ').replace('str replace', 'str_replace'));
  const files = list('files')?.map(Number);
  if (only) options.only = only;
  if (files) options.files = files;
  const source = librarySource(options.head);
  console.log(`library: ${source.label}`);
  const started = Date.now();
  const planned = plans(options.quick);
  const scenarios = planned.scenarios
    .filter((plan) => options.files === undefined || options.files.includes(plan.files))
    .map((plan) => (options.only ? { ...plan, only: options.only } : plan));
  const partial = options.only !== undefined || options.files !== undefined;
  // The big-payload export/import rows run in a partial run too when it asks for export or import (and their size).
  const payloads = planned.payloads.filter(
    (plan) =>
      (options.only === undefined || options.only.some((command) => command === 'export' || command === 'import')) &&
      (options.files === undefined || options.files.includes(plan.files)),
  );

  let sizes: SizeReport | undefined;
  if (options.size) {
    console.log('sizes: building the size entries and the demo …');
    sizes = await measureSizes(source.plugins);
  }

  // Unminified for --profile, so the CPU profile names the library's functions.
  const server = await servePage(!options.profile, source);
  // A profile on disk, as a user's browser has. `launch()` would give an off-the-record context, whose IndexedDB
  // lives in memory: there, a write in a memory of 10,000 files cost four times what it costs on disk, and every
  // extra request of a 16 KB write two milliseconds more, which no user's browser shows.
  const profileDir = await mkdtemp(join(tmpdir(), 'idb-memory-bench-'));
  const context = await chromium.launchPersistentContext(profileDir, { executablePath: chromiumPath, args: chromiumArgs, headless: true });
  const results: CaseResult[] = [];
  let environment: { userAgent: string; crossOriginIsolated: boolean; browserVersion: string };
  let profile: unknown;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => {
      // The page has no favicon; everything else the page logs is progress.
      if (!message.text().startsWith('Failed to load resource')) console.log(message.text());
    });
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(server.url);
    await page.waitForFunction(() => window.bench !== undefined);
    environment = {
      ...(await page.evaluate(() => ({
        userAgent: window.bench?.userAgent ?? '',
        crossOriginIsolated: window.bench?.crossOriginIsolated ?? false,
      }))),
      browserVersion: await browserVersion(page),
    };
    console.log(`Chromium ${environment.browserVersion}, cross-origin isolated: ${environment.crossOriginIsolated}`);
    if (options.profile) {
      profile = {
        ...((await page.evaluate(() => window.bench?.profile())) as object),
        cpu: await cpuProfiles(page),
      };
    } else {
      // Untimed, so that the first rows are not measured on code V8 has yet to optimize (the library's many
      // functions take longer to reach their optimized tier than the raw floor's few): every single-file command,
      // library and raw, a few hundred times on a throwaway memory. What the page reports of it is dropped.
      if (options.warmup) {
        console.log('warm-up (not recorded):');
        await page.evaluate((p) => window.bench?.runScenario(p), WARM_UP);
      }
      for (const plan of scenarios) {
        results.push(...(await page.evaluate((p) => window.bench?.runScenario(p) ?? [], plan)));
      }
      for (const plan of payloads) {
        results.push(...(await page.evaluate((p) => window.bench?.runPayload(p) ?? [], plan)));
      }
    }
  } finally {
    await context.close();
    await server.close();
    await rm(profileDir, { recursive: true, force: true });
  }

  if (options.profile) {
    const out = `${here}profile.json`;
    await writeFile(out, JSON.stringify(profile, null, 2) + '\n');
    console.log(JSON.stringify(profile, null, 2));
    console.log(`wrote ${out}`);
    return;
  }

  if (options.peer) {
    console.log('SDK Node tool (BetaLocalFilesystemMemoryTool) on a temp folder:');
    const peer: PeerTimes = new Map();
    for (const plan of scenarios) {
      for (const [key, values] of await runPeerScenario(plan, (line) => console.log(line))) peer.set(key, values);
    }
    for (const result of results) {
      const values = peer.get(peerKey(result.command, result.files, result.size));
      if (values) result.peer = values;
    }
  }

  const run = {
    date: new Date(started).toISOString(),
    seconds: Math.round((Date.now() - started) / 1000),
    quick: options.quick,
    ...(options.warmup ? { warmup: WARM_UP } : {}),
    library: source.label,
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    ...environment,
  };
  const summary = summarize(results);
  const markdown = renderMarkdown(run, results, summary, sizes);
  // A partial run (--only, --files) is for working on a command: printed, never taken for the record.
  const [mdFile, jsonFile] = partial ? ['results.md.tmp', 'results.json.tmp'] : ['results.md', 'results.json'];
  await writeFile(`${here}${mdFile}`, markdown);
  const rounded = results.map((r) => ({ ...r, lib: r.lib.map(round), raw: r.raw.map(round), ...(r.peer ? { peer: r.peer.map(round) } : {}) }));
  // Every run's time is kept (ms, 4 decimals), one row's samples to a line.
  const json = JSON.stringify({ run, summary, sizes, results: rounded }, null, 2).replace(/\[\s+(-?[\d.]+(?:,\s+-?[\d.]+)*)\s+\]/gu, (_, list: string) => `[${list.replace(/\s+/gu, ' ')}]`);
  await writeFile(`${here}${jsonFile}`, json + '\n');
  console.log('\n' + markdown);
  console.log(`wrote ${here}${mdFile} and ${jsonFile} (${run.seconds} s)`);
}
