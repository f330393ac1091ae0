// Seeded random sequences of the five write commands, undos, imports, exports, expiries, forgets and history clears
// on a small shared set of paths, so that they collide: files and folders are created, edited, moved onto and under each other. After every
// step the stores are read directly and held to what the storage model promises (the totals, no orphans, no leaked
// or missing bodies); a refusal or a dry run must have changed nothing; a dry run must report what the import then
// does; every change must reach a subscriber, files and folders; and most changes are undone and redone on the spot,
// which must bring back exactly the memory before and after them (texts, file and folder times). Some runs bound the
// history tightly, some set tight limits, some share the database between two tools (one keeping no history, or its
// own bounds).
//
// A failure names its seed and step and the steps before it; `-t "seed N "` replays it. INVARIANT_SEEDS=n runs
// seeds 1 to n (Node).

import { describe, expect, it, vi } from 'vitest';
import { openDB } from 'idb';
import type { IDBPDatabase } from 'idb';
import { IndexedDBMemoryTool, isMemoryToolError } from '../../src/index.js';
import type { HistoryEntry, HistoryLimits, ImportBundleOptions, ImportReport, MemoryBundle, MemoryChange, MemoryLimits } from '../../src/index.js';
import type { EntryRecord, JournalRecord, MemorySchema } from '../../src/storage/schema.js';
import { engine } from '../helpers/engine.js';
import { freshDbName } from '../helpers/fresh-tool.js';
import { RANDOM_REFUSALS } from '../helpers/random-refusals.js';

/** The paths every command and bundle draws from: few, nested in each other, so that commands collide. */
const PATHS = [
  '/memories/a',
  '/memories/a/b',
  '/memories/a/b/c.md',
  '/memories/a/d.md',
  '/memories/x.md',
  '/memories/y',
  '/memories/y/z.md',
  '/memories/a/b/e',
  '/memories/y/a',
  '/memories/y/a/b',
  '/memories/q/r/s',
  '/memories/a/b/e/f.md',
] as const;
/** The ones named like files: most files go there, so that the folder names stay mostly folders. */
const FILE_PATHS = PATHS.filter((path) => path.endsWith('.md'));
const FOLDER_PATHS = PATHS.filter((path) => !path.endsWith('.md'));

/** What str_replace puts in: nothing, ASCII, two- and four-byte characters, and the halves of a surrogate pair. */
const NEW_STRINGS = ['T', '', 'text', 'zz', 'é😀', '\ud83d', '\ude00'];

const STEPS = 120;
/** A seed takes about 0.4 s in Node and 2 to 4 s in a browser: the default 5 s would fail a slow machine's run, not a bug. */
const SEED_TIMEOUT_MS = 300_000;
/**
 * The seeds: 1 to 24 in Node (about 10 s on fake-indexeddb; INVARIANT_SEEDS=n runs 1 to n). In a browser, on real
 * IndexedDB, a step costs about five times as much (2 s a seed in Chromium), and the 24 would add 50 s to a project
 * that otherwise takes 35: four run there, one of each kind that matters most (small history and tight limits; tight
 * limits and a second tool with no history; a second tool with its own bounds; all of it at once), so that the real
 * IndexedDB still meets every path through the code; Node keeps the width.
 */
const SEEDS: readonly number[] =
  engine === 'node'
    ? Array.from({ length: Number(process.env.INVARIANT_SEEDS ?? 24) }, (_, i) => i + 1)
    : [3, 6, 12, 15];
/**
 * The share of undoable changes undone and redone on the spot. Not all: a round trip leaves its change marked undone
 * (and `undo()` never picks an undo), so the random undos would only ever meet undone changes; the rest are left for
 * them, to be undone later, after other changes.
 */
const ROUND_TRIPS = 0.7;
const START = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
/** The random refusals, and the root's: the random paths here include `/memories` itself. */
const EXPECTED_REFUSALS: ReadonlySet<string> = new Set([...RANDOM_REFUSALS, 'forbidden']);

// ---------------------------------------------------------------- runs

/** How one seed's run is set up; from the seed alone, so that a seed always replays the same run. */
interface RunConfig {
  /** Tool A's history bounds (undefined: the defaults). */
  history?: HistoryLimits;
  /** Both tools' limits: the same, so that the memory never holds more than either allows, and an undo right after a change always fits. */
  limits?: MemoryLimits;
  /** A second tool on the same database, with no history (`false`) or its own bounds. */
  second?: HistoryLimits | false;
}

