// A storm: two or three tabs and a dedicated worker on one memory database in real Chromium, each with its
// own IndexedDBMemoryTool (one with tight limits, one with no history), running a seeded random mix of commands,
// undos of random changes, imports (merge and replace) and expiry at once. Afterwards a fresh tab looks at the
// stores directly and through a fresh tool; every outcome and change event was streamed to the test as it happened,
// so the history, the events and the replies can be held against each other. Also: a tab closed mid-storm.
//
// Seeds: STORM_SEEDS="1,2,3" (storm), STORM_PRUNE_SEEDS, STORM_CLOSE_SEEDS; STORM_OPS ops per participant.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startDevServer, withDiskProfile } from './harness.js';
import type { DiskProfile, Served } from './harness.js';
import type { Inspection, StormConfig, StormMessage } from './pages/storm-driver.js';
import { BIG_FILES, BULK_FILES } from './pages/storm-driver.js';
import type { MemoryChange, MemoryToolErrorCode } from '../../src/index.js';
import { RANDOM_REFUSALS } from '../helpers/random-refusals.js';

const PAGE = 'test/e2e/pages/storm.html';
const seeds = (name: string, fallback: number[]): number[] =>
  process.env[name] ? process.env[name]!.split(',').map((s) => Number(s.trim())) : fallback;
const STORM_SEEDS = seeds('STORM_SEEDS', [1, 2]);
const PRUNE_SEEDS = seeds('STORM_PRUNE_SEEDS', [11]);
const CLOSE_SEEDS = seeds('STORM_CLOSE_SEEDS', [21, 22]);
const OPS = Number(process.env.STORM_OPS ?? 300);
const TIMEOUT_MS = 20_000;
const WRITES = new Set(['create', 'str_replace', 'insert', 'delete', 'rename']);

let server: Served;
let dbCounter = 0;

beforeAll(async () => {
  server = await startDevServer();
});

afterAll(async () => {
  await server?.close();
});

const freshDbName = (): string => `storm-${Date.now()}-${++dbCounter}`;

/** Every message of every participant, in the order the test got them. */
class Log {
  readonly messages: StormMessage[] = [];
  of(tab: string): StormMessage[] {
    return this.messages.filter((m) => m.tab === tab);
  }
  ops(tab: string): Extract<StormMessage, { type: 'op' }>[] {
    return this.of(tab).filter((m): m is Extract<StormMessage, { type: 'op' }> => m.type === 'op').sort((a, b) => a.i - b.i);
  }
}

async function openTab(context: BrowserContext, log: Log): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.exposeBinding('stormReport', (_source, message: StormMessage) => {
    log.messages.push(message);
  });
  page.on('pageerror', (error) => log.messages.push({ type: 'stray', tab: 'pageerror', changes: [{ type: 'write', path: String(error) }], t: Date.now() }));
  await page.goto(`${server.url}${PAGE}`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return page;
}

interface Participant {
  config: StormConfig;
  page: Page;
  worker: boolean;
}

const key = (changes: MemoryChange[]): string => JSON.stringify(changes);

function multiset(items: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(item, (out.get(item) ?? 0) + 1);
  return out;
}

/** `a` minus `b`, as multisets. */
function minus(a: string[], b: string[]): string[] {
  const left = multiset(b);
  const out: string[] = [];
  for (const item of a) {
    const n = left.get(item) ?? 0;
    if (n > 0) left.set(item, n - 1);
    else out.push(item);
  }
  return out;
}

/** What a successful write command publishes. */
function commandChanges(op: Extract<StormMessage, { type: 'op' }>): MemoryChange[][] {
  const [first, second] = op.paths ?? [];
  if (op.command === 'rename') return [[{ type: 'rename', path: second!, from: first! }]];
  if (op.command === 'delete') return [[{ type: 'delete', path: first! }]];
  return [[{ type: 'write', path: first! }]];
}

interface Closed {
  tab: string;
  at: number;
}

