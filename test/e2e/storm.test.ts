// A storm: two or three tabs and a dedicated worker on one memory database, in Chromium, Firefox and WebKit
// (./tabs/), each with its own IndexedDBMemoryTool (one with tight limits, one with no history), running a seeded
// random mix of commands, undos of random changes, imports (merge and replace) and expiry at once. Afterwards a fresh
// tab looks at the stores directly and through a fresh tool; every outcome and change event was streamed to the test
// as it happened (over HTTP, tabs/report-server.ts), so the history, the events and the replies can be held against
// each other. Also: a tab closed mid-storm. An engine's storms share its browser while they pass (each on a fresh
// database, its tabs closed after it: tabs/kept-browser.ts).
//
// Seeds: STORM_SEEDS="1,2,3" (storm), STORM_PRUNE_SEEDS, STORM_CLOSE_SEEDS; STORM_OPS ops per participant.

import { describe, expect } from 'vitest';
import { servedForFile, startDevServer } from './harness.js';
import type { Engine, Tab, TabBrowser } from './tabs/driver.js';
import { ENGINES, itIn } from './tabs/engines.js';
import { keptBrowsersForFile } from './tabs/kept-browser.js';
import type { ReportChannel } from './tabs/report-server.js';
import { reportServerForFile } from './tabs/report-server.js';
import type { Inspection, StormConfig, StormMessage } from './pages/storm-driver.js';
import { BIG_FILES, BULK_FILES } from './pages/storm-driver.js';
import type { MemoryToolErrorCode } from '../../src/index.js';
import { RANDOM_REFUSALS } from '../helpers/random-refusals.js';
import type { MemoryChange } from '../../src/core/change-events.js';
import type { LocalEvent } from './storm-events.js';
import { attribute, isWrite, key, match } from './storm-events.js';

const PAGE = 'test/e2e/pages/storm.html';
const seeds = (name: string, fallback: number[]): number[] =>
  process.env[name] ? process.env[name]!.split(',').map((s) => Number(s.trim())) : fallback;
const STORM_SEEDS = seeds('STORM_SEEDS', [1, 2]);
const PRUNE_SEEDS = seeds('STORM_PRUNE_SEEDS', [11]);
const CLOSE_SEEDS = seeds('STORM_CLOSE_SEEDS', [21, 22]);
const OPS = Number(process.env.STORM_OPS ?? 300);
// An op that takes longer than this counts as hung: long enough for a machine whose cores are busy with other work.
const TIMEOUT_MS = 120_000;

const server = servedForFile(startDevServer);
const reports = reportServerForFile();
const browsers = keptBrowsersForFile();
let dbCounter = 0;

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

/**
 * `body` on `engine`'s browser (kept from the last storm that passed, see tabs/kept-browser.ts), its storm tabs
 * reporting to `log`; the report channel closed after it.
 */
async function withStormBrowser(engine: Engine, body: (browser: TabBrowser, log: Log, channel: ReportChannel) => Promise<string[]>): Promise<string[]> {
  const log = new Log();
  const channel = reports.channel((messages: StormMessage[]) => {
    log.messages.push(...messages);
  });
  try {
    return await browsers.run(engine, (browser) => body(browser, log, channel), (problems) => problems.length === 0);
  } finally {
    channel.close();
  }
}

/** A new tab on the storm page, reporting to the test: its messages, and its uncaught errors as `pageerror`. */
async function openTab(browser: TabBrowser, channel: ReportChannel): Promise<Tab> {
  const tab = await browser.openTab(`${server.url}${PAGE}`);
  await tab.waitFor(() => document.body.dataset.ready === 'true', undefined);
  await channel.install(tab, 'stormReport');
  await tab.evaluate(() => {
    const report = (error: unknown): void =>
      void window.stormReport?.([{ type: 'stray', tab: 'pageerror', changes: [{ type: 'write', path: String(error) }], t: Date.now() }]).catch(() => undefined);
    window.addEventListener('error', (event) => report(event.error ?? event.message));
    window.addEventListener('unhandledrejection', (event) => report(event.reason));
  });
  return tab;
}

interface Participant {
  config: StormConfig;
  page: Tab;
  worker: boolean;
}

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

interface Closed {
  tab: string;
  at: number;
}

type Start = Extract<StormMessage, { type: 'start' }>;

