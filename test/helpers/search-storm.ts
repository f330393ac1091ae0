// A seeded storm of every write path against search: two tools on one database (two tabs), the five commands and
// folder renames, imports (merge, replace), undo, expiry, forget, clearHistory and a sync pull, with searches from
// either tool held to the oracle (search-oracle.ts) built from the files as list() and read() see them then.

import type { IndexedDBMemoryTool, SearchResult } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import { bundleOf } from './bundles.js';
import { MemoryRemote } from './memory-remote.js';
import { comparable, oracleSearch } from './search-oracle.js';
import type { OracleQuery } from './search-oracle.js';
import { seededRandom } from './seeded-random.js';

/** Latin words whose folded forms collide (case, accents, a ligature), identifiers, and a few Greek and Cyrillic. */
export const STORM_WORDS = [
  'tea', 'Tea', 'TEA', 'green', 'Green', 'café', 'Cafe', 'CAFÉ', 'crème', 'creme', 'Zoë', 'zoe', 'naïve', 'naive',
  'résumé', 'resume', 'apple', 'apples', 'application', 'app', 'useMemoryTree', 'usememorytree', 'snake_case',
  'idb-memory', 'memory', 'tree', 'x1', '42', 'über', 'uber', 'ﬁle', 'file', 'straße', 'καφές', 'καφες', 'ёлка', 'елка',
  'the', 'a', 'of', 'and',
];

const FILES = [
  '/memories/a.md', '/memories/b.md', '/memories/notes/c.md', '/memories/notes/d.md', '/memories/notes/deep/e.md',
  '/memories/projects/h.md', '/memories/projects/i.md', '/memories/.hidden.md', '/memories/node_modules/f.md',
  '/memories/.secret/g.md', '/memories/archive/j.md',
];
const FOLDERS = ['/memories/notes', '/memories/projects', '/memories/archive', '/memories/projects/notes', '/memories/old'];

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

/** Text of `lines` lines of random storm words and punctuation. */
export function stormText(random: Random, lines = 1 + Math.floor(random() * 6)): string {
  const out: string[] = [];
  for (let l = 0; l < lines; l++) {
    const words = Array.from({ length: Math.floor(random() * 9) }, () => pick(random, STORM_WORDS));
    out.push(words.join(pick(random, [' ', ' ', ' ', ', ', '. ', ' (', '-'])));
  }
  return out.join('\n');
}

/** The memory now, as an app reads it: every file list() shows (hidden ones too) with its read() text, and every path. */
export interface Snapshot {
  files: Map<string, string>;
  paths: Set<string>;
}

export async function snapshotOf(tool: IndexedDBMemoryTool): Promise<Snapshot> {
  const entries = await tool.list();
  const files = entries.filter((entry) => entry.kind === 'file');
  const texts = await Promise.all(files.map(async (entry) => [entry.path, await tool.read(entry.path)] as const));
  return { files: new Map(texts), paths: new Set(entries.map((entry) => entry.path)) };
}

/** A random query over the storm's words, with its options (a scope of a file or folder now there, or none). */
function stormQuery(random: Random, files: ReadonlyMap<string, string>): { query: string; options: OracleQuery } {
  const texts = [...files.values()];
  const fromText = () => {
    const words = (pick(random, texts) ?? '').split(/[^\p{L}\p{N}\p{M}_]+/u).filter(Boolean);
    const at = Math.floor(random() * words.length);
    return words.slice(at, at + 1 + Math.floor(random() * 3));
  };
  const roll = random();
  let query: string;
  if (roll < 0.2 && texts.length) query = `"${fromText().join(' ')}"`;
  else if (roll < 0.3 && texts.length) query = `${pick(random, STORM_WORDS)} "${fromText().join(' ')}`;
  else query = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, STORM_WORDS)).join(' ');
  if (query.replace(/[^\p{L}\p{N}]/gu, '') === '') query = 'tea';
  const options: OracleQuery = {};
  if (random() < 0.25) {
    const word = pick(random, STORM_WORDS);
    query = `${query} ${word.slice(0, 1 + Math.floor(random() * word.length))}`;
    options.prefix = true;
  }
  if (random() < 0.3) options.limit = 1 + Math.floor(random() * 6);
  if (random() < 0.3) {
    const scopes = [...files.keys()].flatMap((path) => [path, path.slice(0, path.lastIndexOf('/'))]);
    options.path = pick(random, scopes.length ? scopes : ['/memories']);
  }
  return { query, options };
}

