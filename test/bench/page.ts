// The benchmark in the page: builds each memory with raw writes, then times every command on the real
// library and on its raw floor (raw.ts) in one interleaved loop, so the machine's noise hits both alike.
// Driven by run.ts through `window.bench`; it reports progress with console.log (and to a job's log, `start`/`next`)
// and returns plain data.

import type { IndexedDBMemoryTool } from '../../src/index.js';
import {
  BULK_FILE_BYTES,
  FILE_SIZES,
  INSERT_TEXT,
  REPEATED_OLD_STR,
  SMALL_FILES,
  TOKEN_A,
  TOKEN_B,
  UNSEEN,
  editTargetBytes,
  bulkFolders,
  bulkPath,
  makeText,
  median,
} from './fixtures.js';
import type { CaseResult, PayloadPlan, Reps, ScenarioPlan } from './fixtures.js';
import { bulkFiles, measure, measureSides, openMemory } from './harness.js';
import { hotLoop, profile } from './profile.js';
import * as raw from './raw.js';
import type { RawFile } from './raw.js';
import type { SyncStep } from './sync-fixtures.js';
import { runSync } from './sync-page.js';
import type { SearchPlan } from './search-fixtures.js';
import { runSearch as searchRows } from './search-page.js';

const ms = (values: readonly number[]): string => `${median(values).toFixed(3)} ms`;

/**
 * A call started by `start` and collected by `next`, for the drivers that cannot keep one evaluate open for the
 * minutes a memory of 10,000 files takes (WebDriver's script timeout, Node fetch's 5-minute header timeout), nor
 * hear the page's console (classic WebDriver): progress is kept in `log` until `next` hands it over.
 */
interface Job {
  log: string[];
  done: boolean;
  value?: unknown;
  error?: string;
  /** Ends the pending `next` early: the job finished or logged. */
  wake?: () => void;
}

let job: Job | undefined;

/** Progress: to the console, and to the running job's log. */
function say(line: string): void {
  console.log(line);
  if (job && !job.done) {
    job.log.push(line);
    job.wake?.();
  }
}

// An exception in a raw floor's request handler aborts its transaction with only "uncaught exception in an event
// handler"; the exception itself is heard here, and goes to the job's log.
addEventListener('error', (event) => say(`page error: ${event.message}`));

/** Starts `method` as the page's job (one at a time); `next` reports on it. */
function start(
  method: 'runScenario' | 'runPayload' | 'runSync' | 'runSearch' | 'profile',
  plan?: ScenarioPlan | PayloadPlan | SyncStep | SearchPlan,
): void {
  if (job && !job.done) throw new Error('bench: a job is still running');
  const current: Job = { log: [], done: false };
  job = current;
  const run: Promise<unknown> =
    method === 'profile'
      ? profile()
      : method === 'runScenario'
        ? runScenario(plan as ScenarioPlan)
        : method === 'runSync'
          ? runSync(plan as SyncStep)
          : method === 'runSearch'
            ? runSearch(plan as SearchPlan)
          : runPayload(plan as PayloadPlan);
  const finish = (): void => {
    current.done = true;
    current.wake?.();
  };
  run.then(
    (value) => {
      current.value = value;
      finish();
    },
    (error: unknown) => {
      current.error = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
      finish();
    },
  );
}

/**
 * The job's new log lines, and its result once done. Waits up to `waitMs` for either, so the driver asks rarely
 * (each ask is a script run on the page's thread, beside the timed runs).
 */
async function next(waitMs: number): Promise<{ log: string[]; done: boolean; value?: unknown; error?: string }> {
  const current = job;
  if (!current) throw new Error('bench: no job was started');
  if (!current.done && current.log.length === 0) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      current.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    delete current.wake;
  }
  const log = current.log.splice(0);
  return {
    log,
    done: current.done,
    ...(current.value !== undefined ? { value: current.value } : {}),
    ...(current.error !== undefined ? { error: current.error } : {}),
  };
}

