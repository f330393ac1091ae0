// An import sends its journal record in the same synchronous run as its writes: a page closed mid-import cannot leave
// files without their record, even where the browser commits what a closing page had already sent (Firefox does;
// test/e2e/tabs.test.ts closes a tab mid-import in each engine).

import { expect, it } from 'vitest';
import { bundleOf } from '../helpers/bundles.js';
import { writesAnsweredAtRecord } from '../helpers/request-spy.js';
import { bundleTools } from './tools.js';

const { freshTool } = bundleTools();

it('sends the journal record before any of its file writes has been answered', async () => {
  const tool = await freshTool();
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) files[`/memories/many/${i}.md`] = `file ${i}\n`;
  const bundle = await bundleOf(files);
  let added = 0;
  const { writes, answeredAtRecord } = await writesAnsweredAtRecord(async () => {
    added = (await tool.importBundle(bundle)).added;
  }, ['entries', 'bodies']);
  expect(added).toBe(200);
  // 200 files and their bodies, and the folder they are in.
  expect(writes).toBe(401);
  expect(answeredAtRecord).toEqual([0]);
});
