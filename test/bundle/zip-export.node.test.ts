// A zip exported here, opened by the system's unzip (Info-ZIP, /usr/bin/unzip): it tests clean, and unzips to the
// memory's tree, every file byte for byte, the empty folders, each file and folder with its modification time to
// the second, files -rw-r--r-- and folders drwxr-xr-x. Node only: it runs a program on a temp folder.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleOf } from '../helpers/bundles.js';
import { bundleTools } from './tools.js';

const UNZIP = '/usr/bin/unzip';
const { freshTool } = bundleTools();
const cleanups: string[] = [];
afterEach(async () => {
  for (const dir of cleanups.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Every path below `dir`, relative, folders with a trailing slash. */
async function walk(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) out.push(`${path}/`, ...(await walk(dir, `${path}/`)));
    else out.push(path);
  }
  return out;
}

describe('a zip exported here, in the system unzip', () => {
  it.skipIf(!existsSync(UNZIP))(`tests clean and unzips to the memory, byte for byte and time for time (skipped without ${UNZIP})`, async () => {
    const tool = await freshTool();
    // 1 MiB of varied text, so deflate has real work (and several blocks) to do.
    const big = Array.from({ length: 16_384 }, (_, i) => `${i.toString(36)} ${'αβγ'.repeat(i % 7)} line\n`).join('').slice(0, 1_000_000);
    const files: Record<string, string> = {
      '/memories/notes.md': '# Notes\n- one\n',
      '/memories/empty.md': '',
      '/memories/crlf.txt': 'a\r\nb\r\n',
      '/memories/bom.md': '\ufeffwith a BOM\n',
      '/memories/café/日本語 ノート.md': 'Grüße 👋🏽 — ☃\n',
      '/memories/deep/er/est.md': 'bottom\n',
      '/memories/.hidden/x.md': 'hidden\n',
      '/memories/big.txt': big,
    };
    const bundle = JSON.parse(await bundleOf(files, ['/memories/blank', '/memories/deep/hollow'])) as {
      files: { path: string; updatedAt: string }[];
    };
    // Each file a different time, one before 1980 (no MS-DOS date) and one after 2038 (past a signed 32-bit time).
    const times = ['1975-06-07T08:09:10.000Z', '2039-01-02T03:04:05.000Z', '2021-03-04T05:06:07.999Z'];
    bundle.files.forEach((file, i) => Object.assign(file, { updatedAt: times[i % times.length] }));
    await tool.importBundle(JSON.stringify(bundle));

    const dir = await mkdtemp(join(tmpdir(), 'memory-zip-export-'));
    cleanups.push(dir);
    const zipPath = join(dir, 'memory.zip');
    await writeFile(zipPath, new Uint8Array(await (await tool.exportBundle({ format: 'zip' })).arrayBuffer()));
    const env = { ...process.env, LC_ALL: 'C.UTF-8' };
    expect(execFileSync(UNZIP, ['-t', zipPath], { env, encoding: 'utf8' })).toContain('No errors detected');
    execFileSync(UNZIP, ['-q', zipPath, '-d', join(dir, 'out')], { env });

    const entries = await tool.list();
    const expected = ['memories/', ...entries.map((entry) => `${entry.path.slice(1)}${entry.kind === 'folder' ? '/' : ''}`)];
    expect((await walk(join(dir, 'out'))).sort()).toEqual(expected.sort());
    for (const entry of entries) {
      const onDisk = join(dir, 'out', entry.path);
      const info = await stat(onDisk);
      if (entry.kind === 'file') {
        const bytes = new Uint8Array(await readFile(onDisk));
        expect(Buffer.compare(bytes, new TextEncoder().encode(files[entry.path])), entry.path).toBe(0);
        expect(info.mode & 0o777, entry.path).toBe(0o644);
      } else {
        expect(info.mode & 0o777, entry.path).toBe(0o755);
      }
      // The zip keeps the time to the second (its extended timestamp field), and unzip restores it.
      expect(info.mtimeMs, entry.path).toBe(Math.floor(entry.updatedAt.getTime() / 1000) * 1000);
    }
  }, 120_000);
});
