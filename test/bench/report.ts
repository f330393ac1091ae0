// The benchmark's output: medians and ratios, the goals checked against them, and results.md.
// Pure formatting of the numbers run.ts collected; no I/O.

import type { CaseResult, ScenarioPlan } from './fixtures.js';
import { UNSEEN, median } from './fixtures.js';
import type { SizeReport } from './size.js';
import { syncSection } from './report-sync.js';
import { searchSection } from './report-search.js';
import type { SearchResults } from './search-fixtures.js';
import type { SyncRow } from './sync-fixtures.js';

export interface Goal {
  goal: string;
  /** The measured value the goal is about, e.g. `1.32×`. */
  measured: string;
  met: boolean;
  note?: string;
}

export interface Summary {
  goals: Goal[];
}

/** The browsers the per-command rows run in (engines.ts); `chromium` is the default. */
export const ENGINES = ['chromium', 'firefox', 'webkit'] as const;
export type Engine = (typeof ENGINES)[number];

export interface RunInfo {
  /** Absent in results from before other engines were benched: Chromium. */
  engine?: Engine;
  date: string;
  seconds: number;
  quick: boolean;
  /** The untimed warm-up run before the first row (run.ts `WARM_UP`), absent with `--no-warmup`. */
  warmup?: ScenarioPlan;
  /** Which src/ was measured. */
  library: string;
  node: string;
  cpus: string;
  /** The machine's 1-minute load average over the run, sampled every 10 s; absent in runs from before it was kept. */
  load?: { median: number; max: number };
  userAgent: string;
  /** Name and full version, e.g. `Firefox 153.8.0esr` (engines.ts). */
  browser?: string;
  browserVersion: string;
  /** How the browser ran and was driven, and where it kept IndexedDB, in words. */
  driver?: string;
  storage?: string;
  crossOriginIsolated: boolean;
  /** The smallest step of performance.now() in the page (ms). */
  timerStep?: number;
}

/** One engine's latest recorded run. */
export interface EngineRecord {
  run: RunInfo;
  summary: Summary;
  results: CaseResult[];
  /** The Sync rows (sync-bench.ts); absent in records from before them, and in runs that left them out. */
  sync?: SyncRow[];
  /** The Sync rows' remotes that could not run, and why. */
  syncErrors?: string[];
  /** The Search rows (search-page.ts); absent in records from before them, and in runs that left them out. */
  search?: SearchResults;
}

/** results.json: each engine's latest run (runs of other engines are kept when one is rerun), and the sizes. */
export interface ResultsFile {
  engines: Partial<Record<Engine, EngineRecord>>;
  sizes?: SizeReport;
  /** The run the sizes come from (one that did not measure them keeps the last ones). */
  sizesRun?: { date: string; library: string };
}

/** What Chromium's rows were run on before the run info said so (engines.ts). */
const CHROMIUM_DRIVER = 'headless (Debian), playwright-core over CDP';
const ON_DISK = 'on disk, a fresh profile';

/**
 * Reads results.json, also as written before other engines were benched (`{ run, summary, sizes, results }`,
 * a Chromium run).
 */
export function readResultsFile(json: unknown): ResultsFile {
  const file = json as Partial<ResultsFile> & Partial<EngineRecord> & { sizes?: SizeReport };
  if (file.engines) return file as ResultsFile;
  if (!file.run || !file.results) return { engines: {} };
  const run: RunInfo = {
    ...file.run,
    engine: 'chromium',
    browser: file.run.browser ?? `Chromium ${file.run.browserVersion}`,
    driver: file.run.driver ?? CHROMIUM_DRIVER,
    storage: file.run.storage ?? ON_DISK,
  };
  return {
    engines: { chromium: { run, summary: file.summary ?? summarize(file.results), results: file.results } },
    ...(file.sizes ? { sizes: file.sizes, sizesRun: { date: file.run.date, library: file.run.library } } : {}),
  };
}

const find = (results: readonly CaseResult[], command: string, files: number, size = '1 KB'): CaseResult | undefined =>
  results.find((r) => r.command === command && r.files === files && r.size === size);

/** Each round's library ÷ raw, the two sides of a round timed back to back (harness.ts). */
const rounds = (r: CaseResult): number[] =>
  r.lib.slice(0, r.raw.length).map((lib, i) => lib / (r.raw[i] ?? Number.NaN)).filter(Number.isFinite);

