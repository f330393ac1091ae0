// A rename sends its journal record in the same synchronous run as its writes, after every read: a page closed
// mid-rename cannot leave the folder moved without its record, even where the browser commits what a closing page had
// already sent (Firefox).

import { afterEach, expect, it, vi } from 'vitest';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('rename-atomic');
afterEach(() => {
  vi.restoreAllMocks();
});

it('sends the journal record before any of its moves has been answered', async () => {
  for (let i = 0; i < 100; i++) await fresh.create(`/memories/from/${i}.md`, `${i}\n`);
  const moves: IDBRequest[] = [];
  const answeredAtRecord: number[] = [];
  const { put, delete: remove, add } = IDBObjectStore.prototype;
  vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    const request = put.apply(this, args);
    if (this.name === 'entries') moves.push(request);
    return request;
  });
  vi.spyOn(IDBObjectStore.prototype, 'delete').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['delete']>) {
    const request = remove.apply(this, args);
    if (this.name === 'entries') moves.push(request);
    return request;
  });
  vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['add']>) {
    const request = add.apply(this, args);
    if (this.name === 'journal') answeredAtRecord.push(moves.filter((move) => move.readyState === 'done').length);
    return request;
  });
  expect(await fresh.tool.rename({ command: 'rename', old_path: '/memories/from', new_path: '/memories/deep/to' })).toBe(
    'Successfully renamed /memories/from to /memories/deep/to',
  );
  // The folder and its 100 files put at their new paths, the two deletes, and the new parent folder.
  expect(moves).toHaveLength(104);
  expect(answeredAtRecord).toEqual([0]);
});
