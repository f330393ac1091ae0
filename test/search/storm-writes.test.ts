// Seeded storms of every write path (two tabs, commands, imports, undo, expiry, forget, clearHistory, a sync pull)
// with searches from either tab, each held to the oracle built from the files at that moment (helpers/search-storm.ts).
//
// Replaying: a failure prints its seed, its step and the command line that replays it. In Node, SEARCH_STORM_SEEDS=7,8
// runs those seeds (default 1,2) and SEARCH_STORM_STEPS=n steps a seed (default 60); a browser runs the defaults.
// STORM_FOUND keeps the seeds that once failed, run every time with the default steps.

import { describe, expect, it } from 'vitest';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { searchStorm } from '../helpers/search-storm.js';

/** Seeds that once failed, with what they found; each runs on every run. */
const STORM_FOUND: Array<{ seed: number; found: string }> = [];

const SEEDS = (globalThis.process?.env['SEARCH_STORM_SEEDS'] ?? '1,2').split(',').map(Number);
const STEPS = Number(globalThis.process?.env['SEARCH_STORM_STEPS'] ?? 60);

const open = toolsClosedAfterEach('search-storm');

describe('search under a storm of writes from two tabs', () => {
  const seeds = [...new Set([...SEEDS, ...STORM_FOUND.map((found) => found.seed)])];
  it.each(seeds)('answers every search as the oracle does from the files of that moment (seed %i)', async (seed) => {
    const a = await open();
    const b = await open({ dbName: a.dbName });
    const report = await searchStorm(seed, STEPS, a, b);
    // The storm searched, and its files were not all gone: a storm that never searched proves nothing.
    expect(report.searches).toBeGreaterThan(STEPS / 5);
  }, 300_000);
});
