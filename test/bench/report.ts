// The benchmark's output: medians and ratios, the goals checked against them, and results.md.
// Pure formatting of the numbers run.ts collected; no I/O.

import type { CaseResult, ScenarioPlan } from './fixtures.js';
import { UNSEEN, median } from './fixtures.js';
import type { SizeReport } from './size.js';

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

export interface RunInfo {
  date: string;
  seconds: number;
  quick: boolean;
  /** The untimed warm-up run before the first row (run.ts `WARM_UP`), absent with `--no-warmup`. */
  warmup?: ScenarioPlan;
  /** Which src/ was measured. */
  library: string;
  node: string;
  cpus: string;
  userAgent: string;
  browserVersion: string;
  crossOriginIsolated: boolean;
}

const find = (results: readonly CaseResult[], command: string, files: number, size = '1 KB'): CaseResult | undefined =>
  results.find((r) => r.command === command && r.files === files && r.size === size);

export const ratio = (r: CaseResult): number => median(r.lib) / median(r.raw);

export function formatMs(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value < 1) return value.toFixed(3);
  if (value < 10) return value.toFixed(2);
  if (value < 100) return value.toFixed(1);
  return Math.round(value).toLocaleString('en-US');
}

const x = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');
const sizeOrder = ['1 KB', '16 KB', '1 MB', UNSEEN];

/** The issue's goals, each checked on this run's medians. */
export function summarize(results: readonly CaseResult[]): Summary {
  const goals: Goal[] = [];
  for (const command of ['create', 'view', 'str_replace', 'insert']) {
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
      measured: `worst ${x(ratio(worst))} (${worst.size}, ${worst.files} files)`,
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
    ? '| command | file size | files in memory | library (ms) | raw floor (ms) | ratio | SDK Node tool (ms) |\n|---|---:|---:|---:|---:|---:|---:|'
    : '| command | files | file size | library (ms) | raw floor (ms) | ratio | SDK Node tool (ms) |\n|---|---:|---:|---:|---:|---:|---:|';
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
    return `| ${[...cells, formatMs(median(r.lib)), formatMs(median(r.raw)), x(ratio(r)), peer].join(' | ')} |`;
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

function sizeSection(sizes: SizeReport): string {
  // `judged` is what the target is held against: for the core what the tool alone loads, for the whole library
  // all of its code, the chunks loaded on first use included.
  const entry = (name: string, e: SizeReport['core'], target: number, judged: number): string =>
    `| ${name} | ${kb(e.minified)} | ${kb(e.gzipped)} | ${kb(withLazy(e))} | ${kb(target)} | **${kb(judged)}** ${judged <= target ? 'met' : 'missed'} | ` +
    `${(['bundle', 'agent', 'scripted'] as const).filter((part) => e.contains[part]).join(', ') || 'none'} | ` +
    `${e.lazy.map((chunk) => `${chunk.modules.join('+')} ${kb(chunk.gzipped)}`).join(', ') || '—'} |`;
  const lines = [
    '## Size',
    '',
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

export function renderMarkdown(run: RunInfo, results: readonly CaseResult[], summary: Summary, sizes?: SizeReport): string {
  const floors = new Map<string, string>();
  for (const r of results) floors.set(r.command, r.floor);
  const n = (group: CaseResult['group']): string => {
    const counts = results.filter((r) => r.group === group).map((r) => r.lib.length);
    return counts.length ? `${Math.min(...counts)}–${Math.max(...counts)}` : '0';
  };
  return [
    '# Benchmark results',
    '',
    `Generated by \`npm run bench${run.quick ? ' -- --quick' : ''}\` on ${run.date} in ${run.seconds} s: ` +
      `library: ${run.library}; Chromium ${run.browserVersion} headless (Debian) on a fresh profile on disk, Node ${run.node}, ${run.cpus}. ` +
      `Cross-origin isolated (5 µs timers): ${run.crossOriginIsolated ? 'yes' : 'no'}.`,
    '',
    'Medians in milliseconds. Each row times the real library (minified by Vite, as an app ships it) and its raw ' +
      'floor — plain IndexedDB on the same database doing the least work the command needs — alternately in one loop ' +
      `(who goes first flips each round, warm-up runs discarded; ${n('single')} runs per single-file row, ${n('bulk')} per folder row). ` +
      (run.warmup
        ? `Before the first row, every single-file command ran ${warmUpWords(run.warmup)}, library and raw, untimed, so that no row is measured on code V8 has yet to optimize (\`-- --no-warmup\` skips it). `
        : 'This run skipped the untimed warm-up (`--no-warmup`): its first rows ran on code V8 had yet to optimize. ') +
      'The SDK column is the official `BetaLocalFilesystemMemoryTool` on a temp folder of the same disk, running the same ' +
      'script in Node afterwards (it fsyncs every write; Chromium commits IndexedDB with relaxed durability).',
    '',
    '`npm run bench -- --quick` runs a fifth of the repetitions (one file of 1 or 16 KB and the 10-file listing keep all theirs: they take milliseconds); `-- --head` benches the committed src/ instead of the ' +
      'working tree; `-- --profile` writes the diagnosis (request and round counts, the library with history or the secret ' +
      'check off, raw replicas of its request pattern, CPU profiles) to profile.json instead of this table.',
    '',
    '## Goals',
    '',
    '| goal | measured | |',
    '|---|---|---|',
    ...summary.goals.map((g) => `| ${g.goal} | ${g.measured}${g.note ? `<br><sub>${g.note}</sub>` : ''} | ${g.met ? 'met' : '**missed**'} |`),
    '',
    '## One file',
    '',
    'The file is an edit target of that size in a memory of that many 1 KB files (in folders of 100). Each run views ' +
      'or edits the same file, so the library reads its body beside its entry (it has seen the file: as when Claude views ' +
      'a file, then edits it); the `1 KB, unseen` rows take a different file of the memory each run, one the library has ' +
      'not seen, whose body it reads once the entry has named it.',
    '',
    table(results.filter((r) => r.group === 'single'), true),
    '',
    '## Folders, export and import',
    '',
    '`list folder`, `rename folder` and `delete folder` act on `/memories/bulk` (all the memory\'s files, two levels); ' +
      '`list 10-file folder` lists `/memories/small` beside them (0 files = alone); in a memory of bulk files, that same listing in a memory of only `/memories/small`, open beside it, is timed in the same loop (library and raw, the order rotating each round), and the goal is judged on that pair. Before each `delete folder` run the ' +
      'folder is written back and the history emptied (untimed). `export` is of a folder of that many files; `import` ' +
      'puts that export into a new empty database each run (the library gets the Blob; the raw floor gets the parsed files).',
    '',
    table(results.filter((r) => r.group === 'bulk'), false),
    '',
    growthTable(results),
    '## What each raw floor does',
    '',
    ...[...floors].map(([command, floor]) => `- \`${command}\`: ${floor}`),
    '',
    sizes ? sizeSection(sizes) : '',
  ].join('\n');
}
