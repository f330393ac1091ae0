// The Sync section of results.md: issue 25's goals judged on each engine's Sync rows (sync-bench.ts), and the rows.
// Pure formatting; no I/O.

import { median } from './fixtures.js';
import type { Goal } from './report.js';
import { SYNC_BIG_FILES, SYNC_LATENCY_MS, SYNC_WEBDAV_LATENCY_MS } from './sync-fixtures.js';
import type { SyncPass, SyncRow } from './sync-fixtures.js';

/** What an engine's record holds of the Sync rows (a record from before them holds none). */
export interface SyncRecord {
  browser: string;
  sync?: SyncRow[];
  syncErrors?: string[];
}

const REMOTE_NAMES: Record<SyncRow['remote'], string> = { 'memory-store': 'Memory Stores', webdav: 'WebDAV' };
const count = (n: number): string => n.toLocaleString('en-US');
/** `38 ms`, `9.41 s`. */
const time = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`);
const medianMs = (row: SyncRow): number => median(row.passes.map((pass) => pass.ms));

/** Each kind of request a pass made, as a count or, where the passes differ, a range: `20 GET list, 0–20 OPTIONS`. */
export function requestRange(passes: readonly Pick<SyncPass, 'requests'>[]): string {
  const kinds = [...new Set(passes.flatMap((pass) => Object.keys(pass.requests)))].sort();
  return kinds
    .map((kind) => {
      const counts = passes.map((pass) => pass.requests[kind] ?? 0);
      const low = Math.min(...counts);
      const high = Math.max(...counts);
      return `${low === high ? count(low) : `${count(low)}–${count(high)}`} ${kind}`;
    })
    .join(', ');
}

/** The first pull's bound: (files ÷ concurrency) round trips of the remote's delay. */
export const pullBound = (row: SyncRow): number => (row.files / row.concurrency) * row.latencyMs;

/** The big pull's heap goal: a few MB, where holding every text at once would take the files' size and more. */
export const HEAP_GOAL_BYTES = 8 * 2 ** 20;
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** The re-reads of earlier passes' writes (WebDAV on Apache: their tags were still weak), when there were any. */
function rechecks(passes: readonly SyncPass[]): string {
  const most = Math.max(0, ...passes.map((pass) => pass.rechecked ?? 0));
  return most === 0 ? '' : `; re-reads of files an earlier pass wrote (Apache's tag is weak for a second after a write, so a later pass reads them once more to be sure the text is still ours): ${most}`;
}

const changedHere = (pass: SyncPass): number => pass.pulled + pass.pushed + pass.deleted + pass.conflicts;