/** The journal records (signatures as `sig` makes them) that the started op `start` may leave under its tab's name. */
function recordsOf(start: Start): string[] {
  if (start.command && start.paths) return [`${start.command} ${start.paths.join(' ')}`];
  if (start.kind === 'big-rename') return ['rename /memories/big /memories/big2', 'rename /memories/big2 /memories/big'];
  if (start.kind === 'bulk') return ['delete /memories/bulk'];
  // Undos and imports are journaled as `user`; views leave none.
  return [];
}

/** The `items` that no distinct slot accepts, each slot taking at most one (a matching, by augmenting paths). */
function unassigned(items: string[], slots: string[][]): string[] {
  const held = new Set(match(items.length, slots.length, (s, item) => slots[s]!.includes(items[item]!)));
  return items.filter((_, k) => !held.has(k));
}

/** The local change events `tab` reported, in the order it published them. */
function localEvents(log: Log, tab: string): LocalEvent[] {
  return log
    .of(tab)
    .filter((m): m is LocalEvent => m.type === 'event' && m.source === 'local' && m.n !== undefined)
    .sort((a, b) => a.n - b.n);
}

/**
 * Everything the storm's messages and the final look at the stores must agree on; returns the problems found.
 * `prune`: some tool prunes the journal, so only its newest records can be held against the replies. `before`: ids of
 * the records made before the storm (no op answers for them; the storm's undos may still mark them undone).
 *
 * `closed`: that tab was closed mid-storm, and the test may never get the messages it posted last (a post under way
 * when a page closes may be cut off). Its ops run only once the test has their start (`ackStarts`), so the ops whose
 * outcome the test does not know are exactly those with a start and no outcome here: each may have committed or not.
 * Whatever the history or the other tabs show beyond the tab's answers must be explained by those, one each.
 */