/** Seeds cycle through every combination of small history, tight limits and a second tool (history off, then bounded). */
function configFor(seed: number): RunConfig {
  const variant = seed % 8;
  const config: RunConfig = {};
  if (variant & 1) config.history = { maxEntries: 4, maxBytes: 1000 };
  if (variant & 2) config.limits = { maxFiles: 4, maxTotalBytes: 60, maxFileBytes: 24 };
  if (variant & 4) config.second = Math.floor(seed / 8) % 2 === 0 ? false : { maxEntries: 3, maxBytes: 650 };
  return config;
}

function describeConfig(config: RunConfig): string {
  const parts = [config.history ? `history ${config.history.maxEntries}/${config.history.maxBytes} B` : 'default history'];
  if (config.limits) parts.push('tight limits');
  if (config.second !== undefined) parts.push(config.second === false ? 'second tool without history' : 'second tool with its own bounds');
  return parts.join(', ');
}

/** A small seeded generator (mulberry32): the same seed gives the same run on every machine. */
class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

// ---------------------------------------------------------------- the stores, read directly

/** The three stores as one transaction sees them. */
interface Stores {
  entries: EntryRecord[];
  bodies: Map<number, string>;
  journal: JournalRecord[];
}

async function readStores(db: IDBPDatabase<MemorySchema>): Promise<Stores> {
  const tx = db.transaction(['entries', 'bodies', 'journal'], 'readonly');
  const bodies = tx.objectStore('bodies');
  const [entries, keys, texts, journal] = await Promise.all([
    tx.objectStore('entries').getAll(),
    bodies.getAllKeys(),
    bodies.getAll(),
    tx.objectStore('journal').getAll(),
  ]);
  return { entries, bodies: new Map(keys.map((key, i) => [key, texts[i] ?? ''])), journal };
}

/** Everything the stores hold, access times and the journal included: a refusal must leave this as it was. */
function fingerprint(stores: Stores): string {
  return JSON.stringify([stores.entries, [...stores.bodies], stores.journal]);
}

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;
const within = (path: string, folder: string): boolean => path === folder || path.startsWith(folder + '/');
const parentOf = (path: string): string => path.slice(0, path.lastIndexOf('/'));
/** The folders above `path`, below the root. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let at = path.indexOf('/', '/memories/'.length); at !== -1; at = path.indexOf('/', at + 1)) out.push(path.slice(0, at));
  return out;
}

/** Every storage invariant the stores break, as sentences (none: all hold). */
function storageProblems({ entries, bodies, journal }: Stores): string[] {
  const out: string[] = [];
  const byPath = new Map(entries.map((entry) => [entry.path, entry]));
  const live = new Map<number, string>();
  let bytes = 0;
  let files = 0;
  for (const entry of entries) {
    if (entry.parent !== parentOf(entry.path)) out.push(`${entry.path} names ${entry.parent} as its parent`);
    if (entry.parent !== '/memories' && byPath.get(entry.parent)?.kind !== 'folder') out.push(`orphan: ${entry.path} has no folder ${entry.parent}`);
    if (entry.kind !== 'file') continue;
    files++;
    bytes += entry.size;
    if (entry.bodyId === undefined) {
      out.push(`file ${entry.path} has no body id`);
      continue;
    }
    const twin = live.get(entry.bodyId);
    if (twin !== undefined) out.push(`body ${entry.bodyId} is both ${twin} and ${entry.path}`);
    live.set(entry.bodyId, entry.path);
    const body = bodies.get(entry.bodyId);
    if (body === undefined) out.push(`body ${entry.bodyId} of ${entry.path} is missing`);
    else if (utf8Bytes(body) !== entry.size) out.push(`${entry.path} says ${entry.size} bytes, its body has ${utf8Bytes(body)}`);
  }
  // The newest record carries the current totals (schema.ts Totals), as [seq, bytes, files, nextBody, journalBytes, journalEntries].
  const [, totalBytes, totalFiles, nextBody, journalBytes, journalEntries] = journal.at(-1)?.totals ?? [0, 0, 0, 1, 0, 0];
  if (totalBytes !== bytes) out.push(`totals say ${totalBytes} bytes, the files hold ${bytes}`);
  if (totalFiles !== files) out.push(`totals say ${totalFiles} files, there are ${files}`);
  const lastBody = Math.max(0, ...bodies.keys());
  if (nextBody <= lastBody) out.push(`next body id ${nextBody} is not past the last body ${lastBody}`);
  const changes = journal.filter((record) => record.hidden !== true);
  if (journalEntries !== changes.length) out.push(`totals say ${journalEntries} journal entries, there are ${changes.length}`);
  const kept = changes.reduce((sum, record) => sum + record.bytes, 0);
  if (journalBytes !== kept) out.push(`totals say the journal keeps ${journalBytes} bytes, its entries say ${kept}`);
  const retained = new Set(journal.flatMap((record) => record.retains));
  for (const id of bodies.keys()) if (!live.has(id) && !retained.has(id)) out.push(`body ${id} leaked: no file and no journal entry holds it`);
  for (const id of retained) if (!bodies.has(id)) out.push(`body ${id} is retained by the journal but deleted`);
  return out;
}