/**
 * A row's ratio: the median of its rounds' ratios, so that a stretch of noise hitting both sides of a round (WebKit
 * runs a 1 MB view at either 5–6 or 10–13 ms, both sides alike) moves the ratio no more than its rounds do; the median
 * time of each side over the median of the other's could fall in different modes. Fewer than 4 rounds: the medians'.
 */
export const ratio = (r: CaseResult): number => {
  const each = rounds(r);
  return each.length >= 4 ? median(each) : median(r.lib) / median(r.raw);
};

export function formatMs(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value < 1) return value.toFixed(3);
  if (value < 10) return value.toFixed(2);
  if (value < 100) return value.toFixed(1);
  return Math.round(value).toLocaleString('en-US');
}

const x = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');

/** The value at fraction `q` of `values` sorted (nearest rank). */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] ?? Number.NaN;
}

/**
 * A row's spread over its runs: the middle half (25th to 75th percentile) of each round's library ÷ raw, the two
 * sides of a round being timed back to back (harness.ts), e.g. `1.21–1.48`.
 */
export function ratioSpread(r: CaseResult): string {
  const each = rounds(r);
  if (each.length < 4) return '';
  return `${quantile(each, 0.25).toFixed(2)}–${quantile(each, 0.75).toFixed(2)}`;
}

/** `1.34×` with its spread over the runs, `1.34× (1.21–1.48)`. */
const xSpread = (r: CaseResult): string => {
  const spread = ratioSpread(r);
  return spread ? `${x(ratio(r))} (${spread})` : x(ratio(r));
};
const sizeOrder = ['1 KB', '16 KB', '64 KB', '1 MB', UNSEEN];

/** The issue's goals, each checked on this run's medians. */
export function summarize(results: readonly CaseResult[]): Summary {
  const goals: Goal[] = [];
  for (const command of ['create', 'view', 'str_replace', 'insert', 'delete']) {
    const rows = results.filter((r) => r.group === 'single' && r.command === command);
    if (rows.length === 0) continue;
    const worst = rows.reduce((a, b) => (ratio(b) > ratio(a) ? b : a));
    const bySize = sizeOrder
      .map((size) => {
        const same = rows.filter((r) => r.size === size);
        return same.length ? `${size}: ${same.map((r) => x(ratio(r))).join(' / ')}` : '';
      })
      .filter(Boolean)
      .join('; ');
    goals.push({
      goal: `${command} of one file ≤ 1.5× raw`,
      measured: `worst ${x(ratio(worst))} (${worst.size}, ${worst.files} files${ratioSpread(worst) ? `; runs ${ratioSpread(worst)}` : ''})`,
      met: ratio(worst) <= 1.5,
      note: `by size, at ${[...new Set(rows.map((r) => r.files))].join(' / ')} files — ${bySize}`,
    });
  }
  for (const row of results.filter((r) => r.command === 'str_replace repeated')) {
    goals.push({ goal: `str_replace on 1 MB of one character, ${row.size.replace('1 MB, ', '')}, ≤ 5× creating that file`, measured: x(ratio(row)), met: ratio(row) <= 5 });
  }
  const list = find(results, 'list folder', 1000);
  if (list) goals.push({ goal: 'listing a folder of 1,000 files ≤ 2× raw', measured: x(ratio(list)), met: ratio(list) <= 2 });
  // Judged on the alone memory timed in the same loop as the 10,000-file one (CaseResult.alone); the 0-file row,
  // measured minutes earlier, is the fallback for results from before that existed.
  const beside = find(results, 'list 10-file folder', 10_000);
  const alone = beside?.alone ?? find(results, 'list 10-file folder', 0);
  if (alone && beside) {
    const growth = median(beside.lib) / median(alone.lib);
    goals.push({
      goal: 'listing a 10-file folder beside 10,000 files ≈ alone (≤ 1.25×)',
      measured: `${x(growth)} (${formatMs(median(beside.lib))} vs ${formatMs(median(alone.lib))} ms${beside.alone ? ', same loop' : ''})`,
      met: growth <= 1.25,
      note: `raw: ${x(median(beside.raw) / median(alone.raw))}`,
    });
  }
  const rename = find(results, 'rename folder', 1000);
  const remove = find(results, 'delete folder', 1000);
  if (rename) {
    goals.push({ goal: 'renaming a folder of 1,000 files ≤ 1.5× one tx moving their metadata', measured: x(ratio(rename)), met: ratio(rename) <= 1.5 });
  }
  if (remove && rename) {
    const vsMove = median(remove.lib) / median(rename.raw);
    goals.push({
      goal: 'deleting a folder of 1,000 files ≤ 1.5× one tx moving their metadata',
      measured: x(vsMove),
      met: vsMove <= 1.5,
      note: `vs the raw delete floor (range + every body deleted): ${x(ratio(remove))}`,
    });
  }
  const imported = find(results, 'import', 10_000);
  if (imported) {
    goals.push({ goal: 'importing 10,000 files ≤ 2× raw batched writes', measured: x(ratio(imported)), met: ratio(imported) <= 2 });
  }
  return { goals };
}

