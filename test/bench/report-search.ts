// The Search section of results.md: issue 33's goals judged on each engine's Search rows (search-page.ts), and the
// rows. Pure formatting; no I/O.

import { median } from './fixtures.js';
import type { Goal } from './report.js';
import { percentile } from './search-fixtures.js';
import type { SearchResults, SearchTimes } from './search-fixtures.js';

/** What an engine's record holds of the Search rows (a record from before them holds none). */
export interface SearchRecord {
  browser: string;
  search?: SearchResults;
}

const QUERY_P95_MS = 50;
const WRITE_OVERHEAD = 1.3;
const ms = (value: number): string => (value < 1000 ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : `${(value / 1000).toFixed(2)} s`);
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const row = (rows: readonly SearchTimes[], label: string) => rows.find((found) => found.label === label)?.ms ?? [];

/** The goals on one engine's Search rows. */
export function searchGoals(search: SearchResults): Goal[] {
  const queries = search.rows.filter((found) => found.kind === 'query');
  const all = queries.flatMap((found) => found.ms);
  const worst = Math.max(...queries.map((found) => percentile(found.ms, 95)));
  // A run of the write rows alone (`BENCH_SEARCH=writes`) has no queries to judge.
  const goals: Goal[] =
    queries.length === 0
      ? []
      : [
          {
            goal: `a query over ${search.files.toLocaleString('en-US')} files (${mb(search.textBytes)}) ≤ ${QUERY_P95_MS} ms at the 95th percentile`,
            measured: `p95 ${ms(percentile(all, 95))} over all queries, worst query's p95 ${ms(worst)}`,
            met: worst <= QUERY_P95_MS,
          },
        ];
  for (const command of ['create 10 KB', 'str_replace in 10 KB']) {
    const with_ = median(row(search.rows, `${command}, index present`));
    const without = median(row(search.rows, `${command}, search never used`));
    goals.push({
      goal: `indexing adds ≤ ${Math.round((WRITE_OVERHEAD - 1) * 100)} % to ${command.replace(' in', '')}`,
      measured: `${ms(with_)} against ${ms(without)} (${(with_ / without).toFixed(2)}×)`,
      met: with_ / without <= WRITE_OVERHEAD,
    });
  }
  return goals;
}

/** The Search section, or undefined when no engine has Search rows. */
export function searchSection(records: readonly SearchRecord[]): string | undefined {
  const found = records.filter((record): record is SearchRecord & { search: SearchResults } => record.search !== undefined);
  if (found.length === 0) return undefined;
  const lines = [
    '## Search',
    '',
    'Issue 33: `tool.search` over a memory of seeded English-like prose (a Zipf vocabulary of 20,000 words), written by the ' +
      'library (imports of 1,000 files) and never searched before the first search; the queries are timed once the index ' +
      'holds every file, each run once untimed, then timed in turn. The 10 KB writes run in two memories of the same prose, ' +
      "one never searched and one searched after every write (untimed), in one loop. The index's size is the stores' " +
      'contents summed (keys and values, strings as UTF-8) once it holds every file, less before the first search.',
    '',
  ];
  for (const { browser, search } of found) {
    lines.push(`### ${browser}`, '', '| goal | measured | met |', '|---|---|---|');
    for (const goal of searchGoals(search)) lines.push(`| ${goal.goal} | ${goal.measured} | ${goal.met ? 'yes' : '**no**'} |`);
    lines.push('', '| row | runs | p50 | p95 | files found |', '|---|---|---|---|---|');
    for (const timed of search.rows) {
      const total = Object.entries(search.totals).find(([label]) => timed.label.startsWith(`${label} (`))?.[1];
      lines.push(
        `| ${timed.label} | ${timed.ms.length} | ${ms(percentile(timed.ms, 50))} | ${ms(percentile(timed.ms, 95))} | ${total ?? ''} |`,
      );
    }
    if (search.textBytes === 0) {
      lines.push('');
      continue;
    }
    const index = search.storedAfter - search.storedBefore;
    const usage =
      search.usageBefore !== undefined && search.usageAfter !== undefined
        ? `; \`navigator.storage.estimate()\` usage ${mb(search.usageBefore)} → ${mb(search.usageAfter)}`
        : '';
    lines.push('', `Text ${mb(search.textBytes)}; stores ${mb(search.storedBefore)} → ${mb(search.storedAfter)}, index ${mb(index)} (${((index / search.textBytes) * 100).toFixed(0)} % of the text)${usage}.`, '');
  }
  return lines.join('\n');
}