/** The goals on one engine's rows, each remote apart. */
export function syncGoals(rows: readonly SyncRow[]): Goal[] {
  const goals: Goal[] = [];
  for (const remote of ['memory-store', 'webdav'] as const) {
    const name = REMOTE_NAMES[remote];
    const mine = rows.filter((row) => row.remote === remote && row.passes.length > 0);
    const listingWords = remote === 'webdav' ? 'one PROPFIND a folder' : 'one paged listing';
    const at = (goal: SyncRow['goal']): SyncRow[] => mine.filter((row) => row.goal === goal);
    const timesAt = (found: readonly SyncRow[]): string => found.map((row) => `${time(medianMs(row))} at ${row.latencyMs} ms`).join(', ');

    const unchanged = at('unchanged');
    const first = unchanged[0];
    if (first) {
      const passes = unchanged.flatMap((row) => row.passes);
      const perFile = Math.max(...passes.map((pass) => pass.perFile));
      const met = passes.every((pass) => pass.perFile === 0 && pass.listing === first.listing && changedHere(pass) === 0);
      const where = first.counted === 'counting fetch' ? 'by a counting fetch in the page (preflights unseen)' : "from the server's log";
      goals.push({
        goal:
          `${name}: a pass with nothing changed in ${count(first.files)} files costs ${listingWords} ` +
          `(${count(first.listing)} requests), no per-file request`,
        measured: `${requestRange(passes)}; ${timesAt(unchanged)}`,
        met,
        note: `${count(perFile)} per-file requests at most; counted ${where}`,
      });
    }

    for (const row of at('first pull').filter((found) => found.latencyMs > 0)) {
      const bound = pullBound(row);
      const took = medianMs(row);
      const floor = row.floor ? median(row.floor.ms) : undefined;
      goals.push({
        goal:
          `${name}: the first pull of ${count(row.files)} files, ${row.latencyMs} ms a request, ` +
          `≤ 2 × (${count(row.files)} ÷ ${row.concurrency}) × ${row.latencyMs} ms = ${time(2 * bound)}`,
        measured: `${time(took)} (${(took / bound).toFixed(2)}× the ${time(bound)} of requests alone)`,
        met: took <= 2 * bound,
        note:
          `${requestRange(row.passes)}; ${row.passes.length} pulls, each from a new store` +
          (floor === undefined
            ? ''
            : `; plain fetch of the same files, same preflights (the floor): ${time(floor)}, the pull ${(took / floor).toFixed(2)}× it`),
      });
    }

    // The big pull streams: the page's live heap, sampled after a forced GC through the pull, against what it stored.
    for (const row of at('first pull').filter((found) => found.passes.some((pass) => pass.stored !== undefined))) {
      const heaps = row.passes.flatMap((pass) => (pass.heap ? [pass.heap.growth] : []));
      const stored = Math.max(...row.passes.map((pass) => pass.stored ?? 0));
      const peak = heaps.length > 0 ? Math.max(...heaps) : undefined;
      // Only Chromium lets the bench read the page's heap (over CDP): elsewhere the goal is not judged, not missed.
      if (peak === undefined) continue;
      goals.push({
        goal: `${name}: the first pull of ${count(row.files)} files streams: the page's live heap grows by at most ${mb(HEAP_GOAL_BYTES)}`,
        measured: `+${mb(peak)} at most; storage +${mb(stored)}`,
        met: peak <= HEAP_GOAL_BYTES,
        note:
          'live heap after a forced GC every 250 ms of the pull, over CDP, above its level before; storage: ' +
          "the origin's usage (navigator.storage.estimate) after the pull less before",
      });
    }

    const changed = at('ten changed');
    const firstChanged = changed[0];
    if (firstChanged) {
      const passes = changed.flatMap((row) => row.passes);
      const n = firstChanged.changed ?? 0;
      const met = passes.every(
        (pass) =>
          pass.writes === n &&
          pass.stray === 0 &&
          pass.unwritten === 0 &&
          pass.listing === firstChanged.listing &&
          pass.pushed === n &&
          pass.pulled === 0,
      );
      const each = (field: 'perFile' | 'writes'): string => [...new Set(passes.map((pass) => pass[field]))].join('/');
      goals.push({
        goal: `${name}: ${count(firstChanged.files)} files with ${n} changed here: only those ${n} written (plus the listing)`,
        measured: `${requestRange(passes)}; ${timesAt(changed)}`,
        met,
        note:
          `per-file requests ${each('perFile')}, of them writes ${each('writes')}; about other files: ${Math.max(...passes.map((pass) => pass.stray))}` +
          rechecks(passes),
      });
    }
  }
  return goals;
}

function rowsTable(records: readonly SyncRecord[]): string[] {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const spread = (times: readonly number[]): string[] => [
    String(times.length),
    time(median(times)),
    `${time(Math.min(...times))}–${time(Math.max(...times))}`,
  ];
  const lines = records.flatMap((record) =>
    (record.sync ?? []).flatMap((row) => {
      const reported = row.passes[row.passes.length - 1];
      const start = [record.browser, REMOTE_NAMES[row.remote]];
      const setting = [`${row.latencyMs} ms`, String(row.concurrency)];
      const made = line([
        ...start,
        row.goal,
        ...setting,
        ...spread(row.passes.map((pass) => pass.ms)),
        requestRange(row.passes),
        reported ? `${count(reported.pulled)} / ${count(reported.pushed)} / ${count(reported.deleted)}` : '—',
      ]);
      if (!row.floor) return [made];
      const { floor } = row;
      const floorLine = [...start, `${row.goal}: its floor (plain fetch, same files, concurrency and preflights)`, ...setting, ...spread(floor.ms)];
      return [made, line([...floorLine, requestRange([floor]), '—'])];
    }),
  );
  if (lines.length === 0) return [];
  return [
    '| engine | remote | pass | remote\'s delay | concurrency | passes | median | min–max | requests per pass | pulled / pushed / deleted |',
    '|---|---|---|---:|---:|---:|---:|---:|---|---|',
    ...lines,
  ];
}