// ---------------------------------------------------------------- the memory as a user sees it

/** Each path's kind, text and times: what an undo must bring back exactly. Access times are not part of it. */
type MemoryState = Map<string, string>;

const fileLine = (text: string | null, createdAt: number, updatedAt: number): string => `file ${JSON.stringify(text)} created ${createdAt} updated ${updatedAt}`;
const folderLine = (createdAt: number, updatedAt: number): string => `folder created ${createdAt} updated ${updatedAt}`;
const isFile = (line: string | undefined): boolean => line?.startsWith('file ') === true;
const isFolder = (line: string | undefined): boolean => line?.startsWith('folder ') === true;

function memoryState({ entries, bodies }: Stores): MemoryState {
  return new Map(
    entries.map((entry) => [
      entry.path,
      entry.kind === 'folder'
        ? folderLine(entry.createdAt, entry.updatedAt)
        : fileLine(bodies.get(entry.bodyId ?? -1) ?? null, entry.createdAt, entry.updatedAt),
    ]),
  );
}

/** How `actual` differs from `expected`, path by path (none: equal). */
function stateDiff(expected: MemoryState, actual: MemoryState): string[] {
  const out: string[] = [];
  for (const [path, was] of expected) {
    const is = actual.get(path);
    if (is !== was) out.push(`${path}: expected ${was}, found ${is ?? 'nothing'}`);
  }
  for (const [path, is] of actual) if (!expected.has(path)) out.push(`${path}: expected nothing, found ${is}`);
  return out;
}

/** What a listener knows of a path it was told was written (a file's new text, a folder made): only that it is there. */
const WRITTEN = 'written';

/**
 * What a listener that keeps its own tree from the events (as the demo's does) shows after `changes`, from `before`:
 * a write makes the path and the folders above it, a delete takes away the path and all below, a rename moves them.
 */
function replayChanges(before: MemoryState, changes: readonly MemoryChange[]): MemoryState {
  const tree = new Map(before);
  const make = (path: string): void => {
    for (const folder of ancestors(path)) if (!tree.has(folder)) tree.set(folder, WRITTEN);
  };
  for (const change of changes) {
    if (change.type === 'write') {
      tree.set(change.path, WRITTEN);
      make(change.path);
    } else if (change.type === 'delete') {
      for (const path of [...tree.keys()]) if (within(path, change.path)) tree.delete(path);
    } else if (change.type === 'forget' || change.type === 'history-cleared') {
      // The history only: a forgotten path that was there is announced as a delete first.
    } else {
      const moved = [...tree].filter(([path]) => within(path, change.from));
      for (const [path] of moved) tree.delete(path);
      for (const [path, what] of moved) tree.set(change.path + path.slice(change.from.length), what);
      make(change.path);
    }
  }
  return tree;
}

/** Where a listener's tree, kept from `heard`, no longer matches the memory: a change not announced, or announced wrong. */
function announcementProblems(before: MemoryState, heard: readonly MemoryChange[], after: MemoryState): string[] {
  const tree = replayChanges(before, heard);
  const out: string[] = [];
  for (const [path, is] of after) {
    const shown = tree.get(path);
    if (shown === undefined) out.push(`${path} is there, but the events leave it out`);
    else if (shown !== WRITTEN && shown !== is) out.push(`${path} changed unannounced (${shown} → ${is})`);
  }
  for (const path of tree.keys()) if (!after.has(path)) out.push(`${path} is gone, but the events leave it in`);
  if (out.length > 0) out.push(`heard: ${JSON.stringify(heard)}`);
  return out;
}

// ---------------------------------------------------------------- bundles

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A random bundle of the shared paths (sometimes files where folders are, or below files: refused then). */
async function randomBundle(random: Random): Promise<MemoryBundle> {
  const files = [];
  for (const path of PATHS) {
    if (!random.chance(path.endsWith('.md') ? 0.35 : 0.05)) continue;
    const content = `imp${random.int(10)}`;
    const time = (): string => new Date(Date.UTC(2024, 0, 1) + random.int(10_000) * MINUTE).toISOString();
    files.push({ path, content, createdAt: time(), updatedAt: time(), sha256: await sha256(content) });
  }
  const folders = FOLDER_PATHS.filter(() => random.chance(0.12));
  return { format: 'claude-memory-bundle', version: 1, exportedAt: new Date(START).toISOString(), files, folders };
}

