// Unknown option keys are refused with a TypeError naming the key and the nearest known one: a typo in `init()`
// would otherwise open the default database, and one elsewhere be ignored.

import { describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import type { IndexedDBMemoryToolOptions } from '../../src/index.js';
import { checkOptionKeys } from '../../src/core/option-keys.js';
import { freshDbName, toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('option-keys');
const typo = (options: object) => options as IndexedDBMemoryToolOptions;

describe('unknown option keys', () => {
  it('init refuses a typo of dbName, naming both, and opens no database', async () => {
    const name = freshDbName('option-keys-typo');
    const init = IndexedDBMemoryTool.init(typo({ dbname: name }));
    await expect(init).rejects.toThrow(new TypeError('Unknown option `dbname`; did you mean `dbName`?'));
    const names = (await indexedDB.databases()).map((db) => db.name);
    expect(names).not.toContain(name);
  });

  it('init names the nearest key for other typos, and lists the known ones when none is near', async () => {
    await expect(IndexedDBMemoryTool.init(typo({ blocksecrets: false }))).rejects.toThrow(
      'Unknown option `blocksecrets`; did you mean `blockSecrets`?',
    );
    await expect(IndexedDBMemoryTool.init(typo({ histroy: false }))).rejects.toThrow('did you mean `history`?');
    await expect(IndexedDBMemoryTool.init(typo({ colour: 'red' }))).rejects.toThrow(
      'Unknown option `colour`; known options: dbName, overwrite',
    );
  });

  it('init refuses an unknown key even when its value is undefined, and takes known keys set to undefined', async () => {
    await expect(IndexedDBMemoryTool.init(typo({ dbName: freshDbName('x'), limit: undefined }))).rejects.toThrow(
      'did you mean `limits`?',
    );
    const tool = await open({ beforeWrite: undefined, approve: undefined } as unknown as IndexedDBMemoryToolOptions);
    expect(tool.dbName).toMatch(/^option-keys-/);
  });

  it('the app methods that take options refuse unknown keys too', async () => {
    const tool = await open();
    const wrong = { limt: 1 } as object;
    await expect(tool.list('/memories', wrong)).rejects.toThrow('Unknown option `limt`; did you mean `limit`?');
    await expect(tool.undo(undefined, wrong)).rejects.toThrow(TypeError);
    await expect(tool.expire({ olderThan: 0, ...wrong })).rejects.toThrow(TypeError);
    await expect(tool.importBundle('{}', { dryrun: true } as object)).rejects.toThrow('did you mean `dryRun`?');
  });

  it('checkOptionKeys passes no options or known keys at once, and refuses options that are no object', () => {
    expect(() => checkOptionKeys(undefined, ['a'])).not.toThrow();
    expect(() => checkOptionKeys(null, ['a'])).not.toThrow();
    expect(() => checkOptionKeys('dbName', ['a'])).toThrow(TypeError);
    expect(checkOptionKeys({ a: 1 }, ['a'])).toBeUndefined();
  });
});