function table(rows: readonly CaseResult[], single: boolean): string {
  const head = single
    ? '| command | file size | files in memory | library (ms) | raw floor (ms) | ratio (middle half of runs) | SDK Node tool (ms) |\n|---|---:|---:|---:|---:|---:|---:|'
    : '| command | files | file size | library (ms) | raw floor (ms) | ratio (middle half of runs) | SDK Node tool (ms) |\n|---|---:|---:|---:|---:|---:|---:|';
  const order = ['create', 'view', 'str_replace', 'insert', 'delete', 'list folder', 'list 10-file folder', 'rename folder', 'delete folder', 'export', 'import'];
  const sorted = [...rows].sort(
    (a, b) =>
      order.indexOf(a.command) - order.indexOf(b.command) ||
      (single ? sizeOrder.indexOf(a.size) - sizeOrder.indexOf(b.size) || a.files - b.files : a.files - b.files || sizeOrder.indexOf(a.size) - sizeOrder.indexOf(b.size)),
  );
  const lines = sorted.map((r) => {
    const peer = r.peer ? formatMs(median(r.peer)) : '—';
    const cells = single
      ? [r.command, r.size, r.files.toLocaleString('en-US')]
      : [r.command, r.files.toLocaleString('en-US'), r.size];
    return `| ${[...cells, formatMs(median(r.lib)), formatMs(median(r.raw)), xSpread(r), peer].join(' | ')} |`;
  });
  return [head, ...lines].join('\n');
}

/** The 10-file listings timed beside an alone memory in the same loop (CaseResult.alone): how each grew. */
function growthTable(rows: readonly CaseResult[]): string {
  const paired = rows.filter((r) => r.alone).sort((a, b) => a.files - b.files);
  if (paired.length === 0) return '';
  const lines = paired.map((r) => {
    const alone = r.alone as NonNullable<CaseResult['alone']>;
    return `| ${[
      r.files.toLocaleString('en-US'),
      formatMs(median(r.lib)), formatMs(median(alone.lib)), x(median(r.lib) / median(alone.lib)),
      formatMs(median(r.raw)), formatMs(median(alone.raw)), x(median(r.raw) / median(alone.raw)),
    ].join(' | ')} |`;
  });
  return [
    'The 10-file listing beside the bulk files and alone (a memory of only those 10 files), in one loop:',
    '',
    '| files beside it | library beside (ms) | library alone (ms) | growth | raw beside (ms) | raw alone (ms) | raw growth |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...lines,
    '',
  ].join('\n');
}