/** What an export of the whole memory must hold: every file with its text, times and hash, and the empty folders. */
async function expectedExport(stores: Stores): Promise<Pick<MemoryBundle, 'files' | 'folders'>> {
  const state = [...stores.entries].sort((a, b) => (a.path < b.path ? -1 : 1));
  const parents = new Set(state.map((entry) => entry.parent));
  const files = [];
  for (const entry of state) {
    if (entry.kind !== 'file') continue;
    const content = stores.bodies.get(entry.bodyId ?? -1) ?? '';
    const createdAt = new Date(entry.createdAt).toISOString();
    const updatedAt = new Date(entry.updatedAt).toISOString();
    files.push({ path: entry.path, content, createdAt, updatedAt, sha256: await sha256(content) });
  }
  const folders = state.filter((entry) => entry.kind === 'folder' && !parents.has(entry.path)).map((entry) => entry.path);
  return { files, folders };
}

/** Where the memory after an import disagrees with its report: each path must be as the report says it was left. */
function importProblems(report: ImportReport, bundle: MemoryBundle, before: MemoryState, after: MemoryState): string[] {
  const out: string[] = [];
  const fromBundle = new Map(bundle.files.map((file) => [file.path, fileLine(file.content, Date.parse(file.createdAt), Date.parse(file.updatedAt))]));
  for (const path of [...report.addedPaths, ...report.replacedPaths]) {
    if (after.get(path) !== fromBundle.get(path)) out.push(`import wrote ${path}, which holds ${after.get(path) ?? 'nothing'}`);
  }
  for (const path of report.skippedPaths) if (after.get(path) !== before.get(path)) out.push(`import skipped ${path}, which changed`);
  for (const path of report.unchangedPaths) {
    if (after.get(path) !== before.get(path)) out.push(`import left ${path} unchanged, which changed`);
  }
  // A file removed may come back as a folder the bundle needs, and a folder removed as a file of the bundle.
  for (const path of report.removedPaths) if (isFile(after.get(path))) out.push(`import removed file ${path}, which is a file`);
  for (const path of report.removedFolderPaths) if (isFolder(after.get(path))) out.push(`import removed folder ${path}, which is a folder`);
  for (const path of report.folderPaths) if (!isFolder(after.get(path))) out.push(`import made folder ${path}, which is not one`);
  return out;
}

// ---------------------------------------------------------------- one run

/** One of the (one or two) tools of a run. */
interface Actor {
  name: 'A' | 'B';
  tool: IndexedDBMemoryTool;
  keepsHistory: boolean;
}

/** What a step did, for the checks after it. */
interface Outcome {
  /** The step as the log shows it. */
  what: string;
  /** How it went: `ok`, the refusal, the report. */
  result: string;
  /** The stores must be as before (a refusal, a dry run, an export, an expiry of nothing). */
  unchanged: boolean;
  /** What the step found wrong itself (a dry run that disagrees with its import, a wrong export). */
  problems: string[];
  /** A change that is not journaled on purpose (forgetting, clearing the history). */
  unjournaled?: true;
}

/** A refusal as the log shows it, or a problem when the failure is not a refusal a random command may meet. */
function refusal(error: unknown): { text: string; problem?: string } {
  if (isMemoryToolError(error)) {
    const text = `refused (${error.code}): ${error.message.slice(0, 90)}`;
    return EXPECTED_REFUSALS.has(error.code) ? { text } : { text, problem: `unexpected failure ${text}` };
  }
  const text = `threw ${String(error)}`;
  return { text, problem: text };
}

/** An import's report, or its refusal (code and message), so that a dry run and the import can be compared. */
async function tryImport(tool: IndexedDBMemoryTool, text: string, options: ImportBundleOptions): Promise<ImportReport | { refused: unknown }> {
  try {
    return await tool.importBundle(text, options);
  } catch (error) {
    return { refused: error };
  }
}

const describeImport = (result: ImportReport | { refused: unknown }): string =>
  'refused' in result
    ? refusal(result.refused).text
    : JSON.stringify({ ...result, dryRun: undefined }).slice(0, 300);

/**
 * One seed's run: the tools, a connection of its own to read the stores, the events heard, and the log that a
 * failure message shows.
 */
class SeedRun {
  readonly seed: number;
  readonly random: Random;
  readonly actors: Actor[];
  readonly db: IDBPDatabase<MemorySchema>;
  readonly log: string[] = [];
  /** The changes the tools announced to their own subscribers (`local`) since the last check. */
  readonly heard: MemoryChange[] = [];
  /** The last export, imported again now and then. */
  lastExport: MemoryBundle | undefined;

  private constructor(seed: number, actors: Actor[], db: IDBPDatabase<MemorySchema>) {
    this.seed = seed;
    this.random = new Random(seed);
    this.actors = actors;
    this.db = db;
    for (const { tool } of actors) {
      // Remote events are the other tool's, which its own subscription hears as local: counted once.
      tool.subscribe((event) => {
        if (event.source === 'local') this.heard.push(...event.changes);
      });
    }
  }