/** The smallest step `performance.now()` takes here (ms): 5 µs in a cross-origin isolated Chromium, coarser elsewhere. */
function timerStep(): number {
  let step = Infinity;
  let last = performance.now();
  const end = last + 50;
  while (last < end) {
    const now = performance.now();
    if (now > last) {
      step = Math.min(step, now - last);
      last = now;
    }
  }
  return step;
}

function report(result: CaseResult): CaseResult {
  const ratio = median(result.lib) / median(result.raw);
  say(
    `  ${result.command.padEnd(22)} ${String(result.files).padStart(6)} files ${result.size.padStart(6)}: ` +
      `library ${ms(result.lib)}, raw ${ms(result.raw)} (${ratio.toFixed(2)}x)` +
      (result.alone ? `; alone, same loop: library ${ms(result.alone.lib)}, raw ${ms(result.alone.raw)}` : ''),
  );
  return result;
}

const tag = (label: string): string => label.replace(/\s/gu, '').toLowerCase();

/** How each write's floor keeps its history (raw-history.ts), said in every write row's floor. */
const BOUNDED_HISTORY = '; past the history bounds, its oldest records and their bodies deleted, as in the library (1 readwrite tx)';
/** The floor of `str_replace` and `insert`. */
const EDIT_FLOOR = `get metadata + body, add the new body + put metadata + add a history record${BOUNDED_HISTORY}`;

