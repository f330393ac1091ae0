// The storm driver of test/e2e/storm.test.ts: one IndexedDBMemoryTool, a seeded list of random operations
// run with a few in flight at once, every outcome and every change event streamed out as it happens (to the test
// through a page binding, or from a worker to its page). Also the raw look at the three stores afterwards.

import { openDB } from 'idb';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  IndexedDBMemoryTool,
  importChanges,
  isMemoryToolError,
} from '../../../src/index.js';
import type { BundleFile, HistoryLimits, MemoryBundle, MemoryLimits } from '../../../src/index.js';
import type { MemoryChange } from '../../../src/core/change-events.js';

export interface StormConfig {
  dbName: string;
  /** The actor of its commands in the history, and its name in the messages. */
  name: string;
  seed: number;
  ops: number;
  concurrency: number;
  timeoutMs: number;
  limits?: MemoryLimits;
  history?: HistoryLimits | false;
  /** Replace-imports and expiry (they wipe the big folders of the close test). */
  destructive: boolean;
  /** Also rename the 150-file folder back and forth and import / delete a 200-file bundle. */
  big: boolean;
  /** Share of big ops when `big` (default 0.06). */
  bigShare?: number;
  /** Journal ids undo-pick and undo-raw leave alone (the big folder's seed import). */
  protect?: number[];
  /**
   * Run an op only once `post` has delivered its `start` (the promise it returns has settled): for the tab the test
   * closes, whose last messages may never reach the test, so that every op that may have committed has a start there.
   */
  ackStarts?: boolean;
}

export type StormMessage =
  | {
      type: 'start';
      tab: string;
      i: number;
      kind: string;
      /** A write command's name and normalized paths: the journal record it may leave (as in an `op`). */
      command?: string;
      paths?: string[];
      t: number;
    }
  | {
      type: 'op';
      tab: string;
      i: number;
      kind: string;
      detail: string;
      ok: boolean;
      code?: string;
      message?: string;
      ms: number;
      /**
       * The tab's count of local change events when the op started, and when its lane saw it settle: the op's own
       * event, if any, is numbered in between (its `n`). Absent `to`: it never settled in time.
       */
      from: number;
      to?: number;
      /** What an ok op should have published (undefined: unknown, as for an undo). */
      expected?: MemoryChange[][];
      journalId?: number;
      /** Normalized paths of a command, for matching its journal record. */
      paths?: string[];
      command?: string;
      /** When the tool call that succeeded was made, counted per participant (call order). */
      seq?: number;
      t: number;
    }
  | { type: 'late'; tab: string; i: number; kind: string; ms: number; t: number }
  /** `n`: for a local event, how many local events the tab heard before it. */
  | { type: 'event'; tab: string; source: 'local' | 'remote'; changes: MemoryChange[]; n?: number; t: number }
  /** What the test's own page-error reporter posts (tab `pageerror`), the error as a change's path. */
  | { type: 'stray'; tab: string; changes: MemoryChange[]; t: number }
  | { type: 'done'; tab: string; t: number };

type Op =
  | { kind: 'cmd'; input: Record<string, unknown> }
  | { kind: 'undo-latest' }
  | { kind: 'undo-pick'; pick: number }
  | { kind: 'undo-raw'; pick: number }
  | { kind: 'import'; files: { path: string; content: string }[]; folders: string[]; mode: 'merge' | 'replace'; onConflict: 'overwrite' | 'skip' | 'fail' }
  | { kind: 'reimport' }
  | { kind: 'expire'; olderThan: number }
  | { kind: 'big-rename' }
  | { kind: 'bulk' };