/** The Sync section: its method in a paragraph, the goals a column per engine, then every row. */
export function syncSection(records: readonly SyncRecord[]): string {
  const withSync = records.filter((record) => record.sync !== undefined);
  if (withSync.length === 0) return '';
  const without = records.filter((record) => record.sync === undefined).map((record) => record.browser);
  const goals = new Map<string, Map<string, Goal>>();
  for (const record of withSync) {
    for (const goal of syncGoals(record.sync ?? [])) {
      const byEngine = goals.get(goal.goal) ?? new Map<string, Goal>();
      byEngine.set(record.browser, goal);
      goals.set(goal.goal, byEngine);
    }
  }
  const cell = (goal: Goal | undefined): string =>
    goal ? `${goal.measured} ${goal.met ? 'met' : '**missed**'}${goal.note ? `<br><sub>${goal.note}</sub>` : ''}` : '—';
  const errors = withSync.flatMap((record) => (record.syncErrors ?? []).map((error) => `- ${record.browser}: ${error}`));
  return [
    '## Sync',
    '',
    '`createMemorySync(tool, { remote, interval: null })` in the bench page, each `syncNow()` timed there, on a memory of ' +
      '2,000 files of 1 KB in 20 folders of 100, mounted at `/memories`. **Memory Stores**: the loopback server ' +
      '(`test/servers/memory-stores-server.ts`, started by the bench in Node) through the SDK client in the page ' +
      '(`dangerouslyAllowBrowser`, `maxRetries: 0`), its requests counted from the server\'s log, CORS preflights ' +
      `(\`OPTIONS\`) included; each first pull is from a new store, so no preflight is cached from the one before, and is ` +
      'timed in turn with its floor: plain `fetch` of the same 2,000 memories from the page at the same concurrency, with the ' +
      "API's headers (so the same preflights), no SDK and no memory. " +
      `The server waits ${SYNC_LATENCY_MS} ms before every answer in the first pull, and 0 then ${SYNC_LATENCY_MS} ms in the other passes. ` +
      '**WebDAV**: Apache httpd with mod_dav on loopback (`test/servers/apache-webdav.ts`), no delay added, its requests counted ' +
      'by a counting `fetch` given to the remote (a preflight never reaches it). The big first pull is of ' +
      `${count(SYNC_BIG_FILES)} files (100 folders of 100), Memory Stores at ${SYNC_LATENCY_MS} ms and WebDAV through a Node proxy that waits ` +
      `${SYNC_WEBDAV_LATENCY_MS} ms before passing each request (preflights too) to Apache; in Chromium the page's live heap is sampled ` +
      'over CDP through it (a forced GC, then `Runtime.getHeapUsage`, every 250 ms). `ten changed` inserts a line into ten files ' +
      '(one in each of ten folders, other files each pass), untimed, before each pass. Every row but the first pull discards one pass first.',
    '',
    `| goal | ${withSync.map((record) => record.browser).join(' | ')} |`,
    `|---|${withSync.map(() => '---|').join('')}`,
    ...[...goals].map(([name, byEngine]) => `| ${name} | ${withSync.map((record) => cell(byEngine.get(record.browser))).join(' | ')} |`),
    '',
    ...rowsTable(withSync),
    '',
    ...(without.length > 0
      ? [`No Sync rows from ${without.join(' or ')}: their last recorded run has none (a run from before the rows, or a partial one).`, '']
      : []),
    ...(errors.length > 0 ? ['Rows that could not run:', '', ...errors, ''] : []),
  ].join('\n');
}