export interface StormReport {
  searches: number;
  trace: string[];
}

/** Runs `steps` steps of seed `seed` on `a` and `b` (one database); throws at the first search the oracle refuses. */
export async function searchStorm(
  seed: number,
  steps: number,
  a: IndexedDBMemoryTool,
  b: IndexedDBMemoryTool,
): Promise<StormReport> {
  const random = seededRandom(seed);
  const remote = new MemoryRemote();
  const sync = createMemorySync(a, { remote: remote.handle(), interval: null });
  const trace: string[] = [];
  const times: number[] = [];
  let searches = 0;
  const tools = [a, b] as const;
  const attempt = async (label: string, write: () => Promise<unknown>) => {
    trace.push(label);
    try {
      await write();
    } catch (error) {
      trace[trace.length - 1] += ` → ${(error as Error).name}: ${(error as Error).message.slice(0, 80)}`;
    }
  };
  const write = (tool: IndexedDBMemoryTool, who: string, files: ReadonlyMap<string, string>): [string, () => Promise<unknown>] => {
    const existing = [...files.keys()];
    const path = random() < 0.7 && existing.length ? pick(random, existing) : pick(random, FILES);
    const roll = random();
    const user = { actor: 'user' as const };
    if (roll < 0.25) {
      const file_text = stormText(random);
      return [`${who} create ${path} ${JSON.stringify(file_text)}`, () => tool.execute({ command: 'create', path, file_text }, user)];
    }
    if (roll < 0.45) {
      const words = (files.get(path) ?? 'tea').split(/[^\p{L}\p{N}\p{M}_]+/u).filter(Boolean);
      const old_str = pick(random, words.length ? words : ['tea']);
      const new_str = stormText(random, 1);
      return [
        `${who} str_replace ${path} ${JSON.stringify(old_str)} → ${JSON.stringify(new_str)}`,
        () => tool.execute({ command: 'str_replace', path, old_str, new_str }, user),
      ];
    }
    if (roll < 0.6) {
      const insert_line = Math.floor(random() * 4);
      const insert_text = stormText(random, 1);
      return [
        `${who} insert ${path}:${insert_line} ${JSON.stringify(insert_text)}`,
        () => tool.execute({ command: 'insert', path, insert_line, insert_text }, user),
      ];
    }
    if (roll < 0.7) return [`${who} delete ${path}`, () => tool.execute({ command: 'delete', path }, user)];
    if (roll < 0.8) {
      const new_path = pick(random, FILES);
      return [`${who} rename ${path} → ${new_path}`, () => tool.execute({ command: 'rename', old_path: path, new_path }, user)];
    }
    const from = pick(random, FOLDERS);
    const to = pick(random, FOLDERS);
    return [`${who} rename folder ${from} → ${to}`, () => tool.execute({ command: 'rename', old_path: from, new_path: to }, user)];
  };

  for (let step = 1; step <= steps; step++) {
    times.push(Date.now());
    const now = await snapshotOf(a);
    const files = now.files;
    const which = random() < 0.5 ? 0 : 1;
    const tool = tools[which];
    const who = which === 0 ? 'A' : 'B';
    const roll = random();
    if (roll < 0.35) {
      const [label, run] = write(tool, who, files);
      await attempt(label, run);
    } else if (roll < 0.42) {
      const mode = random() < 0.7 ? 'merge' : 'replace';
      const bundle: Record<string, string> = {};
      for (let i = 0; i < 1 + Math.floor(random() * 3); i++) bundle[pick(random, FILES)] = stormText(random);
      await attempt(`${who} import ${mode} ${JSON.stringify(bundle)}`, async () => tool.importBundle(await bundleOf(bundle), { mode }));
    } else if (roll < 0.48) {
      await attempt(`${who} undo`, () => tool.undo());
    } else if (roll < 0.5) {
      const since = times[Math.floor(random() * times.length)] ?? Date.now();
      await attempt(`${who} expire older than step`, () => tool.expire({ olderThan: Math.max(0, Date.now() - since) }));
    } else if (roll < 0.53) {
      const path = pick(random, [...files.keys(), ...FOLDERS]);
      await attempt(`${who} forget ${path}`, () => tool.forget(path));
    } else if (roll < 0.55) {
      await attempt(`${who} clearHistory`, () => tool.clearHistory());
    } else if (roll < 0.6) {
      const at = pick(random, FILES).replace('/memories', '');
      const text = stormText(random);
      const there = remote.files.get(at);
      await remote.put(at, text, there?.id);
      if (random() < 0.3 && remote.files.size > 1) remote.files.delete(pick(random, [...remote.files.keys()]));
      await attempt(`A sync pull ${at} ${JSON.stringify(text)}`, () => sync.syncNow());
    } else if (roll < 0.7) {
      // A write in one tab while the other searches: the answer is the oracle's before or after it.
      const [label, run] = write(tools[1 - which] ?? a, which === 0 ? 'B' : 'A', files);
      const { query, options } = stormQuery(random, files);
      trace.push(`${who} search ${JSON.stringify(query)} ${JSON.stringify(options)} during ${label}`);
      const [answer] = await Promise.all([tool.search(query, options).catch((e: unknown) => e), run().catch(() => undefined)]);
      const after = await snapshotOf(a);
      searches++;
      check(seed, step, trace, answer, [expected(now, query, options), expected(after, query, options)]);
    } else {
      const { query, options } = stormQuery(random, files);
      trace.push(`${who} search ${JSON.stringify(query)} ${JSON.stringify(options)}`);
      const answer = await tool.search(query, options).catch((e: unknown) => e);
      searches++;
      check(seed, step, trace, answer, [expected(now, query, options)]);
    }
  }
  sync.close();
  return { searches, trace };
}

