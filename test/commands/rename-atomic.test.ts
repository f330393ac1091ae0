// A rename sends its journal record in the same synchronous run as its writes, after every read: a page closed
// mid-rename cannot leave the folder moved without its record, even where the browser commits what a closing page had
// already sent (Firefox).

import { expect, it } from 'vitest';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { writesAnsweredAtRecord } from '../helpers/request-spy.js';

const fresh = freshToolEach('rename-atomic');

it('sends the journal record before any of its moves has been answered', async () => {
  for (let i = 0; i < 100; i++) await fresh.create(`/memories/from/${i}.md`, `${i}\n`);
  let reply = '';
  const { writes, answeredAtRecord } = await writesAnsweredAtRecord(async () => {
    reply = await fresh.tool.rename({ command: 'rename', old_path: '/memories/from', new_path: '/memories/deep/to' });
  }, ['entries']);
  expect(reply).toBe('Successfully renamed /memories/from to /memories/deep/to');
  // The folder and its 100 files put at their new paths, the two deletes, and the new parent folder.
  expect(writes).toBe(104);
  expect(answeredAtRecord).toEqual([0]);
});
