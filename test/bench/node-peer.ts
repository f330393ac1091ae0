// The peer column: the official SDK's BetaLocalFilesystemMemoryTool (Node, on a temp folder of the same disk)
// running the page's command script on the same files. Node only; it has no export or import, so those rows
// have no peer. Its writes fsync each file (IndexedDB in Chromium commits with relaxed durability).

import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import {
  BULK_FILE_BYTES,
  FILE_SIZES,
  INSERT_TEXT,
  SMALL_FILES,
  TOKEN_A,
  TOKEN_B,
  editTargetBytes,
  bulkPath,
  makeText,
} from './fixtures.js';
import type { Reps, ScenarioPlan } from './fixtures.js';

/** Timings keyed like the page's rows: `command|files|size`. */
export type PeerTimes = Map<string, number[]>;
export const peerKey = (command: string, files: number, size: string): string => `${command}|${files}|${size}`;

async function time(reps: Reps, run: (i: number) => Promise<unknown>, before?: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < reps.warmup + reps.reps; i++) {
    await before?.();
    const start = performance.now();
    await run(i);
    const took = performance.now() - start;
    if (i >= reps.warmup) out.push(took);
  }
  return out;
}

/** Writes `/memories/...` files straight to disk (untimed set-up). */
async function seed(root: string, files: readonly { path: string; content: string }[]): Promise<void> {
  const dirs = new Set(files.map((file) => dirname(join(root, file.path))));
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  for (let i = 0; i < files.length; i += 64) {
    await Promise.all(files.slice(i, i + 64).map((file) => writeFile(join(root, file.path), file.content)));
  }
}

const tag = (label: string): string => label.replace(/\s/gu, '').toLowerCase();

/** The page's scenario `plan` on the SDK's Node tool; `log` hears one line per case. */
export async function runPeerScenario(plan: ScenarioPlan, log: (line: string) => void): Promise<PeerTimes> {
  const base = await mkdtemp(join(tmpdir(), 'idb-memory-bench-'));
  const times: PeerTimes = new Map();
  const put = (command: string, size: string, values: number[]): void => {
    times.set(peerKey(command, plan.files, size), values);
    const sorted = [...values].sort((a, b) => a - b);
    log(`  ${command.padEnd(22)} ${String(plan.files).padStart(6)} files ${size.padStart(6)}: SDK Node tool ${(sorted[sorted.length >> 1] ?? NaN).toFixed(3)} ms`);
  };
  try {
    const tool = await BetaLocalFilesystemMemoryTool.init(base);
    const bulk = '/memories/bulk';
    const bulkFiles = Array.from({ length: plan.files }, (_, i) => ({ path: bulkPath(bulk, i), content: makeText(BULK_FILE_BYTES, i + 1) }));
    const small = Array.from({ length: SMALL_FILES }, (_, i) => ({ path: `/memories/small/f${i}.md`, content: makeText(BULK_FILE_BYTES, 1_000_000 + i) }));
    const targets = FILE_SIZES.map((size) => ({ path: `/memories/work/peer-${tag(size.label)}.md`, content: makeText(editTargetBytes(size.bytes), size.bytes, true) }));
    await seed(base, [...bulkFiles, ...small, ...targets]);
    await mkdir(join(base, '/memories/work/new'), { recursive: true });

    for (const size of FILE_SIZES) {
      const reps = plan.single[size.label];
      if (!reps) continue;
      const t = tag(size.label);
      const content = makeText(size.bytes, 7 * size.bytes);
      const file = `/memories/work/peer-${t}.md`;
      const created = (i: number): string => `/memories/work/new/peer-${t}-${i}.md`;
      put('create', size.label, await time(reps, (i) => tool.create({ command: 'create', path: created(i), file_text: content })));
      put('view', size.label, await time(reps, () => tool.view({ command: 'view', path: file })));
      put('str_replace', size.label, await time(reps, (i) => {
        const [oldStr, newStr] = i % 2 === 0 ? [TOKEN_A, TOKEN_B] : [TOKEN_B, TOKEN_A];
        return tool.str_replace({ command: 'str_replace', path: file, old_str: oldStr, new_str: newStr });
      }));
      put('insert', size.label, await time(reps, () => tool.insert({ command: 'insert', path: file, insert_line: 1, insert_text: INSERT_TEXT })));
      put('delete', size.label, await time(reps, (i) => tool.delete({ command: 'delete', path: created(i) })));
    }
    if (plan.list && plan.files > 0) put('list folder', '1 KB', await time(plan.list, () => tool.view({ command: 'view', path: bulk })));
    if (plan.listSmall) put('list 10-file folder', '1 KB', await time(plan.listSmall, () => tool.view({ command: 'view', path: '/memories/small' })));
    if (plan.renameFolder && plan.files > 0) {
      let at = bulk;
      put('rename folder', '1 KB', await time(plan.renameFolder, () => {
        const from = at;
        at = at === bulk ? `${bulk}-moved` : bulk;
        return tool.rename({ command: 'rename', old_path: from, new_path: at });
      }));
      if (at !== bulk) await tool.rename({ command: 'rename', old_path: at, new_path: bulk });
    }
    if (plan.deleteFolder && plan.files > 0) {
      const restore = async (): Promise<void> => {
        const there = await stat(join(base, bulk)).then(() => true, () => false);
        if (!there) await seed(base, bulkFiles);
      };
      put('delete folder', '1 KB', await time(plan.deleteFolder, () => tool.delete({ command: 'delete', path: bulk }), restore));
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  return times;
}