/**
 * Everything the storm's messages and the final look at the stores must agree on; returns the problems found.
 * `prune`: some tool prunes the journal, so only its newest records can be held against the replies.
 */
function analyse(parts: Participant[], log: Log, seen: Inspection, options: { prune: boolean; closed?: Closed }): string[] {
  const problems: string[] = [...seen.problems.map((p) => `store: ${p}`)];
  const closed = options.closed;
  const inFlight = new Map<string, Set<number>>();
  for (const { config } of parts) {
    const tab = config.name;
    const ops = log.ops(tab);
    const isClosed = closed?.tab === tab;
    if (!isClosed && ops.length !== config.ops) problems.push(`${tab}: ${ops.length} of ${config.ops} ops reported`);
    if (!isClosed && !log.of(tab).some((m) => m.type === 'done')) problems.push(`${tab}: never finished`);
    const started = new Set(log.of(tab).filter((m) => m.type === 'start').map((m) => (m as { i: number }).i));
    for (const op of ops) started.delete(op.i);
    inFlight.set(tab, started);
    for (const op of ops) {
      if (op.code === 'hung') problems.push(`${tab} op ${op.i} (${op.kind}) hung > ${TIMEOUT_MS} ms`);
      else if (!op.ok && !RANDOM_REFUSALS.has((op.code ?? '') as MemoryToolErrorCode)) problems.push(`${tab} op ${op.i} ${op.detail}: unexpected ${op.code}: ${op.message}`);
      if (!op.ok && op.events.length) problems.push(`${tab} op ${op.i} ${op.detail} failed (${op.code}) but published ${key(op.events.flat())}`);
      if (op.ok) {
        const expected = op.expected ?? (op.command && WRITES.has(op.command) ? commandChanges(op) : undefined);
        if (expected && key(expected.flat()) !== key(op.events.flat())) {
          problems.push(`${tab} op ${op.i} ${op.detail}: published ${key(op.events.flat())}, expected ${key(expected.flat())}`);
        }
        if (!expected && op.events.length > 1) problems.push(`${tab} op ${op.i} ${op.detail} published ${op.events.length} events`);
      }
    }
    for (const m of log.of(tab)) if (m.type === 'stray') problems.push(`${tab}: local events heard for no op: ${key(m.changes)}`);
    for (const m of log.of(tab)) if (m.type === 'late') problems.push(`${tab} op ${m.i} (${m.kind}) answered after ${m.ms} ms`);
  }
  for (const m of log.of('pageerror')) if (m.type === 'stray') problems.push(`page error: ${key(m.changes)}`);

  // Every participant heard every other's committed changes, and nothing else.
  for (const { config } of parts) {
    const tab = config.name;
    if (closed?.tab === tab) continue;
    const heard = log.of(tab).filter((m) => m.type === 'event' && m.source === 'remote').map((m) => key((m as { changes: MemoryChange[] }).changes));
    const sent: string[] = [];
    let mayMiss: string[] = [];
    for (const other of parts) {
      if (other.config.name === tab) continue;
      for (const op of log.ops(other.config.name)) {
        for (const changes of op.events) {
          if (closed?.tab === other.config.name && op.t >= closed.at - 300) mayMiss.push(key(changes));
          else sent.push(key(changes));
        }
      }
    }
    const missing = minus(sent, heard);
    let extra = minus(heard, sent);
    const stillMissing = minus(mayMiss, extra);
    extra = minus(extra, mayMiss);
    mayMiss = stillMissing;
    if (missing.length) problems.push(`${tab} never heard ${missing.length} remote changes, e.g. ${missing.slice(0, 3).join(' ')}`);
    const allowedExtra = closed ? (inFlight.get(closed.tab)?.size ?? 0) : 0;
    if (extra.length > allowedExtra) problems.push(`${tab} heard ${extra.length} remote changes no one reported, e.g. ${extra.slice(0, 3).join(' ')}`);
  }

  // The history against the replies.
  const visible = seen.journal.filter((r) => !r.hidden);
  const sig = (command: string, paths: string[]): string => `${command} ${paths.join(' ')}`;
  for (const { config } of parts) {
    const tab = config.name;
    const records = visible.filter((r) => r.actor === tab).map((r) => sig(r.command, r.paths));
    const committed = log
      .ops(tab)
      .filter((op) => op.ok && op.command && WRITES.has(op.command))
      .sort((x, y) => (x.seq ?? x.i) - (y.seq ?? y.i))
      .map((op) => sig(op.command!, op.paths!));
    if (config.history === false) {
      if (records.length) problems.push(`${tab} keeps no history but the journal has ${records.length} of its changes`);
      continue;
    }
    if (closed?.tab === tab) {
      const missing = minus(committed, records);
      const extra = minus(records, committed);
      if (missing.length) problems.push(`${tab} (closed): ${missing.length} commands it was told committed are not in the history, e.g. ${missing.slice(0, 3).join('; ')}`);
      if (extra.length > (inFlight.get(tab)?.size ?? 0)) problems.push(`${tab} (closed): ${extra.length} history records beyond its ${inFlight.get(tab)?.size} in-flight commands`);
      continue;
    }
    if (options.prune) {
      const tail = committed.slice(committed.length - records.length);
      if (records.length > committed.length || key(tail as never) !== key(records as never)) {
        problems.push(`${tab}: its ${records.length} records in the pruned history are not the last of its ${committed.length} committed commands`);
      }
    } else if (key(records as never) !== key(committed as never)) {
      const missing = minus(committed, records);
      const extra = minus(records, committed);
      problems.push(
        `${tab}: history ≠ committed commands (${records.length} records, ${committed.length} ok): missing ${missing.slice(0, 3).join('; ')} extra ${extra.slice(0, 3).join('; ')}` +
          (missing.length + extra.length === 0 ? ` (same set, other order from #${records.findIndex((r, k) => r !== committed[k])}: ${records.slice(records.findIndex((r, k) => r !== committed[k])).slice(0, 3).join('; ')} vs ${committed.slice(records.findIndex((r, k) => r !== committed[k])).slice(0, 3).join('; ')})` : ''),
      );
    }
  }
  if (!options.prune) {
    const count = (pred: (op: Extract<StormMessage, { type: 'op' }>) => boolean, historyOnly: boolean): number =>
      parts
        .filter((p) => !historyOnly || p.config.history !== false)
        .reduce((sum, p) => sum + log.ops(p.config.name).filter((op) => op.ok && pred(op)).length, 0);
    const slack = closed ? (inFlight.get(closed.tab)?.size ?? 0) : 0;
    const within = (what: string, records: number, ok: number): void => {
      if (records < ok || records > ok + slack) problems.push(`${what}: ${records} in the history, ${ok} answered ok`);
    };
    within('undo records', visible.filter((r) => r.command === 'undo').length, count((op) => op.command === 'undo', true));
    within('undone marks', visible.filter((r) => r.undone).length, count((op) => op.command === 'undo', false));
    within('import records', visible.filter((r) => r.command === 'import').length, count((op) => op.command === 'import', true));
    within('expire records', visible.filter((r) => r.command === 'expire').length, count((op) => op.command === 'expire', true));
    for (const p of parts) {
      if (p.config.history === false) continue;
      for (const op of log.ops(p.config.name)) {
        if (!op.ok || op.command !== 'undo') continue;
        const record = visible.find((r) => r.id === op.journalId);
        if (!record || record.command !== 'undo') problems.push(`${p.config.name} op ${op.i} ${op.detail}: its entry #${op.journalId} is not an undo in the history`);
      }
    }
  }
  return problems;
}