/** Every case of one memory of `plan.files` bulk files. */
async function runScenario(plan: ScenarioPlan): Promise<CaseResult[]> {
  const name = `bench-${plan.files}-${Date.now()}`;
  const memory = await openMemory(name);
  const { tool, db } = memory;
  const now = Date.now();
  const results: CaseResult[] = [];
  const bulk = '/memories/bulk';
  const bulkRecords = bulkFiles(bulk, plan.files, BULK_FILE_BYTES, now);
  const bulkDirs = plan.files > 0 ? bulkFolders(bulk, plan.files) : [];
  const small = Array.from({ length: SMALL_FILES }, (_, i) => ({
    path: `/memories/small/f${i}.md`,
    content: makeText(BULK_FILE_BYTES, 1_000_000 + i),
    createdAt: now,
    updatedAt: now,
  }));
  const targets = FILE_SIZES.flatMap((size) =>
    ['lib', 'raw'].map((who) => ({
      path: `/memories/work/${who}-${tag(size.label)}.md`,
      content: makeText(editTargetBytes(size.bytes), size.bytes, true),
      createdAt: now,
      updatedAt: now,
    })),
  );
  await raw.seedFiles(db, bulkRecords, bulkDirs, now);
  await raw.seedFiles(db, [...small, ...targets], ['/memories/small', '/memories/work', '/memories/work/new'], now);
  say(`memory of ${plan.files} files ready`);

  const row = (command: string, size: string, floor: string, times: { lib: number[]; raw: number[] }, group: CaseResult['group'] = 'single'): void => {
    if (times.lib.length > 0) results.push(report({ group, command, files: plan.files, size, floor, ...times }));
  };
  // `npm run bench -- --only=…` measures some commands alone; the rest are skipped, not estimated.
  // `delete` deletes what `create` made, so it brings `create` along.
  const wanted = (command: string): boolean =>
    plan.only === undefined || plan.only.includes(command) || (command === 'create' && plan.only.includes('delete'));
  const none = { lib: [], raw: [] };
  const measureIf = (command: string, ...args: Parameters<typeof measure>): ReturnType<typeof measure> =>
    wanted(command) ? measure(...args) : Promise.resolve(none);

  // Listings first, on the memory as it was seeded: the single-file rows below write thousands of bodies (some of
  // a megabyte), and the storage's reads are slower for a while after such churn, which would be counted as the
  // memory's size (in the 10-file listing beside 10,000 files, the raw read was 3× its alone time after them).
  if (plan.list && plan.files > 0 && wanted('list folder')) {
    row('list folder', '1 KB', 'getAll on the parent index, two levels (1 readonly tx)', await measure(
      plan.list,
      { run: () => tool.view({ command: 'view', path: bulk }) },
      { run: () => raw.listFolder(db, bulk) },
    ), 'bulk');
  }
  if (plan.listSmall && wanted('list 10-file folder')) {
    const floor = 'getAll on the parent index (1 readonly tx)';
    const listSmall = { run: () => tool.view({ command: 'view', path: '/memories/small' }) };
    const rawListSmall = { run: () => raw.listFolder(db, '/memories/small') };
    if (plan.files === 0) {
      row('list 10-file folder', '1 KB', floor, await measure(plan.listSmall, listSmall, rawListSmall), 'bulk');
    } else {
      // Beside the bulk, and alone in a memory of only these files, in one loop (see CaseResult.alone).
      const alone = await openMemory(`bench-alone-${plan.files}-${Date.now()}`);
      await raw.seedFiles(alone.db, small, ['/memories/small'], now);
      const times = await measureSides(plan.listSmall, {
        beside: listSmall,
        rawBeside: rawListSmall,
        alone: { run: () => alone.tool.view({ command: 'view', path: '/memories/small' }) },
        rawAlone: { run: () => raw.listFolder(alone.db, '/memories/small') },
      });
      await alone.close();
      results.push(report({
        group: 'bulk', command: 'list 10-file folder', files: plan.files, size: '1 KB', floor,
        lib: times.beside, raw: times.rawBeside, alone: { lib: times.alone, raw: times.rawAlone },
      }));
    }
  }
  for (const size of FILE_SIZES) {
    const reps = plan.single[size.label];
    if (!reps) continue;
    const t = tag(size.label);
    const content = makeText(size.bytes, 7 * size.bytes);
    const libFile = `/memories/work/lib-${t}.md`;
    const rawFile = `/memories/work/raw-${t}.md`;
    const created = (who: string, i: number): string => `/memories/work/new/${who}-${t}-${i}.md`;

    row('create', size.label, `get target + parent, add body + put metadata + add a history record${BOUNDED_HISTORY}`, await measureIf('create',
      reps,
      { run: (i) => tool.create({ command: 'create', path: created('lib', i), file_text: content }) },
      { run: (i) => raw.createFile(db, created('raw', i), content, Date.now()) },
    ));
    row('view', size.label, 'get metadata, get body (1 readonly tx)', await measureIf('view',
      reps,
      { run: () => tool.view({ command: 'view', path: libFile }) },
      { run: () => raw.viewFile(db, rawFile) },
    ));
    const swap = (i: number): [string, string] => (i % 2 === 0 ? [TOKEN_A, TOKEN_B] : [TOKEN_B, TOKEN_A]);
    row('str_replace', size.label, EDIT_FLOOR, await measureIf('str_replace',
      reps,
      {
        run: (i) => {
          const [oldStr, newStr] = swap(i);
          return tool.str_replace({ command: 'str_replace', path: libFile, old_str: oldStr, new_str: newStr });
        },
      },
      {
        run: (i) => {
          const [oldStr, newStr] = swap(i);
          return raw.strReplace(db, rawFile, oldStr, newStr, Date.now());
        },
      },
    ));
    row('insert', size.label, EDIT_FLOOR, await measureIf('insert',
      reps,
      { run: () => tool.insert({ command: 'insert', path: libFile, insert_line: 1, insert_text: INSERT_TEXT }) },
      { run: () => raw.insertLine(db, rawFile, INSERT_TEXT, Date.now()) },
    ));
    row('delete', size.label, `get metadata, delete metadata + add a history record, the body kept for undo${BOUNDED_HISTORY}`, await measureIf('delete',
      reps,
      { run: (i) => tool.delete({ command: 'delete', path: created('lib', i) }) },
      { run: (i) => raw.deleteFile(db, created('raw', i), Date.now()) },
    ));
  }

  // A megabyte of one character: every old_str of it matches about a million times, overlapping. The refusal must cost
  // about what storing the file does (linear), however long old_str is; its floor is the library's own create of it.
  if (plan.repeatedChar && wanted('str_replace repeated')) {
    const text = 'A'.repeat(1024 * 1024);
    const file = '/memories/work/repeated.md';
    await tool.create({ command: 'create', path: file, file_text: text });
    for (const length of REPEATED_OLD_STR) {
      const oldStr = 'A'.repeat(length);
      row('str_replace repeated', `1 MB, old_str ${length}`, "the library's create of that 1 MB file", await measure(
        plan.repeatedChar,
        {
          run: () =>
            tool.str_replace({ command: 'str_replace', path: file, old_str: oldStr, new_str: 'B' }).then(
              () => Promise.reject(new Error('str_replace repeated: a unique match in a file of one character')),
              () => undefined,
            ),
        },
        { run: (i) => tool.create({ command: 'create', path: `/memories/work/new/repeated-${length}-${i}.md`, file_text: text }) },
      ));
    }
  }

  // The rows above view and edit one file again and again, so the library reads its body ahead (read-ahead.ts), as
  // when Claude views a file and then edits it. These take a different 1 KB file of the memory each run, one the
  // library has not seen, as after a reload: there it reads the body only once the entry has named it.
  const unseenReps = plan.single['1 KB'];
  if (unseenReps && plan.files >= 40) {
    const reps: Reps = { warmup: Math.min(unseenReps.warmup, 5), reps: Math.min(unseenReps.reps, Math.floor(plan.files / 4) - 5) };
    const runs = reps.warmup + reps.reps;
    // Each row has files of its own: the inserts must not take the files the views have just shown the library.
    const unseen = (who: 'lib' | 'raw', i: number, rowIndex: 0 | 1): string =>
      bulkPath(bulk, 2 * (rowIndex * runs + i) + (who === 'lib' ? 0 : 1));
    row('view', UNSEEN, 'get metadata, get body (1 readonly tx)', await measureIf('view',
      reps,
      { run: (i) => tool.view({ command: 'view', path: unseen('lib', i, 0) }) },
      { run: (i) => raw.viewFile(db, unseen('raw', i, 0)) },
    ));
    row('insert', UNSEEN, EDIT_FLOOR, await measureIf('insert',
      reps,
      { run: (i) => tool.insert({ command: 'insert', path: unseen('lib', i, 1), insert_line: 1, insert_text: INSERT_TEXT }) },
      { run: (i) => raw.insertLine(db, unseen('raw', i, 1), INSERT_TEXT, Date.now()) },
    ));
  }

  if (plan.renameFolder && plan.files > 0 && wanted('rename folder')) {
    // Each run moves the folder to the other name, whoever runs it; an even number of runs ends where it began.
    let at = bulk;
    const next = (): [string, string] => {
      const from = at;
      at = at === bulk ? `${bulk}-moved` : bulk;
      return [from, at];
    };
    row('rename folder', '1 KB', 'getAll subtree, delete range, put moved metadata (1 readwrite tx)', await measure(
      plan.renameFolder,
      {
        run: () => {
          const [from, to] = next();
          return tool.rename({ command: 'rename', old_path: from, new_path: to });
        },
      },
      {
        run: () => {
          const [from, to] = next();
          return raw.renameFolder(db, from, to);
        },
      },
    ), 'bulk');
  }
  if (plan.exportImport && plan.files > 0 && (wanted('export') || wanted('import'))) {
    results.push(...(await exportImport(memory, bulk, plan.files, '1 KB', plan.exportImport)));
  }
  if (plan.deleteFolder && plan.files > 0 && wanted('delete folder')) {
    // Each run deletes the bulk folder; it is written again (untimed) and the history emptied before the next,
    // so every run deletes the same folder from the same state (history trimming is not part of this row).
    const restore = async (): Promise<void> => {
      if (!(await raw.exists(db, bulk))) await raw.seedFiles(db, bulkFiles(bulk, plan.files, BULK_FILE_BYTES, now), bulkDirs, now);
      await raw.resetHistory(db);
    };
    row('delete folder', '1 KB', 'getAll subtree, delete range + every body (1 readwrite tx)', await measure(
      plan.deleteFolder,
      { before: restore, run: () => tool.delete({ command: 'delete', path: bulk }) },
      { before: restore, run: () => raw.deleteFolder(db, bulk) },
    ), 'bulk');
  }
  await memory.close();
  return results;
}