  static async open(seed: number, config: RunConfig): Promise<SeedRun> {
    const dbName = freshDbName(`invariants-${seed}`);
    const limits = config.limits ? { limits: config.limits } : {};
    const first = await IndexedDBMemoryTool.init({ dbName, ...limits, ...(config.history ? { history: config.history } : {}) });
    const actors: Actor[] = [{ name: 'A', tool: first, keepsHistory: true }];
    if (config.second !== undefined) {
      const second = await IndexedDBMemoryTool.init({ dbName, ...limits, history: config.second });
      actors.push({ name: 'B', tool: second, keepsHistory: config.second !== false });
    }
    return new SeedRun(seed, actors, await openDB<MemorySchema>(dbName));
  }

  close(): void {
    for (const { tool } of this.actors) tool.close();
    this.db.close();
  }

  read(): Promise<Stores> {
    return readStores(this.db);
  }

  /** Fails the test, naming the seed, the step and what broke, with the steps before it. */
  fail(step: number, what: string, problems: readonly string[]): never {
    const lines = [
      `seed ${this.seed}, step ${step}: ${what}`,
      ...problems.map((problem) => `  ${problem}`),
      'the steps before it:',
      ...this.log.slice(-15).map((line) => `  ${line}`),
      `replay: npx vitest run --project ${engine} test/tool/invariants.test.ts -t "seed ${this.seed} "`,
    ];
    return expect.fail(lines.join('\n'));
  }

  /** One random step by a random tool; then every check, and the undo round trip of what it changed. */
  async step(step: number): Promise<void> {
    vi.setSystemTime(START + step * MINUTE);
    const actor = this.actors.length > 1 && this.random.chance(0.5) ? (this.actors[1] as Actor) : (this.actors[0] as Actor);
    const before = await this.read();
    this.heard.length = 0;
    const outcome = await this.perform(actor, before);
    const label = `[${actor.name}] ${outcome.what}`;
    this.log.push(`${step} ${label}: ${outcome.result}`);
    const after = await this.read();
    const problems = [...outcome.problems, ...storageProblems(after)];
    if (outcome.unchanged) {
      if (fingerprint(after) !== fingerprint(before)) problems.push('changed the stores, though it should have changed nothing');
      if (this.heard.length > 0) problems.push(`announced ${JSON.stringify(this.heard)}, though nothing changed`);
    } else {
      problems.push(...announcementProblems(memoryState(before), this.heard, memoryState(after)));
    }
    const entry = this.newEntry(before, after);
    if (!outcome.unchanged && !outcome.unjournaled && actor.keepsHistory && !entry) problems.push('a change by a tool that keeps history left no journal entry');
    if (outcome.unjournaled && entry) problems.push(`it journaled entry ${entry.id ?? '?'}, though it is never journaled`);
    if (!actor.keepsHistory && entry) problems.push(`a tool with no history journaled entry ${entry.id ?? '?'}`);
    if (problems.length > 0) this.fail(step, `${label}: ${outcome.result}`, problems);
    if (!outcome.unchanged && entry?.undoable === true && this.random.chance(ROUND_TRIPS)) {
      await this.roundTrip(step, label, actor, entry, before, after);
    }
  }

  /** The journal entry a step added (there is at most one: the steps run one at a time). */
  newEntry(before: Stores, after: Stores): JournalRecord | undefined {
    const last = Math.max(0, ...before.journal.map((record) => record.id ?? 0));
    return after.journal.filter((record) => record.hidden !== true && (record.id ?? 0) > last).at(-1);
  }

  /**
   * Undoes the change just made, which must bring back the memory before it exactly (texts, file and folder times),
   * then undoes that undo, which must bring back the memory after it; both checked and announced like any change.
   */
  async roundTrip(step: number, label: string, actor: Actor, entry: JournalRecord, before: Stores, after: Stores): Promise<void> {
    const wrong = await this.diffProblems(actor, entry, before, after);
    if (wrong.length > 0) this.fail(step, label, wrong);
    const undo = await this.checkedUndo(step, `undo of ${label}`, actor, entry.id ?? 0, memoryState(before));
    if (undo.undoable) await this.checkedUndo(step, `undo of the undo of ${label}`, actor, undo.id, memoryState(after));
  }

