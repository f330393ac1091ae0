// The timing loop and the memories the benchmark measures on, shared by page.ts (the table) and profile.ts.
// A memory is opened by the library (which makes the stores) and by a raw connection beside it.

import { IndexedDBMemoryTool } from '../../src/index.js';
import type { IndexedDBMemoryToolOptions } from '../../src/index.js';
import { bulkPath, makeText } from './fixtures.js';
import type { Reps } from './fixtures.js';
import * as raw from './raw.js';
import type { RawFile } from './raw.js';

/** One side of a case: the timed `run`, with untimed set-up and clean-up around it. */
export interface Side {
  run(i: number): Promise<unknown>;
  before?(i: number): Promise<void>;
  after?(i: number): Promise<void>;
}

/**
 * Runs every side once a round, `warmup` rounds untimed, and gives each side's timings. The order rotates every
 * round, so no side always goes first or always follows the same one: the machine's noise hits them alike.
 */
export async function measureSides<K extends string>(reps: Reps, sides: Record<K, Side>): Promise<Record<K, number[]>> {
  const names = Object.keys(sides) as K[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < reps.warmup + reps.reps; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + i) % names.length] as K;
      const side = sides[name];
      await side.before?.(i);
      const start = performance.now();
      await side.run(i);
      const took = performance.now() - start;
      await side.after?.(i);
      if (i >= reps.warmup) times[name].push(took);
    }
  }
  return times;
}

/** Runs `lib` and `raw` alternately (which goes first flips every round), `warmup` rounds untimed. */
export function measure(reps: Reps, lib: Side, rawSide: Side): Promise<{ lib: number[]; raw: number[] }> {
  return measureSides(reps, { lib, raw: rawSide });
}

/** The bulk layout (1 KB files in folders of 100) under `root`, as records. */
export function bulkFiles(root: string, files: number, bytes: number, now: number): RawFile[] {
  return Array.from({ length: files }, (_, i) => ({
    path: bulkPath(root, i),
    content: makeText(bytes, i + 1),
    createdAt: now,
    updatedAt: now,
  }));
}

/** A memory opened by the library (which makes the stores) and by a raw connection beside it. */
export async function openMemory(
  name: string,
  options: IndexedDBMemoryToolOptions = {},
): Promise<{ tool: IndexedDBMemoryTool; db: IDBDatabase; close(): Promise<void> }> {
  const tool = await IndexedDBMemoryTool.init({ ...options, dbName: name });
  const db = await raw.openRaw(name);
  return {
    tool,
    db,
    async close() {
      tool.close();
      db.close();
      // The library closes its connection asynchronously; give it a moment before deleting.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await raw.deleteDatabase(name);
    },
  };
}