export function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FOLDERS = ['/memories/a', '/memories/b', '/memories/a/c', '/memories/b/d/e', '/memories/f'];
const NAMES = ['x.md', 'y.md', 'z.md', 'w.txt'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta'];
export const BIG_FILES = 150;
export const BULK_FILES = 200;

/** The operations of one participant: a function of the seed alone (undo targets are picked at run time). */
export function planOps(config: StormConfig): Op[] {
  const rnd = mulberry32(config.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const folder = (): string => (rnd() < 0.2 ? '/memories' : pick(FOLDERS));
  const file = (): string => (rnd() < 0.04 ? `${pick(FOLDERS)}/${pick(NAMES)}/q.md` : `${folder()}/${pick(NAMES)}`);
  let n = 0;
  const text = (): string => {
    const big = rnd() < 0.1;
    const lines = big ? 20 + Math.floor(rnd() * 40) : 1 + Math.floor(rnd() * 5);
    return Array.from({ length: lines }, () => `${pick(WORDS)} ${config.name}${n++}`).join('\n') + '\n';
  };
  const ops: Op[] = [];
  for (let i = 0; i < config.ops; i++) {
    let r = rnd() * 100;
    let op: Op;
    if (config.big && rnd() < (config.bigShare ?? 0)) r = 95;
    if (r < 20) op = { kind: 'cmd', input: { command: 'create', path: file(), file_text: text() } };
    else if (r < 33) op = { kind: 'cmd', input: { command: 'str_replace', path: file(), old_str: pick(WORDS), new_str: rnd() < 0.3 ? '' : `${pick(WORDS)}-${config.name}` } };
    else if (r < 44) op = { kind: 'cmd', input: { command: 'insert', path: file(), insert_line: Math.floor(rnd() * 5), insert_text: `${pick(WORDS)} ins-${config.name}${n++}\n` } };
    else if (r < 48) op = { kind: 'cmd', input: { command: 'delete', path: file() } };
    else if (r < 51) op = { kind: 'cmd', input: { command: 'delete', path: pick(FOLDERS) } };
    else if (r < 57) op = { kind: 'cmd', input: { command: 'rename', old_path: file(), new_path: file() } };
    else if (r < 61) op = { kind: 'cmd', input: { command: 'rename', old_path: pick(FOLDERS), new_path: rnd() < 0.5 ? pick(FOLDERS) : `${pick(FOLDERS)}/${pick(['g', 'h'])}` } };
    else if (r < 65) op = { kind: 'cmd', input: { command: 'view', path: rnd() < 0.5 ? file() : folder() } };
    else if (r < 69) op = { kind: 'undo-latest' };
    else if (r < 77) op = { kind: 'undo-pick', pick: rnd() };
    else if (r < 80) op = { kind: 'undo-raw', pick: rnd() };
    else if (r < 87) {
      const count = 1 + Math.floor(rnd() * 4);
      const files = new Map<string, string>();
      for (let k = 0; k < count; k++) files.set(rnd() < 0.3 ? `/memories/imp/${config.name}/${pick(NAMES)}` : file(), text());
      const replace = config.destructive && rnd() < 0.15;
      op = {
        kind: 'import',
        files: [...files].map(([path, content]) => ({ path, content })),
        folders: rnd() < 0.3 ? [`/memories/empty-${pick(['p', 'q'])}`] : [],
        mode: replace ? 'replace' : 'merge',
        onConflict: pick(['overwrite', 'overwrite', 'skip', 'fail'] as const),
      };
    } else if (r < 89) op = config.destructive ? { kind: 'reimport' } : { kind: 'cmd', input: { command: 'view', path: '/memories' } };
    else if (r < 91) op = config.destructive ? { kind: 'expire', olderThan: Math.floor(rnd() * 4000) } : { kind: 'undo-latest' };
    else if (config.big && r < 97 && r >= 91) op = rnd() < 0.6 ? { kind: 'big-rename' } : { kind: 'bulk' };
    else op = { kind: 'cmd', input: { command: 'create', path: file(), file_text: text() } };
    ops.push(op);
  }
  return ops;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function makeBundle(files: { path: string; content: string }[], folders: string[] = []): Promise<string> {
  const at = new Date('2025-01-01T00:00:00.000Z').toISOString();
  const list: BundleFile[] = await Promise.all(
    files.map(async ({ path, content }) => ({ path, content, createdAt: at, updatedAt: at, sha256: await sha256(content) })),
  );
  list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const bundle: MemoryBundle = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: at, files: list, folders };
  return JSON.stringify(bundle);
}

const normal = (path: string): string => {
  let p = path.replace(/\/+/gu, '/').replace(/\/\.(?=\/|$)/gu, '');
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
};

/** A command's normalized paths as its journal record names them (a rename's source first). */
function commandPaths(input: Record<string, unknown>): string[] {
  return input.command === 'rename' ? [normal(input.old_path as string), normal(input.new_path as string)] : [normal(input.path as string)];
}

interface Done {
  ok: boolean;
  code?: string;
  message?: string;
  detail: string;
  expected?: MemoryChange[][];
  journalId?: number;
  paths?: string[];
  command?: string;
  seq?: number;
}

/** A participant whose tool is open and listening: `go` runs its ops from wall-clock `startAt`. */
export interface PreparedStorm {
  go(startAt: number): Promise<void>;
}

/**
 * Opens the tool of `config` and starts hearing its events; its ops run on `go`, so no participant writes before every
 * other one listens (a tool opened late would miss the first changes). Every outcome and event goes to `post`, which
 * may answer a promise that settles once the message is delivered (see `ackStarts`); `go` resolves when every op has
 * ended or timed out.
 */
export async function prepareStorm(config: StormConfig, post: (message: StormMessage) => void | Promise<unknown>): Promise<PreparedStorm> {
  const tool = await IndexedDBMemoryTool.init({
    dbName: config.dbName,
    ...(config.limits ? { limits: config.limits } : {}),
    ...(config.history !== undefined ? { history: config.history } : {}),
  });
  const tab = config.name;
  // Local events are numbered, and each op says which numbers fell while it was in flight: the test attributes them.
  // Which op takes them cannot be decided here: a call waiting its turn starts in the step its forerunner ends in, so
  // ops in flight together may settle in one step, and a lane may resume before the lane whose op published.
  let published = 0;
  tool.subscribe((event) => {
    const n = event.source === 'local' ? published++ : undefined;
    post({ type: 'event', tab, source: event.source, changes: event.changes, ...(n === undefined ? {} : { n }), t: Date.now() });
  });
  const ops = planOps(config);
  const bigBundle = config.big
    ? await makeBundle(Array.from({ length: BULK_FILES }, (_, k) => ({ path: `/memories/bulk/f${String(k).padStart(3, '0')}.md`, content: `bulk ${k}\n` })))
    : '';

  let calls = 0;
  const runCmd = async (input: Record<string, unknown>) => {
    const seq = calls++;
    return { ...(await tool.run(input, { actor: tab })), seq };
  };
  const fail = (error: unknown, detail: string): Done =>
    isMemoryToolError(error) ? { ok: false, code: error.code, message: error.message, detail } : { ok: false, code: 'thrown', message: String(error), detail };

  async function perform(op: Op): Promise<Done> {
    switch (op.kind) {
      case 'cmd': {
        const input = op.input;
        const detail = JSON.stringify(input);
        const result = await runCmd(input);
        const command = input.command as string;
        const paths = commandPaths(input);
        if (result.is_error) return { ok: false, code: result.code ?? 'none', message: result.content, detail };
        return { ok: true, detail, command, paths, seq: result.seq, ...(command === 'view' ? { expected: [] } : {}) };
      }
      case 'undo-latest':
      case 'undo-pick':
      case 'undo-raw': {
        let id: number | undefined;
        if (op.kind !== 'undo-latest') {
          const list = (await tool.history({ limit: 40 })).filter((entry) => !config.protect?.includes(entry.id));
          if (op.kind === 'undo-pick') id = list[Math.floor(op.pick * list.length)]?.id;
          else id = 1 + Math.floor(op.pick * ((list[0]?.id ?? 0) + 5));
          if (id !== undefined && config.protect?.includes(id)) id += 1;
        }
        const detail = `undo(${id ?? ''})`;
        try {
          const entry = await tool.undo(id);
          return { ok: true, detail: `${detail} -> #${entry.id} undoOf ${entry.undoOf}`, journalId: entry.id, command: 'undo' };
        } catch (error) {
          return fail(error, detail);
        }
      }
      case 'import': {
        const detail = `import ${op.mode}/${op.onConflict} ${op.files.map((f) => f.path).join(',')} ${op.folders.join(',')}`;
        try {
          const report = await tool.importBundle(await makeBundle(op.files, op.folders), { mode: op.mode, onConflict: op.onConflict });
          const changes = importChanges(report);
          // One that changes nothing is not journaled (so not counted as an import record).
          return { ok: true, detail: `${detail} +${report.added} ~${report.replaced} -${report.removed}`, command: changes.length ? 'import' : 'no-op import', expected: changes.length ? [changes] : [] };
        } catch (error) {
          return fail(error, detail);
        }
      }
      case 'reimport': {
        try {
          const blob = await tool.exportBundle();
          const report = await tool.importBundle(blob, { mode: 'replace' });
          const changes = importChanges(report);
          return { ok: true, detail: `reimport +${report.added} ~${report.replaced} -${report.removed}`, command: changes.length ? 'import' : 'no-op import', expected: changes.length ? [changes] : [] };
        } catch (error) {
          return fail(error, 'reimport');
        }
      }
      case 'expire': {
        try {
          const report = await tool.expire({ olderThan: op.olderThan });
          const expected = report.deleted.length ? [report.deleted.map((path) => ({ type: 'delete' as const, path }))] : [];
          return { ok: true, detail: `expire(${op.olderThan}) -> ${report.deleted.length}`, command: report.deleted.length ? 'expire' : 'expire-none', expected };
        } catch (error) {
          return fail(error, `expire(${op.olderThan})`);
        }
      }
      case 'big-rename': {
        const there = await runCmd({ command: 'rename', old_path: '/memories/big', new_path: '/memories/big2' });
        if (!there.is_error) return { ok: true, detail: 'big -> big2', command: 'rename', paths: ['/memories/big', '/memories/big2'], seq: there.seq };
        const back = await runCmd({ command: 'rename', old_path: '/memories/big2', new_path: '/memories/big' });
        if (!back.is_error) return { ok: true, detail: 'big2 -> big', command: 'rename', paths: ['/memories/big2', '/memories/big'], seq: back.seq };
        return { ok: false, code: back.code ?? 'none', message: `${there.content} / ${back.content}`, detail: 'big-rename' };
      }
      case 'bulk': {
        const gone = await runCmd({ command: 'delete', path: '/memories/bulk' });
        if (!gone.is_error) return { ok: true, detail: 'delete bulk', command: 'delete', paths: ['/memories/bulk'], seq: gone.seq };
        try {
          const report = await tool.importBundle(bigBundle, { mode: 'merge' });
          const changes = importChanges(report);
          // Another tab's bulk import may have written the same files first: then nothing changes, nothing is journaled.
          return { ok: true, detail: `bulk import +${report.added} =${report.unchanged}`, command: changes.length ? 'import' : 'no-op import', expected: changes.length ? [changes] : [] };
        } catch (error) {
          return fail(error, 'bulk import');
        }
      }
    }
  }

  return { go: (startAt) => runOps(startAt) };

  async function runOps(startAt: number): Promise<void> {
    const wait = startAt - Date.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < ops.length) {
        const i = next++;
        const op = ops[i] as Op;
        const write = op.kind === 'cmd' && op.input.command !== 'view' ? { command: op.input.command as string, paths: commandPaths(op.input) } : {};
        const started = post({ type: 'start', tab, i, kind: op.kind, ...write, t: Date.now() });
        if (config.ackStarts) await started;
        const began = performance.now();
        const from = published;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const work = perform(op).catch((error: unknown) => fail(error, `${op.kind} (threw)`));
        const late = new Promise<'late'>((done) => {
          timer = setTimeout(() => done('late'), config.timeoutMs);
        });
        const outcome = await Promise.race([work, late]);
        clearTimeout(timer);
        if (outcome === 'late') {
          void work.then(() => post({ type: 'late', tab, i, kind: op.kind, ms: Math.round(performance.now() - began), t: Date.now() }));
          post({ type: 'op', tab, i, kind: op.kind, detail: 'timeout', ok: false, code: 'hung', ms: config.timeoutMs, from, t: Date.now() });
          continue;
        }
        post({ type: 'op', tab, i, kind: op.kind, ...outcome, ms: Math.round(performance.now() - began), from, to: published, t: Date.now() });
      }
    };
    await Promise.all(Array.from({ length: config.concurrency }, lane));
    // Let the last posts to the other participants go out, and hear theirs.
    await new Promise((done) => setTimeout(done, 50));
    post({ type: 'done', tab, t: Date.now() });
    // The tool stays open: it keeps hearing the others until the page goes.
  }
}