function analyse(parts: Participant[], log: Log, seen: Inspection, options: { prune: boolean; closed?: Closed; before?: number[] }): string[] {
  const problems: string[] = [...seen.problems.map((p) => `store: ${p}`)];
  const closed = options.closed;
  const unknown: Start[] = [];
  // Each tab's events that an op it answered published, in the order it published them.
  const answeredEvents = new Map<string, LocalEvent[]>();
  for (const { config } of parts) {
    const tab = config.name;
    const ops = log.ops(tab);
    const isClosed = closed?.tab === tab;
    if (!isClosed && ops.length !== config.ops) problems.push(`${tab}: ${ops.length} of ${config.ops} ops reported`);
    if (!isClosed && !log.of(tab).some((m) => m.type === 'done')) problems.push(`${tab}: never finished`);
    if (isClosed) {
      const answered = new Set(ops.map((op) => op.i));
      unknown.push(...log.of(tab).filter((m): m is Start => m.type === 'start' && !answered.has(m.i)));
    }
    for (const op of ops) {
      if (op.code === 'hung') problems.push(`${tab} op ${op.i} (${op.kind}) hung > ${TIMEOUT_MS} ms`);
      else if (!op.ok && !RANDOM_REFUSALS.has((op.code ?? '') as MemoryToolErrorCode)) problems.push(`${tab} op ${op.i} ${op.detail}: unexpected ${op.code}: ${op.message}`);
    }
    const attribution = attribute(tab, ops, localEvents(log, tab), isClosed);
    problems.push(...attribution.problems);
    answeredEvents.set(tab, attribution.held);
    for (const m of log.of(tab)) if (m.type === 'late') problems.push(`${tab} op ${m.i} (${m.kind}) answered after ${m.ms} ms`);
  }
  for (const m of log.of('pageerror')) if (m.type === 'stray') problems.push(`page error: ${key(m.changes)}`);

  const visible = seen.journal.filter((r) => !r.hidden);
  const made = visible.filter((r) => !options.before?.includes(r.id));
  const sig = (command: string, paths: string[]): string => `${command} ${paths.join(' ')}`;
  const okCount = (pred: (op: Extract<StormMessage, { type: 'op' }>) => boolean, historyOnly: boolean): number =>
    parts
      .filter((p) => !historyOnly || p.config.history !== false)
      .reduce((sum, p) => sum + log.ops(p.config.name).filter((op) => op.ok && pred(op)).length, 0);
  const records = (tab: string): string[] => visible.filter((r) => r.actor === tab).map((r) => sig(r.command, r.paths));
  const committed = (tab: string): string[] =>
    log
      .ops(tab)
      .filter((op) => op.ok && isWrite(op.command))
      .sort((x, y) => (x.seq ?? x.i) - (y.seq ?? y.i))
      .map((op) => sig(op.command!, op.paths!));
  // The closed tab's ops of unknown outcome that could each have left one more change of one of these kinds.
  const slackOf = (kinds: string[]): number => unknown.filter((s) => kinds.includes(s.kind)).length;
  // The history's count of each kind of change (journaled as `user` or `expire`) and the ops answered ok for it.
  const kinds = [
    { what: 'undo records', records: made.filter((r) => r.command === 'undo').length, ok: okCount((op) => op.command === 'undo', true), slack: slackOf(['undo-latest', 'undo-pick', 'undo-raw']) },
    { what: 'undone marks', records: visible.filter((r) => r.undone).length, ok: okCount((op) => op.command === 'undo', false), slack: slackOf(['undo-latest', 'undo-pick', 'undo-raw']) },
    { what: 'import records', records: made.filter((r) => r.command === 'import').length, ok: okCount((op) => op.command === 'import', true), slack: slackOf(['import', 'reimport', 'bulk']) },
    { what: 'expire records', records: made.filter((r) => r.command === 'expire').length, ok: okCount((op) => op.command === 'expire', true), slack: slackOf(['expire']) },
  ];
  // The closed tab's command records beyond its answers, and those of them that no op of unknown outcome can have
  // left (each op leaves one at most).
  const closedPart = parts.find((p) => p.config.name === closed?.tab);
  const closedExtra = closedPart && closedPart.config.history !== false ? minus(records(closedPart.config.name), committed(closedPart.config.name)) : [];
  const unexplained = unassigned(closedExtra, unknown.map(recordsOf));
  // Its commits the test has no answer for, as the history shows them and its ops of unknown outcome explain them
  // (each publishes one event), or, if it keeps no history, every op whose outcome is unknown.
  const unanswered = !closedPart
    ? 0
    : closedPart.config.history === false
      ? unknown.length
      : closedExtra.length - unexplained.length +
        kinds.filter((k) => k.what !== 'undone marks').reduce((sum, k) => sum + Math.min(Math.max(0, k.records - k.ok), k.slack), 0);

  // Every participant heard every other's committed changes, and nothing else.
  for (const { config } of parts) {
    const tab = config.name;
    if (closed?.tab === tab) continue;
    const heard = log.of(tab).filter((m) => m.type === 'event' && m.source === 'remote').map((m) => key((m as { changes: MemoryChange[] }).changes));
    const sent = parts
      .filter((other) => other.config.name !== tab && other.config.name !== closed?.tab)
      .flatMap((other) => localEvents(log, other.config.name).map((event) => key(event.changes)));
    const missing = minus(sent, heard);
    if (missing.length) {
      // Where they were in the stream says which side lost them: the first ones (a tool that was not listening yet)
      // or the last (messages still on their way to the test).
      const at = missing.slice(0, 3).map((change) => sent.lastIndexOf(change));
      problems.push(`${tab} never heard ${missing.length} of the ${sent.length} remote changes, e.g. ${missing.slice(0, 3).join(' ')} (#${at.join(', #')})`);
    }
    let extra = minus(heard, sent);
    let allowed = 0;
    if (closed) {
      // A tab's changes reach another in the order it published them, which is the order of its answers (each posted
      // right after its command published). The close may cut that stream anywhere, so this tab heard a first part of
      // the closed tab's answered changes, then, if it heard them all, some of those it committed unanswered (after all
      // the answered ones: the test lost the last messages). Anything else is a lost or an invented event.
      const answered = (answeredEvents.get(closed.tab) ?? []).map((event) => key(event.changes));
      const left = multiset(extra);
      let firstUnheard: string | undefined;
      for (const change of answered) {
        const n = left.get(change) ?? 0;
        if (n === 0) firstUnheard ??= change;
        else {
          left.set(change, n - 1);
          if (firstUnheard !== undefined) problems.push(`${tab} heard ${closed.tab}'s ${change} but not its earlier ${firstUnheard}`);
        }
      }
      extra = [...left].flatMap(([change, n]) => new Array<string>(n).fill(change));
      allowed = firstUnheard === undefined ? unanswered : 0;
    }
    if (extra.length > allowed) {
      problems.push(`${tab} heard ${extra.length} remote changes no one reported (${allowed} may come from commands the closed tab committed unanswered), e.g. ${extra.slice(0, 3).join(' ')}`);
    }
  }

  // The history against the replies.
  for (const { config } of parts) {
    const tab = config.name;
    const mine = records(tab);
    const ok = committed(tab);
    if (config.history === false) {
      if (mine.length) problems.push(`${tab} keeps no history but the journal has ${mine.length} of its changes`);
      continue;
    }
    if (closed?.tab === tab) {
      const missing = minus(ok, mine);
      if (missing.length) problems.push(`${tab} (closed): ${missing.length} commands it was told committed are not in the history, e.g. ${missing.slice(0, 3).join('; ')}`);
      // Each record beyond its answers must be one an op of unknown outcome could leave, one per op.
      if (unexplained.length) {
        problems.push(`${tab} (closed): ${unexplained.length} history records that none of its ${unknown.length} commands of unknown outcome (${unknown.map((s) => `${s.i} ${s.kind}`).join(', ')}) can have left, e.g. ${unexplained.slice(0, 3).join('; ')}`);
      }
      continue;
    }
    if (options.prune) {
      const tail = ok.slice(ok.length - mine.length);
      if (mine.length > ok.length || key(tail as never) !== key(mine as never)) {
        problems.push(`${tab}: its ${mine.length} records in the pruned history are not the last of its ${ok.length} committed commands`);
      }
    } else if (key(mine as never) !== key(ok as never)) {
      const missing = minus(ok, mine);
      const extra = minus(mine, ok);
      problems.push(
        `${tab}: history ≠ committed commands (${mine.length} records, ${ok.length} ok): missing ${missing.slice(0, 3).join('; ')} extra ${extra.slice(0, 3).join('; ')}` +
          (missing.length + extra.length === 0 ? ` (same set, other order from #${mine.findIndex((r, k) => r !== ok[k])}: ${mine.slice(mine.findIndex((r, k) => r !== ok[k])).slice(0, 3).join('; ')} vs ${ok.slice(mine.findIndex((r, k) => r !== ok[k])).slice(0, 3).join('; ')})` : ''),
      );
    }
  }
  if (!options.prune) {
    for (const k of kinds) {
      if (k.records < k.ok || k.records > k.ok + k.slack) problems.push(`${k.what}: ${k.records} in the history, ${k.ok} answered ok${k.slack ? ` (+${k.slack} unknown)` : ''}`);
    }
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

/**
 * Whether every message the analysis needs is here: each open participant's end, and every change one published
 * heard by each other open one. (The closed tab's changes are not waited for: the close may have cut them off.)
 */
function settled(parts: Participant[], log: Log, closedTab: string | undefined): boolean {
  const open = parts.map((p) => p.config.name).filter((tab) => tab !== closedTab);
  if (!open.every((tab) => log.of(tab).some((m) => m.type === 'done'))) return false;
  return open.every((tab) => {
    const heard = log.of(tab).filter((m) => m.type === 'event' && m.source === 'remote').map((m) => key((m as { changes: MemoryChange[] }).changes));
    const sent = open.filter((other) => other !== tab).flatMap((other) => localEvents(log, other).map((event) => key(event.changes)));
    return minus(sent, heard).length === 0;
  });
}

/** Whether `condition()` came to hold within `limitMs` (if not, the analysis says what is missing). */
async function until(condition: () => boolean, limitMs: number): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (!condition() && Date.now() < end) await new Promise((done) => setTimeout(done, 100));
  return condition();
}

/**
 * The participants' storm, all at once; `close` closes that tab `afterMs` after the start. Every participant's tool is
 * open and listening before any starts (on a busy machine a worker's may take seconds to load), then they all start
 * at one wall-clock time, a moment ahead because the drivers pass the calls to the tabs one after the other.
 */
async function storm(parts: Participant[], log: Log, close?: { tab: string; afterMs: number }): Promise<{ ms: number; closed?: Closed }> {
  const opening = Date.now();
  await Promise.all(parts.map((p) => p.page.evaluate(([config, inWorker]) => window.storm.prepare(config, inWorker), [p.config, p.worker] as const)));
  console.info(`[storm] every tool open and listening after ${Date.now() - opening} ms`);
  const startAt = Date.now() + 1000;
  const runs = parts.map((p) =>
    p.page
      .evaluate(([name, at]) => window.storm.go(name, at), [p.config.name, startAt] as const)
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
  // The posts between tabs go a task after their command, and each message reaches the test some time after it was
  // posted (long after, on a busy machine): wait for them, not for a guessed time.
  const waited = Date.now();
  if (!(await until(() => settled(parts, log, close?.tab), 120_000))) console.info(`[storm] messages still missing ${Date.now() - waited} ms after the end`);
  return { ms, ...(closed ? { closed } : {}) };
}

/**
 * A fresh tab's raw look at the stores, then `judge` (before the probe writes anything), then a fresh tool's check.
 * The raw look waits as long as the browser makes it (WebKit first rolls back what a closed tab left half done).
 */
async function lookAfter(browser: TabBrowser, channel: ReportChannel, db: string, judge: (seen: Inspection) => string[]): Promise<{ seen: Inspection; problems: string[] }> {
  const page = await openTab(browser, channel);
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

async function runMixed(engine: Engine, seed: number, prune: boolean): Promise<string[]> {
  return withStormBrowser(engine, async (browser, log, channel) => {
    const db = freshDbName();
    const [a, b, c] = [await openTab(browser, channel), await openTab(browser, channel), await openTab(browser, channel)];
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
    const { ms } = await storm(parts, log);
    const { seen, problems } = await lookAfter(browser, channel, db, (s) => analyse(parts, log, s, { prune }));
    console.info(`[storm ${engine.name}] seed ${seed}${prune ? ' (C prunes at 40)' : ''}: ${summary(parts, log, seen, ms)}\n  problems: ${problems.length}`);
    for (const p of problems.slice(0, 40)) console.info(`  ! ${p}`);
    return problems;
  });
}

async function closeMidStorm(engine: Engine, seed: number): Promise<string[]> {
  return withStormBrowser(engine, async (browser, log, channel) => {
    const db = freshDbName();
    const [a, b, c] = [await openTab(browser, channel), await openTab(browser, channel), await openTab(browser, channel)];
    const seedId = await a.evaluate((name) => window.storm.seedBig(name), db);
    const cfg = (name: string, k: number): StormConfig => ({ ...base(db, name, seed * 10 + k), destructive: false, big: true, bigShare: 0.06, protect: [seedId] });
    const parts: Participant[] = [
      { config: cfg('A', 1), page: a, worker: false },
      { config: { ...cfg('B', 2), history: false }, page: b, worker: false },
      // The tab that is closed runs mostly the big ones: a 150-file rename, a 200-file import or delete. Each op
      // only once the test has its start: the test may never get what it posts last (see `analyse`).
      { config: { ...cfg('C', 3), bigShare: 0.5, ackStarts: true }, page: c, worker: false },
    ];
    const afterMs = 800 + ((seed * 7919) % 3000);
    const { ms, closed } = await storm(parts, log, { tab: 'C', afterMs });
    const { seen, problems } = await lookAfter(browser, channel, db, (s) => analyse(parts, log, s, { prune: false, before: [seedId], ...(closed ? { closed } : {}) }));
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
      `[storm ${engine.name}] close seed ${seed}: C closed ${afterMs} ms in, after ${cOps.length} ops reported, ${inFlight} in flight (${log
        .of('C')
        .filter((m) => m.type === 'start' && !cOps.some((op) => op.i === (m as { i: number }).i))
        .map((m) => (m as { kind: string }).kind)
        .join(',')}); big ${big.join('/')}, bulk ${bulk}\n${summary(parts, log, seen, ms)}\n  problems: ${problems.length}`,
    );
    for (const p of problems.slice(0, 40)) console.info(`  ! ${p}`);
    return problems;
  });
}

for (const engine of ENGINES) {
  describe(engine.label, () => {
    describe('a storm of three tabs and a worker', () => {
      for (const seed of STORM_SEEDS) {
        itIn(engine, [], `keeps the stores, the history and the events consistent (seed ${seed})`, async () => {
          expect(await runMixed(engine, seed, false)).toEqual([]);
        }, 300_000);
      }
      for (const seed of PRUNE_SEEDS) {
        itIn(engine, [], `keeps them consistent while one tool prunes the history (seed ${seed})`, async () => {
          expect(await runMixed(engine, seed, true)).toEqual([]);
        }, 300_000);
      }
    });

    describe('a tab closed mid-storm', () => {
      for (const seed of CLOSE_SEEDS) {
        itIn(engine, [], `leaves no half command (seed ${seed})`, async () => {
          expect(await closeMidStorm(engine, seed)).toEqual([]);
        }, 300_000);
      }
    });
  });
}