/** "200 times on 1 KB and 16 KB files": what the warm-up plan runs, in words. */
function warmUpWords(plan: ScenarioPlan): string {
  const sizes = Object.entries(plan.single);
  const runs = [...new Set(sizes.map(([, reps]) => reps.warmup + reps.reps))].join(' or ');
  const labels = sizes.map(([label]) => label);
  const last = labels.pop() ?? '';
  return `${runs} times on ${labels.length > 0 ? `${labels.join(', ')} and ${last}` : last} files`;
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/** Gzipped bytes of an entry's eager code plus every chunk it can load later. */
const withLazy = (e: SizeReport['core']): number => e.gzipped + e.lazy.reduce((sum, chunk) => sum + chunk.gzipped, 0);

/** The tool entry alone, up front (issue 23): what every app that uses the package loads. */
const TOOL_ENTRY_TARGET = 16 * 1024;

/** Each package entry point as an app imports it (its peers external), or nothing for results made before them. */
function entriesTable(entries: SizeReport['entries'], app?: SizeReport['app']): string[] {
  if (!entries?.length) return [];
  return [
    'Each entry point as an app imports it (its optional peers external; `idb` and, for bundles, `fflate` included):',
    '',
    '| import | gzipped up front | with lazy chunks | target |',
    '|---|---:|---:|---|',
    ...entries.map((e) => {
      const target =
        e.entry === 'idb-memory-tool'
          ? `${kb(TOOL_ENTRY_TARGET)} up front: ${e.gzipped <= TOOL_ENTRY_TARGET ? 'met' : '**missed**'}`
          : '—';
      return `| \`${e.entry}\` | ${kb(e.gzipped)} | ${kb(withLazy(e))} | ${target} |`;
    }),
    ...appRow(app),
    '',
  ];
}

/** The app's figure (size-app.ts): each file the page loads up front gzipped alone, Vite's preload helper in them. */
function appRow(app: SizeReport['app']): string[] {
  if (!app) return [];
  if ('error' in app) return [`| \`idb-memory-tool\` in a Vite app | build failed: ${app.error} | | |`];
  const all = app.files.reduce((sum, file) => sum + file.gzipped, 0);
  const upFront = app.files.filter((file) => file.upFront).length;
  const met = app.upFrontGzipped <= APP_TARGET ? 'met' : '**missed**';
  return [`| \`idb-memory-tool\` in a Vite app (${upFront} files, each gzipped) | ${kb(app.upFrontGzipped)} | ${kb(all)} | ${kb(APP_TARGET)} up front: ${met} |`];
}

/** The main entry as an app sees it (issue 35). */
const APP_TARGET = 18 * 1024;

function sizeSection(sizes: SizeReport, from?: ResultsFile['sizesRun']): string {
  // `judged` is what the target is held against: for the core what the tool alone loads, for the whole library
  // all of its code, the chunks loaded on first use included.
  const entry = (name: string, e: SizeReport['core'], target: number, judged: number): string =>
    `| ${name} | ${kb(e.minified)} | ${kb(e.gzipped)} | ${kb(withLazy(e))} | ${kb(target)} | **${kb(judged)}** ${judged <= target ? 'met' : 'missed'} | ` +
    `${(['bundle', 'agent', 'scripted'] as const).filter((part) => e.contains[part]).join(', ') || 'none'} | ` +
    `${e.lazy.map((chunk) => `${chunk.modules.join('+').replaceAll('\0', '')} ${kb(chunk.gzipped)}`).join(', ') || '—'} |`;
  const lines = [
    '## Size',
    '',
    ...(from ? [`Measured ${when(from.date)}; library: ${from.library}.`, ''] : []),
    'Built by Vite 8 (rolldown) in library mode, then minified whitespace and all, as the app\'s own build does (library ' +
      'mode leaves ES output\'s whitespace to it), and gzipped (level 9); the SDK is external, idb is included. The core is judged on ' +
      'what it loads up front (the tool alone; undo, history, listing, expiry and bundles are fetched on first use), ' +
      'the whole library on all its code, lazy chunks included.',
    '',
    '| entry | minified (eager) | gzipped (eager) | gzipped with lazy chunks | target | judged | eagerly holds | lazy chunks (gzipped) |',
    '|---|---:|---:|---:|---:|---|---|---|',
    entry('core: `IndexedDBMemoryTool` + `memoryTool`', sizes.core, 8 * 1024, sizes.core.gzipped),
    entry('whole library (`export *`)', sizes.whole, 16 * 1024, withLazy(sizes.whole)),
    '',
    ...entriesTable(sizes.entries, sizes.app),
    `Tree-shaking: the core entry ${sizes.core.contains.bundle || sizes.core.contains.agent || sizes.core.contains.scripted ? '**does** load' : 'loads no'} bundle/agent code eagerly.`,
    '',
    'Modules of the core entry, biggest share first: rendered bytes (after tree-shaking, before minifying) / minified and ' +
      'gzipped alone / **share**: what the gzipped code of all of them loses without it (the rest minified as it was). ' +
      'Alone a module shares no gzip dictionary with the others, so the second figures add up to more than the total and ' +
      'overstate what taking a module out, or loading it later, would save; the shares add up to about the total:',
    '',
    sizes.core.modules.map((m) => `\`${m.id}\` ${kb(m.bytes)} / ${kb(m.gzipped)} / **${kb(m.share)}**`).join(', '),
    '',
  ];
  if ('error' in sizes.demo) {
    lines.push(`Demo: the build failed (${sizes.demo.error}).`);
  } else {
    lines.push(
      `Demo first load (\`vite build\`, entry chunk + its static imports + CSS, gzipped): **${kb(sizes.demo.firstLoadGzipped)}**; ` +
        `all JS and CSS: ${kb(sizes.demo.allGzipped)}.`,
      '',
      '| file | bytes | gzipped | first load |',
      '|---|---:|---:|---|',
      ...sizes.demo.files.map((f) => `| ${f.name} | ${kb(f.bytes)} | ${kb(f.gzipped)} | ${f.firstLoad ? 'yes' : 'lazy'} |`),
    );
  }
  return lines.join('\n') + '\n';
}

/** `2026-12-04 16:07 UTC` */
const when = (iso: string): string => iso.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/u, ' UTC');