/** What the three stores hold, read with idb behind every tool's back, and what is wrong with it. */
export interface Inspection {
  problems: string[];
  stats: Record<string, number>;
  journal: { id: number; actor: string; command: string; paths: string[]; undone: boolean; undoOf?: number; hidden: boolean }[];
  files: Record<string, string>;
}

const utf8 = (text: string): number => new TextEncoder().encode(text).length;

export async function inspect(dbName: string): Promise<Inspection> {
  const db = await openDB(dbName);
  const problems: string[] = [];
  try {
    const tx = db.transaction(['entries', 'bodies', 'journal'], 'readonly');
    const [entries, bodyKeys, bodyValues, journal] = await Promise.all([
      tx.objectStore('entries').getAll() as Promise<Array<{ path: string; parent: string; kind: string; size: number; bodyId?: number }>>,
      tx.objectStore('bodies').getAllKeys() as Promise<number[]>,
      tx.objectStore('bodies').getAll() as Promise<string[]>,
      tx.objectStore('journal').getAll() as Promise<
        Array<{
          id: number;
          actor: string;
          command: string;
          paths: string[];
          ops: Array<{ type: string; path?: string; before?: unknown; after?: unknown }>;
          retains: number[];
          bytes: number;
          undoable: boolean;
          undone?: boolean;
          undoOf?: number;
          hidden?: boolean;
          totals?: number[];
        }>
      >,
    ]);
    const bodies = new Map(bodyKeys.map((key, k) => [key, bodyValues[k] as string]));
    const byPath = new Map(entries.map((entry) => [entry.path, entry]));
    const files: Record<string, string> = {};
    let bytes = 0;
    let fileCount = 0;
    const live = new Map<number, string[]>();
    for (const entry of entries) {
      const parent = entry.path.slice(0, entry.path.lastIndexOf('/'));
      if (entry.parent !== parent) problems.push(`entry ${entry.path} has parent field ${entry.parent}, its path says ${parent}`);
      if (parent !== '/memories') {
        const up = byPath.get(parent);
        if (!up) problems.push(`orphan entry ${entry.path}: parent ${parent} missing`);
        else if (up.kind !== 'folder') problems.push(`orphan entry ${entry.path}: parent ${parent} is a ${up.kind}`);
      }
      if (!entry.path.startsWith('/memories/')) problems.push(`entry outside the root: ${entry.path}`);
      if (entry.kind === 'file') {
        fileCount++;
        bytes += entry.size;
        if (entry.bodyId === undefined) problems.push(`file ${entry.path} has no bodyId`);
        else {
          const body = bodies.get(entry.bodyId);
          if (body === undefined) problems.push(`file ${entry.path}: body ${entry.bodyId} missing`);
          else {
            files[entry.path] = body;
            if (utf8(body) !== entry.size) problems.push(`file ${entry.path}: size ${entry.size} but body ${entry.bodyId} has ${utf8(body)} bytes`);
          }
          live.set(entry.bodyId, [...(live.get(entry.bodyId) ?? []), entry.path]);
        }
      } else if (entry.kind !== 'folder') problems.push(`entry ${entry.path} of kind ${entry.kind}`);
    }
    for (const [id, paths] of live) if (paths.length > 1) problems.push(`body ${id} shared by live files ${paths.join(', ')}`);
    const retained = new Set<number>();
    const visible = journal.filter((record) => !record.hidden);
    for (const record of journal) for (const id of record.retains) retained.add(id);
    for (const key of bodyKeys) if (!live.has(key) && !retained.has(key)) problems.push(`orphan body ${key} (${JSON.stringify((bodies.get(key) ?? '').slice(0, 40))})`);
    for (const record of visible) {
      for (const id of record.retains) if (!bodies.has(id)) problems.push(`journal #${record.id} (${record.command}) retains body ${id}, which is gone`);
      if (record.undoable && !record.undone) {
        for (const op of record.ops) {
          const before = op.type === 'file' ? (op.before as { bodyId: number } | null) : null;
          if (before && !bodies.has(before.bodyId)) problems.push(`journal #${record.id} (${record.command}) is undoable but body ${before.bodyId} of ${op.path} is gone`);
          if (before && !record.retains.includes(before.bodyId)) problems.push(`journal #${record.id} does not retain body ${before.bodyId} its undo needs`);
        }
      }
    }
    const last = journal.at(-1);
    const totals = last?.totals;
    if (journal.length > 0 && !totals) problems.push(`the last journal record #${last?.id} carries no totals`);
    if (totals) {
      const [, tBytes, tFiles, nextBody, jBytes, jEntries] = totals as [number, number, number, number, number, number];
      if (tBytes !== bytes) problems.push(`totals say ${tBytes} bytes, the entries ${bytes}`);
      if (tFiles !== fileCount) problems.push(`totals say ${tFiles} files, the entries ${fileCount}`);
      const maxBody = bodyKeys.length ? Math.max(...bodyKeys) : 0;
      if (nextBody <= maxBody) problems.push(`totals' nextBody ${nextBody} is not above the highest body key ${maxBody}`);
      const realBytes = visible.reduce((sum, record) => sum + record.bytes, 0);
      if (jEntries !== visible.length) problems.push(`totals say ${jEntries} journal entries, the journal has ${visible.length}`);
      if (jBytes !== realBytes) problems.push(`totals say ${jBytes} journal bytes, the entries sum to ${realBytes}`);
    } else if (fileCount > 0) problems.push(`no totals at all but ${fileCount} files`);
    let lastSeq = -Infinity;
    for (const record of journal) {
      const seq = record.totals?.[0];
      if (seq === undefined) continue;
      if (seq <= lastSeq) problems.push(`journal #${record.id} has seq ${seq}, not above the previous ${lastSeq}`);
      lastSeq = seq;
    }
    const undoOf = new Map<number, number>();
    for (const record of visible) {
      if (record.undoOf !== undefined) {
        if (undoOf.has(record.undoOf)) problems.push(`change #${record.undoOf} undone twice: by #${undoOf.get(record.undoOf)} and #${record.id}`);
        undoOf.set(record.undoOf, record.id);
      }
    }
    return {
      problems,
      stats: {
        entries: entries.length,
        files: fileCount,
        folders: entries.length - fileCount,
        bytes,
        bodies: bodyKeys.length,
        journal: visible.length,
        hidden: journal.length - visible.length,
        undone: visible.filter((record) => record.undone).length,
        lastSeq: Number.isFinite(lastSeq) ? lastSeq : 0,
      },
      journal: journal.map((record) => ({
        id: record.id,
        actor: record.actor,
        command: record.command,
        paths: record.paths,
        undone: record.undone === true,
        ...(record.undoOf === undefined ? {} : { undoOf: record.undoOf }),
        hidden: record.hidden === true,
      })),
      files,
    };
  } finally {
    db.close();
  }
}