  /** Where `change(id)`, the history's diff view of a change just made, does not show each file's text before and after it. */
  async diffProblems(actor: Actor, entry: JournalRecord, before: Stores, after: Stores): Promise<string[]> {
    const detail = await actor.tool.change(entry.id ?? 0);
    const fileOps = entry.ops.flatMap((op) => (op.type === 'file' ? [op] : []));
    return fileOps.flatMap((op, i) => {
      const shown = detail?.files[i];
      const was = op.before ? (before.bodies.get(op.before.bodyId) ?? null) : null;
      const is = op.after ? (after.bodies.get(op.after.bodyId) ?? null) : null;
      if (shown?.path === op.path && shown.before === was && shown.after === is) return [];
      return [`change(${entry.id ?? '?'}) shows ${JSON.stringify(shown)} for ${op.path}, not ${JSON.stringify({ before: was, after: is })}`];
    });
  }

  /** An undo that must succeed and leave `expected`, the stores whole, and its changes announced. */
  async checkedUndo(step: number, label: string, actor: Actor, id: number, expected: MemoryState): Promise<HistoryEntry> {
    const before = await this.read();
    this.heard.length = 0;
    let undone: HistoryEntry;
    try {
      undone = await actor.tool.undo(id);
    } catch (error) {
      return this.fail(step, label, [`was ${refusal(error).text}`]);
    }
    this.log.push(`${step}   ${label}: ok`);
    const after = await this.read();
    const problems = [...storageProblems(after), ...stateDiff(expected, memoryState(after))];
    problems.push(...announcementProblems(memoryState(before), this.heard, memoryState(after)));
    if (undone.id === 0) problems.push('the undo was not journaled, though the tool keeps history');
    if (problems.length > 0) this.fail(step, label, problems);
    return undone;
  }

  /** Runs one random step; its refusals are outcomes, not failures. */
  async perform(actor: Actor, before: Stores): Promise<Outcome> {
    const files = before.entries.filter((entry) => entry.kind === 'file');
    const roll = this.random.next();
    if (roll < 0.18) return this.command(actor, { command: 'create', path: this.path(files, FILE_PATHS), file_text: this.text() });
    if (roll < 0.28) return this.command(actor, this.strReplace(files, before.bodies));
    if (roll < 0.35) {
      return this.command(actor, { command: 'insert', path: this.path(files, FILE_PATHS), insert_line: this.random.pick([0, 1, 3]), insert_text: 'l' });
    }
    if (roll < 0.45) return this.command(actor, { command: 'delete', path: this.random.chance(0.03) ? '/memories' : this.path(before.entries, PATHS) });
    if (roll < 0.6) return this.command(actor, { command: 'rename', old_path: this.path(before.entries, PATHS), new_path: this.freePath(before.entries) });
    if (roll < 0.75) return this.undo(actor);
    if (roll < 0.87) return this.importStep(actor, before);
    if (roll < 0.92) return this.exportStep(actor, before);
    if (roll < 0.97) return this.expireStep(actor, before);
    if (roll < 0.995) return this.forgetStep(actor, before);
    return this.clearStep(actor, before);
  }

  /**
   * Half the time a path the memory holds (of `held`), otherwise one of `names` (there or not): commands mostly act,
   * and still meet missing paths, folders where files go and files where folders go.
   */
  path(held: readonly EntryRecord[], names: readonly string[]): string {
    if (held.length > 0 && this.random.chance(0.5)) return this.random.pick(held).path;
    return this.random.chance(0.85) ? this.random.pick(names) : this.random.pick(PATHS);
  }

  /** Mostly one of the paths the memory does not hold (a rename's destination), otherwise any. */
  freePath(held: readonly EntryRecord[]): string {
    const free = PATHS.filter((path) => !held.some((entry) => entry.path === path));
    return free.length > 0 && this.random.chance(0.7) ? this.random.pick(free) : this.random.pick(PATHS);
  }

  /** A short text, now and then a longer one that tight limits refuse. */
  text(): string {
    return this.random.chance(0.15) ? `text${'x'.repeat(10 + this.random.int(20))}` : `text${this.random.int(100)}`;
  }

  /**
   * Mostly a piece of a file's own text (found once, or several times), otherwise one that may not be there. The
   * piece may cut a surrogate pair, and a new string may be half of one: sizes must stay exact across both.
   */
  strReplace(files: readonly EntryRecord[], bodies: ReadonlyMap<number, string>): Record<string, unknown> {
    const path = this.path(files, FILE_PATHS);
    const content = bodies.get(files.find((file) => file.path === path)?.bodyId ?? -1);
    const at = content === undefined ? 0 : this.random.int(content.length);
    const piece = content?.slice(at, at + 1 + this.random.int(3));
    const oldStr = piece && this.random.chance(0.7) ? piece : this.random.pick(['text', 'T', 'l', 'imp']);
    return { command: 'str_replace', path, old_str: oldStr, new_str: this.random.pick(NEW_STRINGS) };
  }