function summary(parts: Participant[], log: Log, seen: Inspection, ms: number): string {
  const per = parts.map(({ config }) => {
    const ops = log.ops(config.name);
    const ok = ops.filter((op) => op.ok).length;
    const kinds = multiset(ops.map((op) => (op.command ?? op.kind) + (op.ok ? '' : `:${op.code}`)));
    const top = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, n]) => `${k}=${n}`).join(' ');
    const remote = log.of(config.name).filter((m) => m.type === 'event' && m.source === 'remote').length;
    return `  ${config.name}${parts.find((p) => p.config === config)?.worker ? ' (worker)' : ''} [seed ${config.seed}, ${config.concurrency} in flight${config.history === false ? ', no history' : ''}${config.limits ? ', tight limits' : ''}]: ${ops.length} ops, ${ok} ok, ${remote} remote events heard; ${top}`;
  });
  return [`${ms} ms; store ${JSON.stringify(seen.stats)}`, ...per].join('\n');
}

/** The participants' storm, all at once; `closeTab` closes that tab `closeAfterMs` after the start. */
async function storm(parts: Participant[], close?: { tab: string; afterMs: number }): Promise<{ ms: number; closed?: Closed }> {
  const startAt = Date.now() + 3000;
  for (const p of parts) p.config.startAt = startAt;
  const runs = parts.map((p) =>
    p.page
      .evaluate(([config, inWorker]) => (inWorker ? window.storm.stormInWorker(config) : window.storm.storm(config)), [p.config, p.worker] as const)
      .catch((error: unknown) => {
        if (close?.tab === p.config.name) return;
        throw error;
      }),
  );
  let closed: Closed | undefined;
  if (close) {
    const target = parts.find((p) => p.config.name === close.tab)!;
    await new Promise((done) => setTimeout(done, startAt - Date.now() + close.afterMs));
    closed = { tab: close.tab, at: Date.now() };
    await target.page.close();
  }
  await Promise.all(runs);
  const ms = Date.now() - startAt;
  // The last posts between tabs go a task after their command; give them time to arrive.
  await new Promise((done) => setTimeout(done, 1500));
  return { ms, ...(closed ? { closed } : {}) };
}