/** A fresh tool on `dbName`: it lists what the stores hold, and a write, a view and a delete still work. */
export async function freshToolCheck(dbName: string): Promise<string[]> {
  const problems: string[] = [];
  const tool = await IndexedDBMemoryTool.init({ dbName });
  try {
    const listed = await tool.list();
    const before = await inspect(dbName);
    if (listed.length !== before.stats.entries) problems.push(`fresh tool lists ${listed.length} entries, the store holds ${before.stats.entries}`);
    for (const [path, content] of Object.entries(before.files)) {
      const read = await tool.read(path);
      if (read !== content) problems.push(`fresh tool reads ${path} differently from its body`);
    }
    const probe = '/memories/zz-probe/after.md';
    const made = await tool.run({ command: 'create', path: probe, file_text: 'still works\n' });
    if (made.is_error) problems.push(`fresh create failed: ${made.content}`);
    const seen = await tool.run({ command: 'view', path: probe });
    if (!seen.content.includes('still works')) problems.push(`fresh view: ${seen.content}`);
    const gone = await tool.run({ command: 'delete', path: '/memories/zz-probe' });
    if (gone.is_error) problems.push(`fresh delete failed: ${gone.content}`);
    const after = await inspect(dbName);
    if (after.stats.files !== before.stats.files || after.stats.bytes !== before.stats.bytes) {
      problems.push(`probe create+delete moved the totals: ${JSON.stringify(before.stats)} -> ${JSON.stringify(after.stats)}`);
    }
    problems.push(...after.problems.map((p) => `after probe: ${p}`));
  } finally {
    tool.close();
  }
  return problems;
}

/** Seeds the close test's 150-file folder `/memories/big`. */
export async function seedBig(dbName: string): Promise<number> {
  const tool = await IndexedDBMemoryTool.init({ dbName });
  try {
    await tool.importBundle(
      await makeBundle(Array.from({ length: BIG_FILES }, (_, k) => ({ path: `/memories/big/s${k % 5}/f${String(k).padStart(3, '0')}.md`, content: `big ${k}\n` }))),
      {},
    );
    return (await tool.history({ limit: 1 }))[0]?.id ?? 0;
  } finally {
    tool.close();
  }
}