  async command(actor: Actor, input: Record<string, unknown>): Promise<Outcome> {
    const args = input.command === 'rename' ? `${String(input.old_path)} → ${String(input.new_path)}` : String(input.path);
    const what = `${String(input.command)} ${args}`;
    const result = await actor.tool.run(input);
    // Every reply within the bound but a view of one line, which shows that line whole.
    const range = input.view_range;
    const oneLine = Array.isArray(range) && (range[0] === range[1] || (range[1] === -1 && result.content.split('\n').length === 2));
    const bounded = oneLine || result.content.length <= actor.tool.limits.maxReplyChars;
    const overBound = bounded ? [] : [`a reply of ${result.content.length} characters, over the bound`];
    if (!result.is_error) return { what, result: 'ok', unchanged: false, problems: overBound };
    const refused = `refused (${String(result.code)}): ${result.content.slice(0, 100)}`;
    const expected = result.code !== undefined && EXPECTED_REFUSALS.has(result.code);
    return { what, result: refused, unchanged: true, problems: [...overBound, ...(expected ? [] : [`unexpected failure ${refused}`])] };
  }

  /** The latest change, or a random one of the last ten (undone already, an undo, conflicting: refused then). */
  async undo(actor: Actor): Promise<Outcome> {
    const recent = await actor.tool.history({ limit: 10 });
    const id = this.random.chance(0.5) || recent.length === 0 ? undefined : this.random.pick(recent).id;
    const what = `undo ${id === undefined ? 'latest' : id}`;
    try {
      const entry = await actor.tool.undo(id);
      return { what, result: `ok (undid ${String(entry.undoOf)})`, unchanged: false, problems: [] };
    } catch (error) {
      const refused = refusal(error);
      return { what, result: refused.text, unchanged: true, problems: refused.problem ? [refused.problem] : [] };
    }
  }

  /**
   * A dry run, which must change nothing, then (unless the step is a dry run only) the import itself, which must do
   * what the dry run reported (or be refused as it was), and leave each path as its report says.
   */
  async importStep(actor: Actor, before: Stores): Promise<Outcome> {
    const bundle = this.lastExport && this.random.chance(0.25) ? this.lastExport : await randomBundle(this.random);
    const options = { mode: this.random.pick(['merge', 'replace'] as const), onConflict: this.random.pick(['overwrite', 'skip', 'fail'] as const) };
    const dryRunOnly = this.random.chance(0.25);
    const text = JSON.stringify(bundle);
    const contents = JSON.stringify(bundle.files.map((file) => [file.path, file.content]));
    const what = `import ${options.mode}/${options.onConflict}${dryRunOnly ? ' (dry run only)' : ''} of ${contents}, folders ${JSON.stringify(bundle.folders)}`;
    const preview = await tryImport(actor.tool, text, { ...options, dryRun: true });
    const problems: string[] = [];
    if ('refused' in preview && refusal(preview.refused).problem) problems.push(`dry run: ${refusal(preview.refused).text}`);
    if (!('refused' in preview) && !preview.dryRun) problems.push('the dry run reports dryRun: false');
    if (fingerprint(await this.read()) !== fingerprint(before)) problems.push('the dry run changed the stores');
    if (this.heard.length > 0) problems.push(`the dry run announced ${JSON.stringify(this.heard)}`);
    if (dryRunOnly || problems.length > 0) return { what, result: describeImport(preview), unchanged: true, problems };

    const real = await tryImport(actor.tool, text, options);
    const result = describeImport(real);
    if ('refused' in real) {
      const sameRefusal = 'refused' in preview && refusal(preview.refused).text === refusal(real.refused).text;
      if (!sameRefusal) problems.push(`the import was ${refusal(real.refused).text}, its dry run said ${describeImport(preview)}`);
      return { what, result, unchanged: true, problems };
    }
    if ('refused' in preview || JSON.stringify({ ...preview, dryRun: false }) !== JSON.stringify(real)) {
      problems.push(`the import did ${describeImport(real)}, its dry run said ${describeImport(preview)}`);
    }
    problems.push(...importProblems(real, bundle, memoryState(before), memoryState(await this.read())));
    // One that adds, replaces and removes nothing is no change: it must leave the stores and the history alone.
    const nothing = real.added + real.replaced + real.removed + real.folders + real.removedFolderPaths.length === 0;
    return { what, result, unchanged: nothing, problems };
  }

  /** An export of the whole memory, which must hold exactly what the stores do (and change nothing). */
  async exportStep(actor: Actor, before: Stores): Promise<Outcome> {
    const blob = await actor.tool.exportBundle({ exportedAt: new Date(Date.now()) });
    const exported = JSON.parse(await blob.text()) as MemoryBundle;
    this.lastExport = exported;
    const expected = await expectedExport(before);
    const same = JSON.stringify({ files: exported.files, folders: exported.folders }) === JSON.stringify(expected);
    const problems = same ? [] : [`the export holds ${JSON.stringify(exported)}, the stores ${JSON.stringify(expected)}`];
    return { what: 'export', result: `${exported.files.length} files, ${exported.folders.length} empty folders`, unchanged: true, problems };
  }