export type Expected = ReturnType<typeof comparable> | 'not_found';

/** The oracle's answer; a scope no longer there is `not_found`. */
export function expected(now: Snapshot, query: string, options: OracleQuery): Expected {
  const scope = options.path;
  if (scope !== undefined && scope !== '/memories' && !now.paths.has(scope)) return 'not_found';
  return comparable(oracleSearch(now.files, query, options));
}

/** Throws, naming the seed, the step and the last steps, unless `answer` is one of `allowed`. */
function check(seed: number, step: number, trace: string[], answer: unknown, allowed: Expected[]): void {
  const got: Expected | string =
    answer instanceof Error
      ? 'code' in answer && answer.code === 'not_found'
        ? 'not_found'
        : `${answer.name}: ${answer.message}`
      : comparable(answer as SearchResult);
  const same = (want: Expected) => JSON.stringify(want) === JSON.stringify(got);
  if (allowed.some(same)) return;
  throw new Error(
    [
      `search storm seed ${seed} step ${step}: the search differs from the oracle.`,
      `replay: SEARCH_STORM_SEEDS=${seed} SEARCH_STORM_STEPS=${step} npx vitest run --project node test/search/storm-writes.test.ts`,
      `got:      ${JSON.stringify(got)}`,
      ...allowed.map((want) => `expected: ${JSON.stringify(want)}`),
      'last steps:',
      ...trace.slice(-12),
    ].join('\n'),
  );
}