const micro = (ms: number): string => (ms < 1 ? `${Math.round(ms * 1000)} µs` : `${formatMs(ms)} ms`);

/** The browser of a record, with its engine's name when the browser's does not say it (MiniBrowser is WebKit). */
const browserOf = (run: RunInfo): string => run.browser ?? `Chromium ${run.browserVersion}`;

/** One engine's part of results.md: how it ran, then its two tables. */
function engineSection(record: EngineRecord): string {
  const { run, results } = record;
  const n = (group: CaseResult['group'], what: string): string => {
    const counts = results.filter((r) => r.group === group).map((r) => r.lib.length);
    return counts.length ? `${Math.min(...counts)}–${Math.max(...counts)} runs per ${what} row. ` : '';
  };
  const flags = [...(run.engine && run.engine !== 'chromium' ? [`--engines=${run.engine}`] : []), ...(run.quick ? ['--quick'] : [])];
  return [
    `## ${browserOf(run)}`,
    '',
    `${run.driver ?? CHROMIUM_DRIVER}. IndexedDB ${run.storage ?? ON_DISK}. ` +
      `\`npm run bench${flags.length ? ` -- ${flags.join(' ')}` : ''}\`, ${when(run.date)}, ${run.seconds} s; library: ${run.library}. ` +
      n('single', 'single-file') + n('bulk', 'folder') +
      (run.warmup
        ? `Warm-up first (untimed): every single-file command ${warmUpWords(run.warmup)}, library and raw.`
        : '**No warm-up** (`--no-warmup`): the first rows ran on code the engine had yet to optimize.'),
    '',
    ...(['single', 'bulk'] as const).flatMap((group) => {
      const rows = results.filter((r) => r.group === group);
      if (rows.length === 0) return [];
      return [group === 'single' ? '### One file' : '### Folders, export and import', '', table(rows, group === 'single'), ''];
    }),
    growthTable(results),
  ].join('\n');
}

/** The goals, a column per engine: each judged against that engine's own raw floor. */
function goalsTable(records: readonly EngineRecord[]): string {
  // In the order of the engine with the most goals: one recorded before a goal existed lacks its row.
  const names: string[] = [];
  const fullest = [...records].sort((a, b) => b.summary.goals.length - a.summary.goals.length);
  for (const record of fullest) for (const goal of record.summary.goals) if (!names.includes(goal.goal)) names.push(goal.goal);
  const cell = (record: EngineRecord, name: string): string => {
    const goal = record.summary.goals.find((g) => g.goal === name);
    if (!goal) return '—';
    return `${goal.measured} ${goal.met ? 'met' : '**missed**'}${goal.note ? `<br><sub>${goal.note}</sub>` : ''}`;
  };
  return [
    `| goal | ${records.map((r) => browserOf(r.run)).join(' | ')} |`,
    `|---|${records.map(() => '---|').join('')}`,
    ...names.map((name) => `| ${name} | ${records.map((r) => cell(r, name)).join(' | ')} |`),
  ].join('\n');
}