/** A fresh tab's raw look at the stores, then `judge` (before the probe writes anything), then a fresh tool's check. */
async function lookAfter(context: BrowserContext, log: Log, db: string, judge: (seen: Inspection) => string[]): Promise<{ seen: Inspection; problems: string[] }> {
  const page = await openTab(context, log);
  const seen = await page.evaluate((name) => window.storm.inspect(name), db);
  const problems = judge(seen);
  const fresh = await page.evaluate((name) => window.storm.freshToolCheck(name), db);
  return { seen, problems: [...problems, ...fresh.map((p) => `fresh tool: ${p}`)] };
}

/** 1 to 4 commands in flight per participant, by seed: one at a time is when a tool trusts the totals it remembers. */
const base = (db: string, name: string, seed: number): StormConfig => ({
  dbName: db,
  name,
  seed,
  ops: OPS,
  concurrency: 1 + (seed % 4),
  timeoutMs: TIMEOUT_MS,
  history: { maxEntries: 100_000 },
  destructive: true,
  big: false,
});

async function runMixed(seed: number, prune: boolean): Promise<string[]> {
  let problems: string[] = [];
  await withDiskProfile(async (context) => {
    const db = freshDbName();
    const log = new Log();
    const [a, b, c] = [await openTab(context, log), await openTab(context, log), await openTab(context, log)];
    const parts: Participant[] = [
      { config: base(db, 'A', seed * 10 + 1), page: a, worker: false },
      { config: { ...base(db, 'B', seed * 10 + 2), history: false }, page: b, worker: false },
      {
        config: { ...base(db, 'C', seed * 10 + 3), limits: { maxFiles: 10, maxTotalBytes: 2500, maxFileBytes: 400 }, history: prune ? { maxEntries: 40 } : { maxEntries: 100_000 } },
        page: c,
        worker: false,
      },
      { config: base(db, 'W', seed * 10 + 4), page: a, worker: true },
    ];
    const { ms } = await storm(parts);
    const { seen, problems: found } = await lookAfter(context, log, db, (s) => analyse(parts, log, s, { prune }));
    problems = found;
    console.info(`[storm] seed ${seed}${prune ? ' (C prunes at 40)' : ''}: ${summary(parts, log, seen, ms)}\n  problems: ${problems.length}`);
    for (const p of problems.slice(0, 40)) console.info(`  ! ${p}`);
  });
  return problems;
}