/**
 * Export of `folder` (the library's bundle vs raw reads + JSON), then import of that bundle into an empty
 * memory (the library's importBundle of the Blob vs raw batched writes of the parsed files).
 */
async function exportImport(
  memory: { tool: IndexedDBMemoryTool; db: IDBDatabase },
  folder: string,
  files: number,
  size: string,
  reps: Reps,
): Promise<CaseResult[]> {
  const { tool, db } = memory;
  const results: CaseResult[] = [];
  const times = await measure(
    reps,
    { run: () => tool.exportBundle({ path: folder }) },
    { run: () => raw.exportFolder(db, folder) },
  );
  results.push(report({ group: 'bulk', command: 'export', files, size, floor: 'getAll subtree + get each body, JSON Blob (1 readonly tx)', ...times }));

  const bundle = await tool.exportBundle({ path: folder, exportedAt: new Date(0) });
  const parsed = JSON.parse(await bundle.text()) as { files: { path: string; content: string; createdAt: string; updatedAt: string }[] };
  const records: RawFile[] = parsed.files.map((file) => ({
    path: file.path,
    content: file.content,
    createdAt: Date.parse(file.createdAt),
    updatedAt: Date.parse(file.updatedAt),
  }));
  const folders = new Set<string>();
  for (const record of records) {
    for (let at = record.path.lastIndexOf('/'); at > '/memories'.length; at = record.path.lastIndexOf('/', at - 1)) {
      folders.add(record.path.slice(0, at));
    }
  }
  // Every run imports into a new, empty database, deleted afterwards (both untimed).
  let target: Awaited<ReturnType<typeof openMemory>> | undefined;
  const fresh = async (): Promise<void> => {
    target = await openMemory(`import-${Date.now()}-${Math.random()}`);
  };
  const drop = async (): Promise<void> => {
    await target?.close();
    target = undefined;
  };
  const stamp = Date.now();
  const imported = await measure(
    reps,
    { before: fresh, after: drop, run: () => (target as NonNullable<typeof target>).tool.importBundle(bundle) },
    { before: fresh, after: drop, run: () => raw.writeFiles((target as NonNullable<typeof target>).db, records, [...folders], stamp) },
  );
  results.push(report({ group: 'bulk', command: 'import', files, size, floor: 'add N bodies + put N metadata + folders (1 readwrite tx)', ...imported }));
  return results;
}