export function renderMarkdown(file: ResultsFile): string {
  const records = ENGINES.flatMap((engine) => file.engines[engine] ?? []);
  const missing = ENGINES.filter((engine) => !file.engines[engine]);
  const floors = new Map<string, string>();
  for (const record of records) for (const r of record.results) floors.set(r.command, r.floor);
  const sync = syncSection(
    records.map((record) => ({
      browser: browserOf(record.run),
      ...(record.sync ? { sync: record.sync } : {}),
      ...(record.syncErrors ? { syncErrors: record.syncErrors } : {}),
    })),
  );
  const search = searchSection(records.map((record) => ({ browser: browserOf(record.run), ...(record.search ? { search: record.search } : {}) })));
  const timers = (run: RunInfo): string =>
    (run.timerStep !== undefined ? `${micro(run.timerStep)} steps` : '') +
    (run.crossOriginIsolated ? `${run.timerStep !== undefined ? ', ' : ''}cross-origin isolated` : `${run.timerStep !== undefined ? ', ' : ''}not isolated`);
  return [
    '# Benchmark results',
    '',
    'Each engine\'s latest run of `npm run bench` (`-- --engines=chromium,firefox,webkit`; Chromium alone by default). ' +
      'A run of some engines keeps the others\' rows from their own last run, so read each one\'s date and library.',
    '',
    '| engine | browser | run by | IndexedDB | performance.now() | run |',
    '|---|---|---|---|---|---|',
    ...records.map(({ run }) =>
      `| ${run.engine ?? 'chromium'} | ${browserOf(run)} | ${run.driver ?? CHROMIUM_DRIVER} | ${run.storage ?? ON_DISK} | ${timers(run)} | ` +
        `${when(run.date)}, ${run.quick ? '`--quick`' : 'full'}, ${run.seconds} s; ${run.library}; Node ${run.node}, ${run.cpus}${run.load ? `; load average ${run.load.median} (max ${run.load.max})` : ''} |`,
    ),
    '',
    ...(missing.length > 0 ? [`Not run yet: ${missing.join(', ')} (\`npm run bench -- --engines=${missing.join(',')}\`).`, ''] : []),
    'Medians in milliseconds. Each ratio is the median of its runs\' ratios, each run\'s library and raw timed back to back (the medians\' ratio where a row has fewer than 4 runs); after it, in brackets, the middle half (25th–75th percentile) of those ratios. Each row times the real library (minified by Vite, as an app ships it) and its raw ' +
      'floor — plain IndexedDB on the same database, in the same page of the same browser, doing the least work the command needs — alternately in one loop ' +
      '(who goes first flips each round, warm-up runs discarded), so every ratio is against that engine\'s own floor. ' +
      'Before the first row, every single-file command runs a few hundred times, library and raw, untimed, so that no ' +
      'row is measured on code the engine\'s JIT has yet to optimize (`-- --no-warmup` skips it). ' +
      'The SDK column is the official `BetaLocalFilesystemMemoryTool` on a temp folder of the same disk, running the same ' +
      'script in Node after the browsers (it fsyncs every write; Chromium and Firefox commit IndexedDB with relaxed durability, ' +
      'WebKit under automation keeps it in memory).',
    '',
    '`npm run bench -- --quick` runs a fifth of the repetitions (the rows of one file and the 10-file listing keep all theirs: theirs are the medians noise moves most); `-- --head` benches the committed src/ instead of the ' +
      'working tree; `-- --profile` writes the diagnosis (request and round counts, the library with history or the secret ' +
      'check off, raw replicas of its request pattern, CPU profiles in Chromium) to profile.json (profile.<engine>.json for the others) instead of this table.',
    '',
    '## Goals',
    '',
    'Each engine against its own raw floor.',
    '',
    goalsTable(records),
    '',
    ...(sync ? [sync] : []),
    ...(search ? [search] : []),
    '## The rows',
    '',
    '**One file**: the file is an edit target of that size in a memory of that many 1 KB files (in folders of 100). Each run views ' +
      'or edits the same file, so the library reads its body beside its entry (it has seen the file: as when Claude views ' +
      'a file, then edits it); the `1 KB, unseen` rows take a different file of the memory each run, one the library has ' +
      'not seen, whose body it reads once the entry has named it.',
    '',
    '**Folders, export and import**: `list folder`, `rename folder` and `delete folder` act on `/memories/bulk` (all the memory\'s files, two levels); ' +
      '`list 10-file folder` lists `/memories/small` beside them (0 files = alone); in a memory of bulk files, that same listing in a memory of only `/memories/small`, open beside it, is timed in the same loop (library and raw, the order rotating each round), and the goal is judged on that pair. Before each `delete folder` run the ' +
      'folder is written back and the history emptied (untimed). `export` is of a folder of that many files; `import` ' +
      'puts that export into a new empty database each run (the library gets the Blob; the raw floor gets the parsed files).',
    '',
    ...records.map(engineSection),
    '## What each raw floor does',
    '',
    ...[...floors].map(([command, floor]) => `- \`${command}\`: ${floor}`),
    '',
    file.sizes ? sizeSection(file.sizes, file.sizesRun) : '',
  ].join('\n');
}