  /**
   * An expiry from a random cutoff (now and then an age of 0: everything, as each step is a minute after the last):
   * it must delete exactly the files last written or viewed before it. The tools here never view, so the stored
   * access times are all there is.
   */
  async expireStep(actor: Actor, before: Stores): Promise<Outcome> {
    const minutes = this.random.chance(0.3) ? -1 : this.random.int(60);
    const cutoff = Date.now() - Math.max(0, minutes) * MINUTE;
    const due = before.entries
      .filter((entry) => entry.kind === 'file' && Math.max(entry.updatedAt, entry.accessedAt ?? 0) < cutoff)
      .map((entry) => entry.path);
    const report = await actor.tool.expire({ olderThan: minutes < 0 ? 0 : new Date(cutoff) });
    const deleted = [...report.deleted].sort();
    const problems = JSON.stringify(deleted) === JSON.stringify(due) ? [] : [`expire deleted ${JSON.stringify(deleted)}, the files due are ${JSON.stringify(due)}`];
    const what = minutes < 0 ? 'expire everything' : `expire older than ${minutes} min`;
    return { what, result: `deleted ${JSON.stringify(deleted)}`, unchanged: deleted.length === 0, problems };
  }

  /**
   * Forgets a path (mostly one there, else any, the root now and then): afterwards no entry, journal step, listed
   * path or body of it may be left; one the memory and its history know nothing of is refused.
   */
  async forgetStep(actor: Actor, before: Stores): Promise<Outcome> {
    const path = this.random.chance(0.03) ? '/memories' : this.path(before.entries, PATHS);
    const what = `forget ${path}`;
    try {
      const report = await actor.tool.forget(path);
      const problems = forgetProblems(path, before, await this.read());
      const result = `deleted ${JSON.stringify(report.deleted)}, removed ${report.removedChanges.length}, trimmed ${report.trimmedChanges.length}`;
      return { what, result, unchanged: false, problems, unjournaled: true };
    } catch (error) {
      const refused = refusal(error);
      return { what, result: refused.text, unchanged: true, problems: refused.problem ? [refused.problem] : [] };
    }
  }

  /** Clears the history: afterwards no change is left in the journal and no body but the files'. */
  async clearStep(actor: Actor, before: Stores): Promise<Outcome> {
    const { removedChanges } = await actor.tool.clearHistory();
    const after = await this.read();
    const problems: string[] = [];
    const visible = after.journal.filter((record) => record.hidden !== true).length;
    if (visible > 0) problems.push(`${visible} journal entries are left`);
    const live = new Set(after.entries.map((entry) => entry.bodyId));
    for (const id of after.bodies.keys()) if (!live.has(id)) problems.push(`body ${id} is left, no file holds it`);
    const had = before.journal.filter((record) => record.hidden !== true).length;
    if (removedChanges !== had) problems.push(`it says ${removedChanges} entries were removed, there were ${had}`);
    return { what: 'clear history', result: `removed ${removedChanges}`, unchanged: removedChanges === 0, problems, unjournaled: true };
  }
}

/** Where the stores after `forget(key)` still hold something of it: an entry, a step or a listed path, a body it had. */
function forgetProblems(key: string, before: Stores, after: Stores): string[] {
  const out: string[] = [];
  for (const entry of after.entries) if (within(entry.path, key)) out.push(`${entry.path} is still there`);
  for (const record of after.journal) {
    const named = [...record.paths, ...record.ops.flatMap((op) => (op.type === 'move' ? [op.from, op.to] : [op.path]))];
    for (const path of named) if (within(path, key)) out.push(`journal #${record.id ?? '?'} still names ${path}`);
  }
  for (const entry of before.entries) {
    if (within(entry.path, key) && entry.bodyId !== undefined && after.bodies.has(entry.bodyId)) out.push(`the body of ${entry.path} is still stored`);
  }
  return out;
}

describe('random sequences keep the invariants', () => {
  for (const seed of SEEDS) {
    const config = configFor(seed);
    it(`seed ${seed} (${describeConfig(config)})`, async () => {
      // Only Date: the run's times are the step's, so texts and times replay exactly; IndexedDB's own timers run.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(START);
      const run = await SeedRun.open(seed, config);
      try {
        for (let step = 0; step < STEPS; step++) await run.step(step);
      } finally {
        run.close();
        vi.useRealTimers();
      }
    }, SEED_TIMEOUT_MS);
  }
});
