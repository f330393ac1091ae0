// An import sends its journal record in the same synchronous run as its writes: a page closed mid-import cannot leave
// files without their record, even where the browser commits what a closing page had already sent (Firefox does;
// test/e2e/tabs.test.ts closes a tab mid-import in each engine).

import { afterEach, expect, it, vi } from 'vitest';
import { bundleOf } from '../helpers/bundles.js';
import { bundleTools } from './tools.js';

const { freshTool } = bundleTools();
afterEach(() => {
  vi.restoreAllMocks();
});

it('sends the journal record before any of its file writes has been answered', async () => {
  const tool = await freshTool();
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) files[`/memories/many/${i}.md`] = `file ${i}\n`;
  const bundle = await bundleOf(files);
  const writes: IDBRequest[] = [];
  const answeredAtRecord: number[] = [];
  const { put, add } = IDBObjectStore.prototype;
  vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    const request = put.apply(this, args);
    if (this.name === 'entries') writes.push(request);
    return request;
  });
  vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['add']>) {
    const request = add.apply(this, args);
    if (this.name === 'bodies') writes.push(request);
    if (this.name === 'journal') answeredAtRecord.push(writes.filter((write) => write.readyState === 'done').length);
    return request;
  });
  const report = await tool.importBundle(bundle);
  expect(report.added).toBe(200);
  // 200 files and their bodies, and the folder they are in.
  expect(writes).toHaveLength(401);
  expect(answeredAtRecord).toEqual([0]);
});