/** Export and import of a folder of bigger files, in a memory holding only it. */
/** The Search rows (search-page.ts), their progress said as every row's is. */
const runSearch = (plan: SearchPlan) => searchRows(plan, say);

async function runPayload(plan: PayloadPlan): Promise<CaseResult[]> {
  const memory = await openMemory(`payload-${plan.files}-${plan.bytes}-${Date.now()}`);
  const now = Date.now();
  const folder = '/memories/payload';
  await raw.seedFiles(memory.db, bulkFiles(folder, plan.files, plan.bytes, now), bulkFolders(folder, plan.files), now);
  say(`memory of ${plan.files} files of ${plan.label} ready`);
  const results = await exportImport(memory, folder, plan.files, plan.label, plan.reps);
  await memory.close();
  return results;
}

export interface BenchApi {
  crossOriginIsolated: boolean;
  userAgent: string;
  runScenario(plan: ScenarioPlan): Promise<CaseResult[]>;
  runPayload(plan: PayloadPlan): Promise<CaseResult[]>;
  runSync: typeof runSync;
  runSearch: typeof runSearch;
  start: typeof start;
  next: typeof next;
  timerStep: typeof timerStep;
  profile: typeof profile;
  hotLoop: typeof hotLoop;
}

declare global {
  interface Window {
    bench?: BenchApi;
  }
}

window.bench = {
  crossOriginIsolated: self.crossOriginIsolated,
  userAgent: navigator.userAgent,
  runScenario,
  runPayload,
  runSync,
  runSearch,
  start,
  next,
  timerStep,
  profile,
  hotLoop,
};
