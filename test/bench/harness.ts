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

/** Runs `lib` and `raw` alternately (which goes first flips every round), `warmup` rounds untimed. */
export async function measure(reps: Reps, lib: Side, rawSide: Side): Promise<{ lib: number[]; raw: number[] }> {
  const out = { lib: [] as number[], raw: [] as number[] };
  const sides = [
    ['lib', lib],
    ['raw', rawSide],
  ] as const;
  for (let i = 0; i < reps.warmup + reps.reps; i++) {
    for (const [name, side] of i % 2 === 0 ? sides : [...sides].reverse()) {
      await side.before?.(i);
      const start = performance.now();
      await side.run(i);
      const took = performance.now() - start;
      await side.after?.(i);
      if (i >= reps.warmup) out[name].push(took);
    }
  }
  return out;
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