describe('a storm of three tabs and a worker', () => {
  for (const seed of STORM_SEEDS) {
    it(`keeps the stores, the history and the events consistent (seed ${seed})`, async () => {
      expect(await runMixed(seed, false)).toEqual([]);
    }, 300_000);
  }
  for (const seed of PRUNE_SEEDS) {
    it(`keeps them consistent while one tool prunes the history (seed ${seed})`, async () => {
      expect(await runMixed(seed, true)).toEqual([]);
    }, 300_000);
  }
});

describe('a tab closed mid-storm', () => {
  for (const seed of CLOSE_SEEDS) {
    it(`leaves no half command (seed ${seed})`, async () => {
      let problems: string[] = [];
      await withDiskProfile(async (context) => {
        const db = freshDbName();
        const log = new Log();
        const [a, b, c] = [await openTab(context, log), await openTab(context, log), await openTab(context, log)];
        const seedId = await a.evaluate((name) => window.storm.seedBig(name), db);
        const cfg = (name: string, k: number): StormConfig => ({ ...base(db, name, seed * 10 + k), destructive: false, big: true, bigShare: 0.06, protect: [seedId] });
        const parts: Participant[] = [
          { config: cfg('A', 1), page: a, worker: false },
          { config: { ...cfg('B', 2), history: false }, page: b, worker: false },
          // The tab that is closed runs mostly the big ones: a 150-file rename, a 200-file import or delete.
          { config: { ...cfg('C', 3), bigShare: 0.5 }, page: c, worker: false },
        ];
        const afterMs = 800 + ((seed * 7919) % 3000);
        const { ms, closed } = await storm(parts, { tab: 'C', afterMs });
        const { seen, problems: found } = await lookAfter(context, log, db, (s) => analyse(parts, log, s, { prune: false, ...(closed ? { closed } : {}) }));
        problems = found;
        const paths = Object.keys(seen.files);
        const under = (prefix: string): number => paths.filter((p) => p.startsWith(prefix)).length;
        const big = [under('/memories/big/'), under('/memories/big2/')];
        // Both gone is fine only if the seed import itself was undone (an undo-latest may pick it), all at once.
        const seedUndone = seen.journal.some((r) => r.id === seedId && r.undone);
        if (!((big[0] === BIG_FILES && big[1] === 0) || (big[0] === 0 && big[1] === BIG_FILES) || (seedUndone && big[0] === 0 && big[1] === 0))) {
          problems.push(`big folder split or lost: big ${big[0]}, big2 ${big[1]}, seed import #${seedId} ${seedUndone ? 'undone' : 'not undone'}`);
        }
        const bulk = under('/memories/bulk/');
        if (bulk !== 0 && bulk !== BULK_FILES) problems.push(`bulk import half there: ${bulk} of ${BULK_FILES}`);
        const cOps = log.ops('C');
        const inFlight = log.of('C').filter((m) => m.type === 'start').length - cOps.length;
        console.info(
          `[storm] close seed ${seed}: C closed ${afterMs} ms in, after ${cOps.length} ops reported, ${inFlight} in flight (${log
            .of('C')
            .filter((m) => m.type === 'start' && !cOps.some((op) => op.i === (m as { i: number }).i))
            .map((m) => (m as { kind: string }).kind)
            .join(',')}); big ${big.join('/')}, bulk ${bulk}\n${summary(parts, log, seen, ms)}\n  problems: ${problems.length}`,
        );
        for (const p of problems.slice(0, 40)) console.info(`  ! ${p}`);
      });
      expect(problems).toEqual([]);
    }, 300_000);
  }
});
