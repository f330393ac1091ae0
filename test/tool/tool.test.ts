// The contract (../shared/contract.md), case by case, against IndexedDBMemoryTool: exact reply strings,
// error codes, and that a refused command changes nothing. Runs on fake-indexeddb and in Chromium.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IndexedDBMemoryTool, isMemoryToolError } from '../../src/index.js';
import type { MemoryToolErrorCode } from '../../src/index.js';
import { HOSTILE_PATHS, VALID_UNUSUAL_PATHS } from '../fixtures/hostile-paths.js';
import { openDB } from 'idb';
import type { MemorySchema } from '../../src/storage/schema.js';
import { READ_AHEAD_BYTES } from '../../src/storage/read-ahead.js';

let tool: IndexedDBMemoryTool;

beforeEach(async () => {
  tool = await IndexedDBMemoryTool.init({ dbName: `tool-${crypto.randomUUID()}` });
});
afterEach(() => tool.close());

const run = (input: unknown) => tool.run(input);
const ok = async (input: unknown): Promise<string> => {
  const result = await run(input);
  expect(result.is_error, result.content).toBe(false);
  return result.content;
};
const fails = async (input: unknown): Promise<string> => {
  const result = await run(input);
  expect(result.is_error, result.content).toBe(true);
  return result.content;
};
const create = (path: string, file_text: string) => ok({ command: 'create', path, file_text });
const read = async (path: string): Promise<string> => {
  const content = await ok({ command: 'view', path });
  return content.split('\n').slice(1).map((line) => line.slice(7)).join('\n');
};
/** Everything visible in the store, to prove a refused command changed nothing. */
const snapshot = async (): Promise<string> => {
  const listing = await ok({ command: 'view', path: '/memories' });
  const files = listing
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t')[1] ?? '')
    .filter((path) => !path.endsWith('/') && path !== '/memories');
  const bodies = await Promise.all(files.map((path) => ok({ command: 'view', path })));
  return [listing, ...bodies].join('\n---\n');
};
async function expectCode(promise: Promise<unknown>, code: MemoryToolErrorCode, message?: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isMemoryToolError(error), String(error)).toBe(true);
  if (isMemoryToolError(error)) {
    expect(error.code).toBe(code);
    if (message !== undefined) expect(error.message).toBe(message);
  }
}

describe('view of a folder', () => {
  it('lists an empty memory as the header and the root line only', async () => {
    expect(await ok({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4K\t/memories",
    );
  });

  it('lists two levels, sorted by code units, folders with a slash and their children right after them', async () => {
    await create('/memories/b.md', 'x'.repeat(1536));
    await create('/memories/A.md', '');
    await create('/memories/a/z.md', 'z');
    await create('/memories/a/deep/deeper/x.md', 'x');
    await create('/memories/a/b.md', 'é');
    await create('/memories/_/x', '1'.repeat(1025));
    expect(await ok({ command: 'view', path: '/memories' })).toBe(
      [
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:",
        '4K\t/memories',
        '0B\t/memories/A.md',
        '4K\t/memories/_/',
        '1.0K\t/memories/_/x',
        '4K\t/memories/a/',
        '2B\t/memories/a/b.md',
        '4K\t/memories/a/deep/',
        '1B\t/memories/a/z.md',
        '1.5K\t/memories/b.md',
      ].join('\n'),
    );
  });

  it('skips hidden names and node_modules with everything below them', async () => {
    await create('/memories/.secret/a.md', 'a');
    await create('/memories/.hidden.md', 'a');
    await create('/memories/node_modules/x.md', 'a');
    await create('/memories/notes/.draft.md', 'a');
    await create('/memories/notes/kept.md', 'abc');
    expect(await ok({ command: 'view', path: '/memories' })).toBe(
      [
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:",
        '4K\t/memories',
        '4K\t/memories/notes/',
        '3B\t/memories/notes/kept.md',
      ].join('\n'),
    );
  });

  it('lists a subfolder under the path exactly as Claude sent it', async () => {
    await create('/memories/notes/a.md', 'a');
    const content = await ok({ command: 'view', path: '/memories//notes/' });
    expect(content).toBe(
      [
        "Here're the files and directories up to 2 levels deep in /memories//notes/, excluding hidden items and node_modules:",
        '4K\t/memories//notes/',
        '1B\t/memories//notes//a.md',
      ].join('\n'),
    );
  });

  it('reads a folder-like name\'s children beside its entry, not after it; a file with an extension, never', async () => {
    await create('/memories/notes/a.md', 'a');
    await create('/memories/notes/sub/b.md', 'b');
    await create('/memories/TODO', 'a file with no extension');
    // A tool that has seen none of these files, so no body is read ahead.
    await reopen();
    const requests = logRequests();
    try {
      const listing = await ok({ command: 'view', path: '/memories/notes' });
      expect(listing.split('\n').slice(2)).toEqual(['1B\t/memories/notes/a.md', '4K\t/memories/notes/sub/', '1B\t/memories/notes/sub/b.md']);
      expect(requests.log).toEqual(['getAll /memories/notes', 'got /memories/notes', 'getAll /memories/notes/sub']);
      requests.log.length = 0;
      await ok({ command: 'view', path: '/memories/notes/a.md' });
      expect(requests.log.filter((line) => line.startsWith('getAll'))).toEqual([]);
      requests.log.length = 0;
      expect(await read('/memories/TODO')).toBe('a file with no extension');
      expect(requests.log.filter((line) => line.startsWith('getAll'))).toEqual(['getAll /memories/TODO']);
    } finally {
      requests.restore();
    }
  });

  it('formats sizes in K and M', async () => {
    await create('/memories/k', 'a'.repeat(1024));
    await create('/memories/m', 'a'.repeat(1024 * 1024));
    const lines = (await ok({ command: 'view', path: '/memories' })).split('\n');
    expect(lines).toContain('1K\t/memories/k');
    expect(lines).toContain('1M\t/memories/m');
  });
});

/** A fresh tool on the same database: it has seen no file yet. */
async function reopen(): Promise<void> {
  const dbName = tool.dbName;
  tool.close();
  tool = await IndexedDBMemoryTool.init({ dbName });
}

/**
 * What the browser is asked from now on: `get` logged as its answer arrives (and the length of each body it
 * read), `getAll` as it is asked.
 */
function logRequests(): { log: string[]; bodies: number[]; restore: () => void } {
  const log: string[] = [];
  const bodies: number[] = [];
  const realGet = IDBObjectStore.prototype.get;
  const realGetAll = IDBIndex.prototype.getAll;
  vi.spyOn(IDBObjectStore.prototype, 'get').mockImplementation(function (this: IDBObjectStore, key: IDBValidKey | IDBKeyRange) {
    const request = realGet.call(this, key);
    request.addEventListener('success', () => {
      log.push(`got ${String(key)}`);
      if (this.name === 'bodies') bodies.push(String(request.result ?? '').length);
    });
    return request;
  });
  vi.spyOn(IDBIndex.prototype, 'getAll').mockImplementation(function (this: IDBIndex, query?: IDBValidKey | IDBKeyRange | null) {
    log.push(`getAll ${String(query)}`);
    return realGetAll.call(this, query);
  });
  return { log, bodies, restore: () => vi.restoreAllMocks() };
}

describe('reading ahead the body of a file this tool has read or written', () => {
  const gets = (log: string[]): string[] => log.filter((line) => line.startsWith('got ')).map((line) => (/^got \d+$/u.test(line) ? 'got a body' : line));

  it('reads it beside the entry in a view and an edit, and still answers right when another tool changed the file', async () => {
    await create('/memories/a.md', 'one');
    const requests = logRequests();
    try {
      expect(await read('/memories/a.md')).toBe('one');
      expect(gets(requests.log)).toEqual(['got a body', 'got /memories/a.md']);
      requests.log.length = 0;
      await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
      expect(gets(requests.log)).toEqual(['got a body', 'got /memories/a.md']);
      requests.log.length = 0;
      await ok({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'three' });
      expect(gets(requests.log)).toEqual(['got a body', 'got /memories/a.md']);
      // Another tab's edit: the body guessed is the old one, so the file's own is read after its entry.
      const other = await IndexedDBMemoryTool.init({ dbName: tool.dbName });
      await other.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'two', new_str: 'four' });
      other.close();
      requests.log.length = 0;
      expect(await read('/memories/a.md')).toBe('four\nthree');
      expect(gets(requests.log)).toEqual(['got a body', 'got /memories/a.md', 'got a body']);
    } finally {
      requests.restore();
    }
  });

  it('reads after the entry a file it has not seen, a file now gone or a folder, and never guesses a big body', async () => {
    await create('/memories/big.md', `${'x'.repeat(63)}\n`.repeat(1024 + 16));
    await create('/memories/gone.md', 'soon deleted');
    await create('/memories/was-file', 'becomes a folder');
    await ok({ command: 'view', path: '/memories/gone.md' });
    await ok({ command: 'view', path: '/memories/was-file' });
    const other = await IndexedDBMemoryTool.init({ dbName: tool.dbName });
    await other.delete({ command: 'delete', path: '/memories/gone.md' });
    await other.delete({ command: 'delete', path: '/memories/was-file' });
    await other.create({ command: 'create', path: '/memories/was-file/inside.md', file_text: 'x' });
    await other.create({ command: 'create', path: '/memories/unseen.md', file_text: 'new to this tool' });
    other.close();
    const requests = logRequests();
    try {
      expect(await ok({ command: 'view', path: '/memories/big.md', view_range: [1, 1] })).toBe(
        `Here's the content of /memories/big.md with line numbers:\n     1\t${'x'.repeat(63)}`,
      );
      expect(gets(requests.log)).toEqual(['got /memories/big.md', 'got a body']);
      requests.log.length = 0;
      expect(await read('/memories/unseen.md')).toBe('new to this tool');
      expect(gets(requests.log)).toEqual(['got /memories/unseen.md', 'got a body']);
      requests.log.length = 0;
      expect(await fails({ command: 'view', path: '/memories/gone.md' })).toBe(
        'Error: The path /memories/gone.md does not exist. Please provide a valid path.',
      );
      expect(gets(requests.log)).toEqual(['got a body', 'got /memories/gone.md']);
      expect((await ok({ command: 'view', path: '/memories/was-file' })).split('\n').at(-1)).toBe('1B\t/memories/was-file/inside.md');
    } finally {
      requests.restore();
    }
  });

  it('never guesses the body id a rolled-back attempt wrote: another tab may have stored a big body under it', async () => {
    await create('/memories/a.md', 'one');
    // Another tab stores a big file, taking the body id this tool's remembered totals name next.
    const other = await IndexedDBMemoryTool.init({ dbName: tool.dbName });
    await other.create({ command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(1024 * 1024) });
    other.close();
    const requests = logRequests();
    try {
      // Its first attempt writes under that taken id and is rolled back; the rerun must not read the big body.
      await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
      expect(await read('/memories/a.md')).toBe('two');
      expect(requests.bodies.filter((length) => length > READ_AHEAD_BYTES)).toEqual([]);
    } finally {
      requests.restore();
    }
  });
});


describe('view of a file', () => {
  it('numbers every line of content.split("\\n"), a trailing newline showing as an empty last line', async () => {
    await create('/memories/a.md', 'one\ntwo\n');
    expect(await ok({ command: 'view', path: '/memories/a.md' })).toBe(
      "Here's the content of /memories/a.md with line numbers:\n     1\tone\n     2\ttwo\n     3\t",
    );
  });

  it('slices view_range like the SDK: start clamped to 1, -1 to the end', async () => {
    await create('/memories/a.md', 'l1\nl2\nl3\nl4');
    const head = "Here's the content of /memories/a.md with line numbers:";
    expect(await ok({ command: 'view', path: '/memories/a.md', view_range: [2, 3] })).toBe(`${head}\n     2\tl2\n     3\tl3`);
    expect(await ok({ command: 'view', path: '/memories/a.md', view_range: [3, -1] })).toBe(`${head}\n     3\tl3\n     4\tl4`);
    expect(await ok({ command: 'view', path: '/memories/a.md', view_range: [-5, 1] })).toBe(`${head}\n     1\tl1`);
    expect(await ok({ command: 'view', path: '/memories/a.md', view_range: [9, 12] })).toBe(`${head}\n`);
  });

  it('refuses a view_range that is not two integers', async () => {
    await create('/memories/a.md', 'x');
    for (const view_range of [[1], [1, 2, 3], [1.5, 2], ['1', '2'], 'all', [1, null]]) {
      expect(await fails({ command: 'view', path: '/memories/a.md', view_range })).toMatch(/"view_range" of view must be two integers/);
    }
  });

  it('cuts a view over 16,000 characters at a whole line and says to use view_range', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1} ${'x'.repeat(20)}`);
    await create('/memories/big.md', lines.join('\n'));
    const content = await ok({ command: 'view', path: '/memories/big.md' });
    const shown = content.split('\n');
    const note = shown.at(-1) ?? '';
    expect(note).toMatch(/^\[Output cut at 16000 characters: showing lines 1-\d+ of 2000\. Use view_range \[\d+, 2000\] to see the rest\.\]$/);
    expect(content.length).toBeLessThanOrEqual(16000);
    const last = Number(/lines 1-(\d+)/.exec(note)?.[1]);
    expect(note).toContain(`[${last + 1}, 2000]`);
    expect(shown.at(-2)).toBe(`${String(last).padStart(6)}\tline ${last} ${'x'.repeat(20)}`);
    const rest = await ok({ command: 'view', path: '/memories/big.md', view_range: [last + 1, last + 1] });
    expect(rest.split('\n')[1]).toBe(`${String(last + 1).padStart(6)}\tline ${last + 1} ${'x'.repeat(20)}`);
  });

  it('cuts a single over-long line too', async () => {
    await create('/memories/one.md', 'y'.repeat(50_000));
    const content = await ok({ command: 'view', path: '/memories/one.md' });
    expect(content.length).toBeLessThanOrEqual(16_000);
    expect(content).toMatch(/line 1 is 50000 characters long and only its first \d+ are shown\. Use view_range \[1, 1\] to see the whole line\.\]$/);
  });

  it('cuts an over-long line of emoji between characters, never inside one', async () => {
    // A lone surrogate in a tool_result is invalid text. The prefix moves the cut to either half of a pair.
    const broken = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
    for (const prefix of ['', 'x']) {
      await create('/memories/emoji.md', prefix + '\u{1f600}'.repeat(9000));
      const content = await ok({ command: 'view', path: '/memories/emoji.md' });
      expect(content).toMatch(/Use view_range \[1, 1\] to see the whole line\.\]$/);
      expect(broken.test(content), `prefix ${JSON.stringify(prefix)}`).toBe(false);
      expect(content.length).toBeGreaterThan(15_700);
      expect(content.length).toBeLessThanOrEqual(16_000);
    }
  });

  it('answers a missing path in the SDK wording', async () => {
    expect(await fails({ command: 'view', path: '/memories/nope.md' })).toBe(
      'Error: The path /memories/nope.md does not exist. Please provide a valid path.',
    );
    await expectCode(tool.view({ command: 'view', path: '/memories/nope.md' }), 'not_found');
  });
});

describe('create', () => {
  it('creates a file and its parent folders', async () => {
    expect(await create('/memories/a/b/c.md', 'hi')).toBe('File created successfully at: /memories/a/b/c.md');
    expect(await ok({ command: 'view', path: '/memories/a' })).toContain('4K\t/memories/a/b/\n2B\t/memories/a/b/c.md');
  });

  it('overwrites an existing file by default', async () => {
    await create('/memories/a.md', 'old');
    expect(await create('/memories/a.md', 'new')).toBe('File created successfully at: /memories/a.md');
    expect(await read('/memories/a.md')).toBe('new');
  });

  it('refuses an existing file with overwrite: false, changing nothing', async () => {
    const strict = await IndexedDBMemoryTool.init({ dbName: tool.dbName, overwrite: false });
    try {
      await create('/memories/a.md', 'old');
      expect((await strict.run({ command: 'create', path: '/memories/a.md', file_text: 'new' })).content).toBe(
        'Error: File /memories/a.md already exists',
      );
      await expectCode(strict.create({ command: 'create', path: '/memories/a.md', file_text: 'x' }), 'already_exists');
      expect(await read('/memories/a.md')).toBe('old');
    } finally {
      strict.close();
    }
  });

  it('refuses to create below a file with a plain sentence, making no folder', async () => {
    await create('/memories/a.md', 'x');
    const before = await snapshot();
    expect(await fails({ command: 'create', path: '/memories/a.md/b/c.md', file_text: 'y' })).toBe(
      'Error: Cannot create /memories/a.md/b/c.md: /memories/a.md is a file, so nothing can be stored below it.',
    );
    expect(await snapshot()).toBe(before);
  });

  it('refuses to replace a folder or the root with a file, as the SDK words it, and changes nothing', async () => {
    await create('/memories/dir/x.md', 'x');
    const before = await snapshot();
    for (const path of ['/memories/dir', '/memories/dir/', '/memories/', '/memories']) {
      expect(await run({ command: 'create', path, file_text: 'y' })).toEqual({
        content: `Error: File ${path} already exists`,
        is_error: true,
        code: 'is_a_directory',
      });
    }
    expect(await snapshot()).toBe(before);
  });

  it('treats harmless spellings as one file and NFC-normalizes names', async () => {
    await create('/memories//notes/./café.md/', 'one');
    await create('/memories/notes/cafe\u0301.md', 'two');
    const listing = await ok({ command: 'view', path: '/memories/notes' });
    expect(listing.split('\n').filter((line) => line.includes('caf'))).toEqual(['3B\t/memories/notes/café.md']);
    expect(await read('/memories/notes/café.md')).toBe('two');
  });
});

describe('str_replace', () => {
  const edited = 'The memory file has been edited. Here is the snippet showing the change (with line numbers):';

  it('replaces the one match and shows lines L-2..L+2 of the new text', async () => {
    await create('/memories/a.md', 'l1\nl2\nl3\ntarget\nl5\nl6\nl7');
    expect(await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'target', new_str: 'done' })).toBe(
      `${edited}\n     2\tl2\n     3\tl3\n     4\tdone\n     5\tl5\n     6\tl6`,
    );
    expect(await read('/memories/a.md')).toBe('l1\nl2\nl3\ndone\nl5\nl6\nl7');
  });

  it('matches an old_str that spans lines', async () => {
    await create('/memories/a.md', 'a\nb\nc');
    expect(await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'a\nb', new_str: 'ab' })).toBe(
      `${edited}\n     1\tab\n     2\tc`,
    );
  });

  it('echoes an old_str with half a surrogate pair as stored text shows it (U+FFFD), in well-formed text', async () => {
    await create('/memories/a.md', 'abc x\ud83d x\ud83d');
    const none = await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'y\ud83d', new_str: 'z' });
    expect(none).toBe('Error: No replacement was performed, old_str `y\ufffd` did not appear verbatim in /memories/a.md.');
    const many = await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'x\ud83d', new_str: 'z' });
    expect(many).toBe('Error: No replacement was performed. Multiple occurrences of old_str `x\ufffd` in lines: 1. Please ensure it is unique');
    // With the `u` flag a surrogate class matches only a lone one.
    expect([none, many].some((reply) => /[\ud800-\udfff]/u.test(reply))).toBe(false);
  });

  it('treats an omitted new_str as empty, not as the word undefined', async () => {
    await create('/memories/a.md', 'keep drop keep');
    await ok({ command: 'str_replace', path: '/memories/a.md', old_str: ' drop' });
    expect(await read('/memories/a.md')).toBe('keep keep');
  });

  it('inserts $-patterns in new_str literally', async () => {
    await create('/memories/a.md', 'price');
    await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'price', new_str: "$& $1 $$ $'" });
    expect(await read('/memories/a.md')).toBe("$& $1 $$ $'");
  });

  it('refuses no match in the SDK wording', async () => {
    await create('/memories/a.md', 'abc');
    expect(await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'zzz', new_str: '' })).toBe(
      'Error: No replacement was performed, old_str `zzz` did not appear verbatim in /memories/a.md.',
    );
    await expectCode(tool.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'q', new_str: '' }), 'no_match');
  });

  it('refuses several matches naming each line once, two on one line and overlapping ones included', async () => {
    await create('/memories/a.md', 'x x\ny\nx\naaa');
    expect(await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'x', new_str: '' })).toBe(
      'Error: No replacement was performed. Multiple occurrences of old_str `x` in lines: 1, 3. Please ensure it is unique',
    );
    expect(await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'aa', new_str: '' })).toBe(
      'Error: No replacement was performed. Multiple occurrences of old_str `aa` in lines: 4. Please ensure it is unique',
    );
    expect(await read('/memories/a.md')).toBe('x x\ny\nx\naaa');
  });

  it('refuses a missing file, a folder and an empty old_str', async () => {
    expect(await fails({ command: 'str_replace', path: '/memories/no.md', old_str: 'a', new_str: 'b' })).toBe(
      'Error: The path /memories/no.md does not exist. Please provide a valid path.',
    );
    await create('/memories/d/x.md', 'a');
    expect(await fails({ command: 'str_replace', path: '/memories/d', old_str: 'a', new_str: 'b' })).toBe(
      'Error: The path /memories/d is not a file.',
    );
    expect(await fails({ command: 'str_replace', path: '/memories/d/x.md', old_str: '', new_str: 'b' })).toBe(
      'Error: Invalid input for str_replace: "old_str" must not be empty.',
    );
  });
});

describe('insert', () => {
  it('inserts after insert_line, dropping one trailing newline of the text', async () => {
    await create('/memories/a.md', 'one\ntwo');
    expect(await ok({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'mid\n' })).toBe(
      'The file /memories/a.md has been edited.',
    );
    expect(await read('/memories/a.md')).toBe('one\nmid\ntwo');
    await ok({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'first' });
    await ok({ command: 'insert', path: '/memories/a.md', insert_line: 4, insert_text: 'last' });
    expect(await read('/memories/a.md')).toBe('first\none\nmid\ntwo\nlast');
  });

  it('keeps the trailing-newline state of the file', async () => {
    await create('/memories/a.md', 'one\n');
    await ok({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'two\n' });
    expect(await read('/memories/a.md')).toBe('one\ntwo\n');
  });

  it('refuses a line outside [0, n] in the SDK wording', async () => {
    await create('/memories/a.md', 'one\ntwo');
    expect(await fails({ command: 'insert', path: '/memories/a.md', insert_line: 3, insert_text: 'x' })).toBe(
      'Error: Invalid `insert_line` parameter: 3. It should be within the range of lines of the file: [0, 2]',
    );
    expect(await fails({ command: 'insert', path: '/memories/a.md', insert_line: -1, insert_text: 'x' })).toBe(
      'Error: Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 2]',
    );
  });

  it('refuses an insert_line that is not an integer', async () => {
    await create('/memories/a.md', 'one');
    for (const insert_line of [1.5, '1', null, Number.NaN]) {
      expect(await fails({ command: 'insert', path: '/memories/a.md', insert_line, insert_text: 'x' })).toMatch(
        /^Error: Invalid input for the memory tool: "insert_line" of insert must be an integer, got /,
      );
    }
    expect(await read('/memories/a.md')).toBe('one');
  });

  it('refuses a missing file', async () => {
    expect(await fails({ command: 'insert', path: '/memories/no.md', insert_line: 0, insert_text: 'x' })).toBe(
      'Error: The path /memories/no.md does not exist. Please provide a valid path.',
    );
  });
});

describe('edits of big files: worked out from the change, as the whole-file way would', () => {
  // Seeded, so a failure names a case that can be run again. Units include lone and paired surrogates,
  // so a replacement can split or join a pair at either edge.
  const UNITS = ['a', 'b', '\n', 'é', '€', '\ud83d', '\ude00', '😀', ' '];
  const randomText = (next: () => number, max: number): string => {
    let text = '';
    for (let n = Math.floor(next() * max); n > 0; n--) text += UNITS[Math.floor(next() * UNITS.length)];
    return text;
  };
  const seeded = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  const sizeOf = async (path: string) => (await tool.list()).find((entry) => entry.path === path)?.size;

  it('str_replace stores the same text and size as replacing in the whole text (400 random cases)', async () => {
    const next = seeded(7);
    for (let i = 0; i < 400; i++) {
      const content = randomText(next, 12);
      if (content === '') continue;
      const at = Math.floor(next() * content.length);
      const oldStr = content.slice(at, at + 1 + Math.floor(next() * 3));
      if (content.indexOf(oldStr) !== content.lastIndexOf(oldStr) || content.indexOf(oldStr, content.indexOf(oldStr) + 1) !== -1) continue;
      const newStr = randomText(next, 4);
      const path = `/memories/r${i}.md`;
      await create(path, content);
      const result = await run({ command: 'str_replace', path, old_str: oldStr, new_str: newStr });
      expect(result.is_error, `${i}: ${result.content}`).toBe(false);
      const expected = content.replace(oldStr, () => newStr);
      expect(await tool.read(path), `case ${i}`).toBe(expected);
      expect(await sizeOf(path), `case ${i}: ${JSON.stringify([content, oldStr, newStr])}`).toBe(bytes(expected));
    }
  });

  it('insert stores the same text and size as splitting, splicing and joining lines (300 random cases)', async () => {
    const next = seeded(11);
    for (let i = 0; i < 300; i++) {
      const content = randomText(next, 10);
      const lines = content.split('\n');
      const line = Math.floor(next() * (lines.length + 2)) - (i % 25 === 0 ? 1 : 0);
      const text = randomText(next, 4) + (next() < 0.3 ? '\n' : '');
      const path = `/memories/i${i}.md`;
      await create(path, content);
      const result = await run({ command: 'insert', path, insert_line: line, insert_text: text });
      if (line < 0 || line > lines.length) {
        expect(result.content).toBe(
          `Error: Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${lines.length}]`,
        );
        expect(await tool.read(path)).toBe(content);
        continue;
      }
      expect(result.is_error, `${i}: ${result.content}`).toBe(false);
      const expected = [...lines.slice(0, line), text.replace(/\n$/u, ''), ...lines.slice(line)].join('\n');
      expect(await tool.read(path), `case ${i}: ${JSON.stringify([content, line, text])}`).toBe(expected);
      expect(await sizeOf(path)).toBe(bytes(expected));
    }
  });

  it('shows the lines around a str_replace of a big file as the SDK does', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`);
    await create('/memories/big.md', lines.join('\n'));
    expect(await ok({ command: 'str_replace', path: '/memories/big.md', old_str: 'line 2500\n', new_str: 'new A\nnew B\n' })).toBe(
      'The memory file has been edited. Here is the snippet showing the change (with line numbers):\n' +
        ['  2498\tline 2498', '  2499\tline 2499', '  2500\tnew A', '  2501\tnew B', '  2502\tline 2501'].join('\n'),
    );
    expect(await ok({ command: 'str_replace', path: '/memories/big.md', old_str: 'line 5000', new_str: 'end' })).toMatch(
      // One line longer now: the first edit made two lines of one.
      /  5000\tline 4999\n  5001\tend$/u,
    );
  });
});

describe('delete', () => {
  it('deletes a file', async () => {
    await create('/memories/a.md', 'x');
    expect(await ok({ command: 'delete', path: '/memories/a.md' })).toBe('Successfully deleted /memories/a.md');
    expect(await fails({ command: 'view', path: '/memories/a.md' })).toMatch(/does not exist/);
  });

  it('deletes a folder with everything in it, and nothing beside it', async () => {
    await create('/memories/a/b/c.md', 'x');
    await create('/memories/a/d.md', 'x');
    await create('/memories/ab.md', 'keep');
    await create('/memories/a0/x.md', 'keep');
    expect(await ok({ command: 'delete', path: '/memories/a' })).toBe('Successfully deleted /memories/a');
    expect(await ok({ command: 'view', path: '/memories' })).toBe(
      [
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:",
        '4K\t/memories',
        '4K\t/memories/a0/',
        '4B\t/memories/a0/x.md',
        '4B\t/memories/ab.md',
      ].join('\n'),
    );
    await create('/memories/a/c.md', 'fresh');
    expect(await ok({ command: 'view', path: '/memories/a' })).not.toContain('/b/');
  });

  it('answers a missing path', async () => {
    expect(await fails({ command: 'delete', path: '/memories/no' })).toBe('Error: The path /memories/no does not exist');
  });

  it('protects the root whatever its spelling', async () => {
    await create('/memories/a.md', 'x');
    const before = await snapshot();
    for (const path of ['/memories', '/memories/', '/memories/.', '/memories//', '/memories/./']) {
      expect(await fails({ command: 'delete', path })).toBe('Error: Cannot delete the /memories directory itself');
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('rename', () => {
  it('renames a file, making the new parent folders', async () => {
    await create('/memories/a.md', 'text');
    expect(await ok({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/x/y/b.md' })).toBe(
      'Successfully renamed /memories/a.md to /memories/x/y/b.md',
    );
    expect(await read('/memories/x/y/b.md')).toBe('text');
    expect(await fails({ command: 'view', path: '/memories/a.md' })).toMatch(/does not exist/);
  });

  it('renames a folder with its whole subtree', async () => {
    await create('/memories/p/q/r.md', 'deep');
    await create('/memories/p/s.md', 'top');
    await create('/memories/p0.md', 'beside');
    await ok({ command: 'rename', old_path: '/memories/p', new_path: '/memories/z' });
    expect(await read('/memories/z/q/r.md')).toBe('deep');
    expect(await read('/memories/z/s.md')).toBe('top');
    expect(await read('/memories/p0.md')).toBe('beside');
    expect(await ok({ command: 'view', path: '/memories' })).not.toMatch(/\/memories\/p\//);
  });

  it('answers a missing source and an existing destination in the SDK wording', async () => {
    await create('/memories/a.md', 'a');
    await create('/memories/b.md', 'b');
    expect(await fails({ command: 'rename', old_path: '/memories/no', new_path: '/memories/c' })).toBe(
      'Error: The path /memories/no does not exist',
    );
    expect(await fails({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' })).toBe(
      'Error: The destination /memories/b.md already exists',
    );
    expect(await read('/memories/b.md')).toBe('b');
  });

  it('protects the root as source and as destination', async () => {
    await create('/memories/a.md', 'a');
    const before = await snapshot();
    for (const old_path of ['/memories', '/memories/', '/memories/.']) {
      expect(await fails({ command: 'rename', old_path, new_path: '/memories/x' })).toBe(
        'Error: Cannot rename the /memories directory itself',
      );
    }
    expect(await fails({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/' })).toBe(
      'Error: The destination /memories/ already exists',
    );
    expect(await snapshot()).toBe(before);
  });

  it('refuses to move a folder into itself, leaving nothing behind', async () => {
    await create('/memories/a/x.md', 'x');
    const before = await snapshot();
    expect(await fails({ command: 'rename', old_path: '/memories/a', new_path: '/memories/a/b/c' })).toBe(
      'Error: Cannot rename /memories/a to /memories/a/b/c: a folder cannot be moved inside itself.',
    );
    expect(await snapshot()).toBe(before);
  });

  it('refuses to move below a file', async () => {
    await create('/memories/a.md', 'a');
    await create('/memories/b.md', 'b');
    const before = await snapshot();
    expect(await fails({ command: 'rename', old_path: '/memories/b.md', new_path: '/memories/a.md/b.md' })).toBe(
      'Error: Cannot create /memories/a.md/b.md: /memories/a.md is a file, so nothing can be stored below it.',
    );
    expect(await snapshot()).toBe(before);
  });

  describe('of a folder whose files would end up past the path limits', () => {
    // 32 levels: the deepest path a file may have.
    const levels = Array.from({ length: 29 }, (_, i) => `d${i}`).join('/');
    const deep = `/memories/a/${levels}/f.md`;

    it('refuses one that would nest a file more than 32 levels deep, changing nothing', async () => {
      await create(deep, 'deep');
      const before = await snapshot();
      const history = await tool.history();
      expect(await fails({ command: 'rename', old_path: '/memories/a', new_path: '/memories/x/y/a' })).toBe(
        `Error: Cannot rename /memories/a to /memories/x/y/a: /memories/x/y/a/${levels}/f.md would be nested more than 32 levels deep. Nothing was changed.`,
      );
      expect(await snapshot()).toBe(before);
      expect(await tool.history()).toEqual(history);
      // One level deeper still fits, and the moved file can be read and deleted there.
      await ok({ command: 'rename', old_path: '/memories/a', new_path: '/memories/x' });
      await ok({ command: 'rename', old_path: '/memories/x', new_path: '/memories/x0/x' });
      expect(await read(`/memories/x0/x/${levels}/f.md`)).toBe('deep');
      await ok({ command: 'delete', path: `/memories/x0/x/${levels}/f.md` });
    });

    it('refuses one that would make a path longer than 1024 bytes', async () => {
      const name = 'n'.repeat(240);
      // 980 bytes here; below the longer name, 1,174 for its deepest folder.
      const path = `/memories/b/${[name, name, name, name].join('/')}/f.md`;
      await create(path, 'long');
      const before = await snapshot();
      const to = `/memories/${'t'.repeat(200)}`;
      // The first entry past it: the deepest folder, already over the limit there.
      const moved = `${to}/${[name, name, name, name].join('/')}`;
      expect(await fails({ command: 'rename', old_path: '/memories/b', new_path: to })).toBe(
        `Error: Cannot rename /memories/b to ${to}: ${moved} would be longer than 1024 bytes. Nothing was changed.`,
      );
      expect(await snapshot()).toBe(before);
    });
  });
});

describe('paths', () => {
  it('refuses /memoriesX and paths outside /memories for every command', async () => {
    for (const path of ['/memoriesX/a.md', '/etc/passwd', 'memories/a.md', '/Memories/a.md']) {
      for (const input of [
        { command: 'view', path },
        { command: 'create', path, file_text: 'x' },
        { command: 'str_replace', path, old_str: 'a', new_str: 'b' },
        { command: 'insert', path, insert_line: 0, insert_text: 'x' },
        { command: 'delete', path },
        { command: 'rename', old_path: path, new_path: '/memories/ok' },
        { command: 'rename', old_path: '/memories/ok', new_path: path },
      ]) {
        expect(await fails(input)).toBe(`Error: Path must start with /memories, got: ${path}`);
      }
    }
    expect(await ok({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4K\t/memories",
    );
  });

  it('refuses traversal with the SDK wording', async () => {
    expect(await fails({ command: 'view', path: '/memories/../etc' })).toBe(
      'Error: Path /memories/../etc would escape /memories directory',
    );
  });
});

describe('hostile and unusual paths', () => {
  // Every third corpus path (700+, every category) through all seven path fields of the six commands.
  const sample = HOSTILE_PATHS.filter((_, i) => i % 3 === 0);

  it('refuses hostile paths in every command and stores nothing', async () => {
    await create('/memories/ok.md', 'ok');
    const before = await snapshot();
    for (const path of sample) {
      const inputs = [
        { command: 'view', path },
        { command: 'create', path, file_text: 'x' },
        { command: 'str_replace', path, old_str: 'o', new_str: 'x' },
        { command: 'insert', path, insert_line: 0, insert_text: 'x' },
        { command: 'delete', path },
        { command: 'rename', old_path: path, new_path: '/memories/moved.md' },
        { command: 'rename', old_path: '/memories/ok.md', new_path: path },
      ];
      const results = await Promise.all(inputs.map(run));
      for (const result of results) {
        expect(result.is_error, `${JSON.stringify(path)} → ${result.content}`).toBe(true);
        expect(result.content).toMatch(/^Error: (Path|The path) /);
        expect(result.content.length, JSON.stringify(path).slice(0, 100)).toBeLessThanOrEqual(tool.limits.maxReplyChars);
      }
    }
    expect(sample.length).toBeGreaterThan(500);
    expect(await snapshot()).toBe(before);
  }, 120_000);

  it('keeps valid unusual names working in every command', async () => {
    for (const { path, key } of VALID_UNUSUAL_PATHS) {
      if (key === '/memories') continue;
      expect(await create(path, 'a')).toBe(`File created successfully at: ${path}`);
      await ok({ command: 'str_replace', path, old_str: 'a', new_str: 'b' });
      await ok({ command: 'insert', path, insert_line: 1, insert_text: 'c' });
      expect(await read(key)).toBe('b\nc');
      await ok({ command: 'rename', old_path: path, new_path: '/memories/tmp-name' });
      await ok({ command: 'rename', old_path: '/memories/tmp-name', new_path: path });
      expect(await ok({ command: 'delete', path })).toBe(`Successfully deleted ${path}`);
      // Several spellings share a key or a parent folder: start each name from an empty memory.
      const top = key.split('/').slice(0, 3).join('/');
      if (top !== key) await ok({ command: 'delete', path: top });
    }
  }, 120_000);
});

describe('malformed input', () => {
  it.each([
    [null, /the input must be an object with a "command" field, got null/],
    ['view', /the input must be an object with a "command" field, got "view"/],
    [[], /the input must be an object/],
    [{}, /"command" must be one of view, create, str_replace, insert, delete, rename, got nothing/],
    [{ command: 'constructor', path: '/memories' }, /"command" must be one of .*, got "constructor"/],
    [{ command: '__proto__', path: '/memories' }, /got "__proto__"/],
    [{ command: 'toString' }, /got "toString"/],
    [{ command: 'hasOwnProperty' }, /got "hasOwnProperty"/],
    [{ command: 'VIEW', path: '/memories' }, /got "VIEW"/],
    [{ command: 'view' }, /view needs "path" \(a string\), and it is missing/],
    [{ command: 'view', path: 42 }, /"path" of view must be a string, got 42/],
    [{ command: 'create', path: '/memories/a' }, /create needs "file_text" \(a string\), and it is missing/],
    [{ command: 'create', path: '/memories/a', file_text: { a: 1 } }, /"file_text" of create must be a string, got \{"a":1\}/],
    [{ command: 'str_replace', path: '/memories/a', new_str: 'x' }, /str_replace needs "old_str"/],
    [{ command: 'str_replace', path: '/memories/a', old_str: 'a', new_str: 5 }, /"new_str" of str_replace must be a string/],
    [{ command: 'insert', path: '/memories/a', insert_text: 'x' }, /insert needs "insert_line" \(an integer\)/],
    [{ command: 'rename', old_path: '/memories/a' }, /rename needs "new_path"/],
  ])('answers %j with a clear error', async (input, pattern) => {
    const content = await fails(input);
    expect(content).toMatch(/^Error: Invalid input for the memory tool: /);
    expect(content).toMatch(pattern);
    expect(content).not.toMatch(/undefined|TypeError|at .*\(|\n/);
  });

  it('ignores a prototype-polluted Object when checking fields', async () => {
    const polluted = Object.create({ file_text: 'from prototype' }) as Record<string, unknown>;
    polluted.command = 'create';
    polluted.path = '/memories/a.md';
    expect(await fails(polluted)).toMatch(/create needs "file_text"/);
  });

  it('checks input given straight to a handler too', async () => {
    await expectCode(tool.create({ command: 'create', path: '/memories/a.md' } as never), 'invalid_input');
    await expectCode(tool.view({} as never), 'invalid_input');
  });
});

describe('limits', () => {
  it('refuses a file over maxFileBytes before writing', async () => {
    const small = await IndexedDBMemoryTool.init({ dbName: tool.dbName, limits: { maxFileBytes: 10 } });
    try {
      expect((await small.run({ command: 'create', path: '/memories/a', file_text: 'é'.repeat(6) })).content).toBe(
        'Error: File /memories/a would be 12 bytes, over the limit of 10 bytes per file. Nothing was written.',
      );
      await small.run({ command: 'create', path: '/memories/b', file_text: '0123456789' });
      const grow = await small.run({ command: 'insert', path: '/memories/b', insert_line: 1, insert_text: 'x' });
      expect(grow.content).toMatch(/would be 12 bytes, over the limit of 10/);
      expect(await read('/memories/b')).toBe('0123456789');
      await expectCode(small.create({ command: 'create', path: '/memories/c', file_text: 'x'.repeat(11) }), 'too_large');
    } finally {
      small.close();
    }
  });

  it('refuses to pass maxTotalBytes and maxFiles, counting overwrites and deletes', async () => {
    const small = await IndexedDBMemoryTool.init({ dbName: tool.dbName, limits: { maxTotalBytes: 10, maxFiles: 2 } });
    try {
      await small.run({ command: 'create', path: '/memories/a', file_text: '123456' });
      expect((await small.run({ command: 'create', path: '/memories/b', file_text: '12345' })).content).toBe(
        'Error: The memory would hold 11 bytes, over its limit of 10 bytes. Delete or shorten files first. Nothing was written.',
      );
      expect((await small.run({ command: 'create', path: '/memories/a', file_text: '1234567890' })).is_error).toBe(false);
      await small.run({ command: 'create', path: '/memories/a', file_text: '1' });
      await small.run({ command: 'create', path: '/memories/b', file_text: '1' });
      expect((await small.run({ command: 'create', path: '/memories/c', file_text: '1' })).content).toBe(
        'Error: The memory already holds its limit of 2 files. Delete files first. Nothing was written.',
      );
      await small.run({ command: 'delete', path: '/memories/b' });
      expect((await small.run({ command: 'create', path: '/memories/d/c', file_text: '123456789' })).is_error).toBe(false);
      await small.run({ command: 'delete', path: '/memories/d' });
      expect((await small.run({ command: 'create', path: '/memories/e', file_text: '123456789' })).is_error).toBe(false);
    } finally {
      small.close();
    }
  });

  it('rejects limits that are not positive integers', async () => {
    await expect(IndexedDBMemoryTool.init({ limits: { maxFiles: 0 } })).rejects.toThrow(/limits.maxFiles must be a positive integer/);
  });
});

describe('parallel calls', () => {
  it('keeps all of 25 parallel inserts on one file', async () => {
    await create('/memories/log.md', '');
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => run({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: `entry ${i}` })),
    );
    expect(results.every((r) => !r.is_error)).toBe(true);
    const lines = (await read('/memories/log.md')).split('\n');
    expect(lines).toHaveLength(26);
    for (let i = 0; i < 25; i++) expect(lines).toContain(`entry ${i}`);
  });

  it('keeps all of 25 parallel str_replaces that each need the previous one', async () => {
    await create('/memories/count.md', Array.from({ length: 25 }, (_, i) => `slot ${i}: todo`).join('\n'));
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => run({ command: 'str_replace', path: '/memories/count.md', old_str: `slot ${i}: todo`, new_str: `slot ${i}: done` })),
    );
    expect(results.filter((r) => r.is_error)).toEqual([]);
    expect(await read('/memories/count.md')).not.toContain('todo');
  });

  it('runs them in the order they were called, reads too: a view called after a write sees it', async () => {
    // The SDK's runner calls the tool for every tool_use of a turn at once, in Claude's order.
    const [, , replaced, viewed, listed] = await Promise.all([
      run({ command: 'create', path: '/memories/a.md', file_text: 'old' }),
      run({ command: 'create', path: '/memories/b.md', file_text: 'b' }),
      run({ command: 'str_replace', path: '/memories/a.md', old_str: 'old', new_str: 'new' }),
      run({ command: 'view', path: '/memories/a.md' }),
      run({ command: 'view', path: '/memories' }),
    ]);
    expect(replaced?.is_error).toBe(false);
    expect(viewed?.content).toBe("Here's the content of /memories/a.md with line numbers:\n     1\tnew");
    expect(listed?.content).toContain('/memories/b.md');
  });

  it('keeps all of 30 parallel creates in many folders', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => create(`/memories/f${i % 5}/n${i}.md`, `n${i}`)));
    const listing = await ok({ command: 'view', path: '/memories' });
    for (let i = 0; i < 30; i++) expect(listing).toContain(`/memories/f${i % 5}/n${i}.md`);
  });
});

describe('the app methods in call order with the commands', () => {
  // Each loads its code on first use (or hashes a bundle) before its transaction: a command called right after it,
  // not awaited, must still come after it. Each case calls the method, then at once a command, and checks the method
  // saw the memory as it was before the command, and the command's effect as it was after the method.
  it('undo, then a create: undoes the change before, not the create', async () => {
    await create('/memories/a.md', 'one');
    await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
    const [edit] = await tool.history({ limit: 1 });
    const [undone, created] = await Promise.all([tool.undo(), run({ command: 'create', path: '/memories/b.md', file_text: 'b' })]);
    expect(created.is_error).toBe(false);
    expect(undone).toMatchObject({ command: 'undo', undoOf: edit?.id, paths: ['/memories/a.md'] });
    expect(await read('/memories/a.md')).toBe('one');
    expect(await read('/memories/b.md')).toBe('b');
    // Its answer is its own journal entry, not the newest one (the create).
    const [newest, second] = await tool.history({ limit: 2 });
    expect(newest).toMatchObject({ command: 'create', paths: ['/memories/b.md'] });
    expect(second).toEqual(undone);
  });

  it('list and read, then writes: show the memory before them', async () => {
    await create('/memories/a.md', 'old');
    const [listed, text] = await Promise.all([
      tool.list(),
      tool.read('/memories/a.md'),
      run({ command: 'create', path: '/memories/b.md', file_text: 'b' }),
      run({ command: 'str_replace', path: '/memories/a.md', old_str: 'old', new_str: 'new' }),
    ]);
    expect(listed.map((entry) => entry.path)).toEqual(['/memories/a.md']);
    expect(text).toBe('old');
  });

  it('history and change, then a write and an undo: show the journal before them', async () => {
    await create('/memories/a.md', 'one');
    const [before] = await tool.history();
    const [history, change] = await Promise.all([
      tool.history(),
      tool.change(before?.id ?? 0),
      run({ command: 'create', path: '/memories/b.md', file_text: 'b' }),
      tool.undo(before?.id),
    ]);
    expect(history).toEqual([before]);
    expect(change).toMatchObject({ id: before?.id, undone: false, files: [{ path: '/memories/a.md', before: null, after: 'one' }] });
    expect(await tool.change(before?.id ?? 0)).toMatchObject({ undone: true });
  });

  it('expire, then a create: expires what was there, not the new file', async () => {
    await create('/memories/old.md', 'old');
    // A cutoff a minute ahead: every file written before it counts as stale, the new one too if it came first.
    const [expired] = await Promise.all([
      tool.expire({ olderThan: new Date(Date.now() + 60_000) }),
      run({ command: 'create', path: '/memories/new.md', file_text: 'new' }),
    ]);
    expect(expired.deleted).toEqual(['/memories/old.md']);
    expect(await read('/memories/new.md')).toBe('new');
  });

  it('export, then a create: exports the memory before it', async () => {
    await create('/memories/a.md', 'a');
    const [bundle] = await Promise.all([tool.exportBundle(), run({ command: 'create', path: '/memories/b.md', file_text: 'b' })]);
    const files = (JSON.parse(await bundle.text()) as { files: { path: string }[] }).files;
    expect(files.map((file) => file.path)).toEqual(['/memories/a.md']);
  });

  // A change listener that calls the tool a few microtasks later (after an await, or through queueMicrotask) calls it
  // after the commands already waiting for the turn that announced the change: its command must come after theirs.
  it.each([0, 1, 2, 3, 6])('a listener that starts a create %i awaits after an undo comes after a list already waiting', async (hops) => {
    await create('/memories/a.md', 'a');
    await IndexedDBMemoryTool.preload();
    let later: Promise<unknown> | undefined;
    const stop = tool.subscribe(async () => {
      if (later) return;
      later = Promise.resolve();
      for (let i = 0; i < hops; i++) await null;
      later = run({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    });
    const undone = tool.undo();
    const listed = tool.list();
    await undone;
    expect((await listed).map((entry) => entry.path)).toEqual([]);
    await later;
    stop();
    expect(await read('/memories/b.md')).toBe('b');
  });

  it.each(['queueMicrotask', 'await null'])('a listener that starts a create through %s comes after a view already waiting for a write', async (defer) => {
    await create('/memories/a.md', 'one');
    let later: Promise<unknown> | undefined;
    const write = () => (later = run({ command: 'create', path: '/memories/a.md', file_text: 'three' }));
    const stop = tool.subscribe(async () => {
      if (later) return;
      later = Promise.resolve();
      if (defer === 'queueMicrotask') queueMicrotask(write);
      else {
        await null;
        write();
      }
    });
    // The create trusts the totals its tool remembers, so the view waits for it (it might run twice).
    const first = run({ command: 'create', path: '/memories/a.md', file_text: 'two' });
    const seen = read('/memories/a.md');
    await first;
    expect(await seen).toBe('two');
    await later;
    stop();
    expect(await read('/memories/a.md')).toBe('three');
  });

  it('import, then a create of a file it holds: the create comes after and wins', async () => {
    await create('/memories/a.md', 'from the bundle');
    const bundle = await tool.exportBundle();
    await ok({ command: 'delete', path: '/memories/a.md' });
    const [report, created] = await Promise.all([
      tool.importBundle(bundle, { onConflict: 'fail' }),
      run({ command: 'create', path: '/memories/a.md', file_text: 'mine' }),
    ]);
    expect(report.addedPaths).toEqual(['/memories/a.md']);
    expect(created.is_error).toBe(false);
    expect(await read('/memories/a.md')).toBe('mine');
  });
});

describe('the totals a tool remembers between its writes', () => {
  /**
   * While `action` runs: the journal's cursors opened (each a read of the totals from its end), its key lookups
   * (each a check of remembered totals) and the transactions aborted.
   */
  async function watch(action: () => Promise<unknown>): Promise<{ cursors: number; lookups: number; aborts: number }> {
    const store = IDBObjectStore.prototype;
    const originals = { openCursor: store.openCursor, getKey: store.getKey, get: store.get, abort: IDBTransaction.prototype.abort };
    const seen = { cursors: 0, lookups: 0, aborts: 0 };
    for (const name of ['openCursor', 'getKey', 'get'] as const) {
      const original = originals[name] as (...args: unknown[]) => IDBRequest;
      (store as unknown as Record<string, unknown>)[name] = function (this: IDBObjectStore, ...args: unknown[]) {
        if (this.name === 'journal') seen[name === 'openCursor' ? 'cursors' : 'lookups']++;
        return original.apply(this, args);
      };
    }
    IDBTransaction.prototype.abort = function (this: IDBTransaction) {
      seen.aborts++;
      originals.abort.call(this);
    };
    try {
      await action();
    } finally {
      Object.assign(store, { openCursor: originals.openCursor, getKey: originals.getKey, get: originals.get });
      IDBTransaction.prototype.abort = originals.abort;
    }
    return seen;
  }
  const totalsReads = async (action: () => Promise<unknown>): Promise<number> => (await watch(action)).cursors;
  const tools: IndexedDBMemoryTool[] = [];
  const another = async (options: Parameters<typeof IndexedDBMemoryTool.init>[0] = {}): Promise<IndexedDBMemoryTool> => {
    const opened = await IndexedDBMemoryTool.init({ dbName: tool.dbName, ...options });
    tools.push(opened);
    return opened;
  };
  afterEach(() => {
    for (const opened of tools.splice(0)) opened.close();
  });

  it('reads them once, then only remembers them while no other write comes between its own', async () => {
    expect(await totalsReads(() => create('/memories/a.md', 'one\n'))).toBe(1);
    expect(await totalsReads(() => create('/memories/b.md', 'two\n'))).toBe(0);
    expect(await totalsReads(() => ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'uno' }))).toBe(0);
    expect(await totalsReads(() => ok({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'zero' }))).toBe(0);
    expect(await totalsReads(() => ok({ command: 'rename', old_path: '/memories/b.md', new_path: '/memories/c/b.md' }))).toBe(0);
    expect(await totalsReads(() => ok({ command: 'delete', path: '/memories/c' }))).toBe(0);
    // Another tool's write is newer than what this one remembers: read once, then remembered again.
    await (await another()).create({ command: 'create', path: '/memories/other.md', file_text: 'x' });
    expect(await totalsReads(() => create('/memories/d.md', 'three\n'))).toBe(1);
    expect(await totalsReads(() => create('/memories/e.md', 'four\n'))).toBe(0);
    // Undo and an import remember what they wrote too: the import's entry (a step per file) is not read back.
    await tool.undo();
    expect(await totalsReads(() => create('/memories/f.md', 'five\n'))).toBe(0);
    await tool.importBundle(await tool.exportBundle({ path: '/memories/a.md' }), { onConflict: 'overwrite' });
    expect(await totalsReads(() => create('/memories/g.md', 'six\n'))).toBe(0);
    expect(await read('/memories/a.md')).toBe('zero\nuno\n');
    // So does an expiry that deleted something (this one, everything).
    expect((await tool.expire({ olderThan: new Date(Date.now() + 60_000) })).deleted.length).toBeGreaterThan(0);
    expect(await totalsReads(() => create('/memories/h.md', 'seven\n'))).toBe(0);
  });

  it('runs a write again from totals read afresh when another tool wrote since, committing and announcing it once', async () => {
    const texts: string[] = [];
    const mine = await another({ beforeWrite: ({ content }) => void texts.push(content) });
    const events: string[] = [];
    mine.subscribe((event) => {
      if (event.source === 'local') events.push(...event.changes.map((change) => change.path));
    });
    const none = { cursors: 0, lookups: 0, aborts: 0 };
    await mine.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    expect(await watch(() => mine.create({ command: 'create', path: '/memories/b.md', file_text: 'b' }))).toEqual(none);
    const theirs = await another();
    await theirs.create({ command: 'create', path: '/memories/t1.md', file_text: 't' });
    // The first run starts from what it remembers, finds by its record's key that another write came between, and
    // is taken back; the second reads the totals.
    expect(await watch(() => mine.create({ command: 'create', path: '/memories/c.md', file_text: 'c' }))).toEqual({ cursors: 1, lookups: 0, aborts: 1 });
    // Another tool is busy: the next write checks what it remembers first, and since nothing came between, trusts it again.
    expect(await watch(() => mine.create({ command: 'create', path: '/memories/d.md', file_text: 'd' }))).toEqual({ cursors: 0, lookups: 1, aborts: 0 });
    expect(await watch(() => mine.create({ command: 'create', path: '/memories/e.md', file_text: 'e' }))).toEqual(none);
    // Checked and found stale, the totals are read in the same run: no run is taken back.
    await theirs.create({ command: 'create', path: '/memories/t2.md', file_text: 't' });
    await mine.create({ command: 'create', path: '/memories/f.md', file_text: 'f' });
    await theirs.create({ command: 'create', path: '/memories/t3.md', file_text: 't' });
    expect(await watch(() => mine.create({ command: 'create', path: '/memories/g.md', file_text: 'g' }))).toEqual({ cursors: 1, lookups: 1, aborts: 0 });
    // beforeWrite saw c and f twice (once per run); the memory, the history and the events have them once.
    expect(texts).toEqual(['a', 'b', 'c', 'c', 'd', 'e', 'f', 'f', 'g']);
    expect(events).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => `/memories/${name}.md`));
    expect((await mine.history()).map((entry) => entry.paths.join().slice(10))).toEqual(['g.md', 't3.md', 'f.md', 't2.md', 'e.md', 'd.md', 'c.md', 't1.md', 'b.md', 'a.md']);
    expect(await read('/memories/c.md')).toBe('c');
  });

  it('keeps the call order when a write runs again: the commands called after it wait for its second run', async () => {
    const mine = await another();
    const theirs = await another();
    await mine.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await mine.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    await theirs.create({ command: 'create', path: '/memories/t.md', file_text: 't' });
    let results: { content: string }[] = [];
    const seen = await watch(async () => {
      results = await Promise.all([
        mine.run({ command: 'create', path: '/memories/c.md', file_text: 'draft' }),
        mine.run({ command: 'view', path: '/memories/c.md' }),
        mine.run({ command: 'str_replace', path: '/memories/c.md', old_str: 'draft', new_str: 'final' }),
        mine.run({ command: 'view', path: '/memories/c.md' }),
      ]);
    });
    expect(results.map((result) => result.content.split('\n').at(-1))).toEqual([
      'File created successfully at: /memories/c.md',
      '     1\tdraft',
      '     1\tfinal',
      '     1\tfinal',
    ]);
    // The create ran twice: its first run found the other tool's write between.
    expect(seen.aborts).toBe(1);
  });

  it('keeps the call order when a write that waited for another runs again', async () => {
    const mine = await another();
    const theirs = await another();
    await mine.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    // Once b is written, the other tool writes before mine's next create starts: that create runs twice.
    let interfered = false;
    mine.subscribe((event) => {
      if (interfered || !event.changes.some((change) => change.path === '/memories/b.md')) return;
      interfered = true;
      void theirs.create({ command: 'create', path: '/memories/t.md', file_text: 't' });
    });
    let results: { content: string }[] = [];
    const seen = await watch(async () => {
      results = await Promise.all([
        mine.run({ command: 'create', path: '/memories/b.md', file_text: 'b' }),
        mine.run({ command: 'create', path: '/memories/c.md', file_text: 'draft' }),
        mine.run({ command: 'view', path: '/memories/c.md' }),
        mine.run({ command: 'str_replace', path: '/memories/c.md', old_str: 'draft', new_str: 'final' }),
        mine.run({ command: 'view', path: '/memories/c.md' }),
      ]);
    });
    expect(results.map((result) => result.content.split('\n').at(-1))).toEqual([
      'File created successfully at: /memories/b.md',
      'File created successfully at: /memories/c.md',
      '     1\tdraft',
      '     1\tfinal',
      '     1\tfinal',
    ]);
    expect(seen.aborts).toBe(1);
  });

  it('keeps the call order for a command a change listener starts: it comes after those already called', async () => {
    await create('/memories/first.md', '1');
    let viewed: Promise<string> | undefined;
    tool.subscribe((event) => {
      if (!viewed && event.changes.some((change) => change.path === '/memories/c.md')) {
        viewed = tool.view({ command: 'view', path: '/memories/c.md' });
      }
    });
    await Promise.all([
      tool.create({ command: 'create', path: '/memories/c.md', file_text: 'draft' }),
      tool.str_replace({ command: 'str_replace', path: '/memories/c.md', old_str: 'draft', new_str: 'final' }),
    ]);
    expect(await viewed).toBe("Here's the content of /memories/c.md with line numbers:\n     1\tfinal");
  });

  it('lets a create that trusts them send the body under their next id and write the entry without waiting for it', async () => {
    const realAdd = IDBObjectStore.prototype.add;
    const realPut = IDBObjectStore.prototype.put;
    const bodies: { key: unknown; request: IDBRequest }[] = [];
    const atEntryPut: string[] = [];
    vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      const request = realAdd.call(this, value, key);
      if (this.name === 'bodies') bodies.push({ key, request });
      return request;
    });
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name === 'entries' && (value as { kind?: string }).kind === 'file') atEntryPut.push(bodies.at(-1)?.request.readyState ?? 'none');
      return realPut.call(this, value, key);
    });
    try {
      // The first write reads the totals: its body takes a key from the store, which its entry waits for.
      await create('/memories/a.md', 'one');
      // The next trusts what the first left: the body goes under their next id, and the entry does not wait.
      await create('/memories/b.md', 'two');
    } finally {
      vi.restoreAllMocks();
    }
    expect(bodies.map((body) => typeof body.key)).toEqual(['undefined', 'number']);
    expect(bodies[1]?.key).toBe(Number(bodies[0]?.request.result) + 1);
    expect(atEntryPut).toEqual(['done', 'pending']);
    expect([await read('/memories/a.md'), await read('/memories/b.md')]).toEqual(['one', 'two']);
    const listing = await ok({ command: 'view', path: '/memories' });
    expect(listing.split('\n').slice(2)).toEqual(['3B\t/memories/a.md', '3B\t/memories/b.md']);
  });

  it('checks them before a delete or rename instead, which another write between then costs a read, not a second run', async () => {
    const theirs = await another();
    await create('/memories/big/a.md', 'a');
    await create('/memories/big/b.md', 'b');
    await theirs.create({ command: 'create', path: '/memories/t1.md', file_text: 't' });
    expect(await watch(() => ok({ command: 'rename', old_path: '/memories/big', new_path: '/memories/moved' }))).toEqual({ cursors: 1, lookups: 1, aborts: 0 });
    expect(await watch(() => ok({ command: 'rename', old_path: '/memories/moved', new_path: '/memories/big' }))).toEqual({ cursors: 0, lookups: 1, aborts: 0 });
    await theirs.create({ command: 'create', path: '/memories/t2.md', file_text: 't' });
    expect(await watch(() => ok({ command: 'delete', path: '/memories/big' }))).toEqual({ cursors: 1, lookups: 1, aborts: 0 });
    expect(await watch(() => ok({ command: 'delete', path: '/memories/t1.md' }))).toEqual({ cursors: 0, lookups: 1, aborts: 0 });
  });

  it.each([
    { case: 'still kept by its history (the add fails)', theirs: {} },
    { case: 'released again, with no history (the add succeeds, the key check catches it)', theirs: { history: false as const } },
  ])('runs an edit again when another tool has used the body id it would take, $case', async ({ theirs }) => {
    const other = await another(theirs);
    await create('/memories/a.md', 'mine');
    // The other tool's edit takes the next body id this tool remembers as free.
    await other.create({ command: 'create', path: '/memories/b.md', file_text: 'theirs' });
    await other.str_replace({ command: 'str_replace', path: '/memories/b.md', old_str: 'theirs', new_str: 'theirs, edited' });
    await other.str_replace({ command: 'str_replace', path: '/memories/b.md', old_str: 'edited', new_str: 'edited twice' });
    expect(await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'mine', new_str: 'mine, edited' })).toContain('mine, edited');
    expect(await read('/memories/a.md')).toBe('mine, edited');
    expect(await read('/memories/b.md')).toBe('theirs, edited twice');
    expect(await tool.undo()).toMatchObject({ command: 'undo' });
    expect(await read('/memories/a.md')).toBe('mine');
    expect(await read('/memories/b.md')).toBe('theirs, edited twice');
  });

  it('starts each of parallel writes of one tool from the totals the one before left: none is read again or run twice', async () => {
    await create('/memories/first.md', '1');
    // The first trusts them; the others wait for it (it might run twice), and each then trusts what the one before left.
    const seen = await watch(() => Promise.all(Array.from({ length: 5 }, (_, i) => create(`/memories/p${i}.md`, `${i}`))));
    expect(seen).toEqual({ cursors: 0, lookups: 0, aborts: 0 });
    expect((await tool.history()).length).toBe(6);
    // Writes that do not trust them (a delete) run beside the others and check them: the one before is then newer.
    const mixed = await watch(() => Promise.all([ok({ command: 'delete', path: '/memories/p0.md' }), ok({ command: 'delete', path: '/memories/p1.md' })]));
    expect(mixed).toEqual({ cursors: 1, lookups: 2, aborts: 0 });
    expect((await tool.history()).length).toBe(8);
  });

  it('checks them in the same run before refusing a write by the limits, so a refusal costs no second run', async () => {
    const calls: string[] = [];
    const small = await another({ limits: { maxFiles: 2 }, beforeWrite: ({ path }) => void calls.push(path) });
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    calls.length = 0;
    let refused: unknown;
    expect(await watch(async () => (refused = await small.run({ command: 'create', path: '/memories/c.md', file_text: 'c' })))).toEqual({ cursors: 0, lookups: 1, aborts: 1 });
    expect(refused).toMatchObject({ is_error: true, content: expect.stringMatching(/limit of 2 files/) });
    expect(calls).toEqual(['/memories/c.md']);
  });

  it('refuses by the limits, not with the storage error, when a full disk fails the early body before the check', async () => {
    const small = await another({ limits: { maxFiles: 2 } });
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    const before = await snapshot();
    // Every body write fails as it is carried out, as on a full disk: an add under a taken key, whose failure (and so
    // the transaction's) reads as the browser's QuotaExceededError. It aborts the transaction while the limit check
    // of the remembered totals waits for its key lookup.
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const asQuota = (error: DOMException | null): DOMException | null => (error?.name === 'ConstraintError' ? quota : error);
    const realError = Object.getOwnPropertyDescriptor(IDBTransaction.prototype, 'error')?.get;
    const realAdd = IDBObjectStore.prototype.add;
    const patched = new WeakSet<IDBTransaction>();
    vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name !== 'bodies') return realAdd.call(this, value, key);
      const tx = this.transaction;
      if (!patched.has(tx)) {
        patched.add(tx);
        // fake-indexeddb keeps the error as the transaction's own property, a browser behind a getter.
        let own = realError ? null : tx.error;
        Object.defineProperty(tx, 'error', {
          configurable: true,
          get: () => asQuota(realError ? (realError.call(tx) as DOMException | null) : own),
          set: (error: DOMException | null) => void (own = error),
        });
      }
      return realAdd.call(this, value, 1);
    });
    let refused: unknown;
    try {
      refused = await small.run({ command: 'create', path: '/memories/c.md', file_text: 'c' });
    } finally {
      vi.restoreAllMocks();
    }
    expect(refused).toEqual({
      is_error: true,
      code: 'too_large',
      content: 'Error: The memory already holds its limit of 2 files. Delete files first. Nothing was written.',
    });
    expect(await snapshot()).toBe(before);
  });

  it('remembers the key of its own record when its write pruned the history', async () => {
    const small = await another({ history: { maxEntries: 2 }, limits: { maxFiles: 3 } });
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    // The third entry is over the bound: this write drops the oldest and writes its record again, at its key.
    await small.insert({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'x' });
    expect((await small.history()).length).toBeLessThanOrEqual(2);
    await (await another()).create({ command: 'create', path: '/memories/c.md', file_text: 'c' });
    expect((await small.run({ command: 'create', path: '/memories/d.md', file_text: 'd' })).content).toMatch(/limit of 3 files/);
  });

  it('counts each of parallel writes of one tool against the limits, though they start from the same remembered totals', async () => {
    const small = await another({ limits: { maxFiles: 4 } });
    await small.create({ command: 'create', path: '/memories/first.md', file_text: '1' });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => small.run({ command: 'create', path: `/memories/p${i}.md`, file_text: `${i}` })),
    );
    expect(results.filter((result) => result.is_error).map((result) => result.content)).toEqual([
      'Error: The memory already holds its limit of 4 files. Delete files first. Nothing was written.',
      'Error: The memory already holds its limit of 4 files. Delete files first. Nothing was written.',
    ]);
    expect((await ok({ command: 'view', path: '/memories' })).split('\n').filter((line) => line.endsWith('.md'))).toHaveLength(4);
  });

  it.each([
    { case: 'with history', mine: {}, theirs: {} },
    { case: 'with no history on either side (the totals in one hidden record)', mine: { history: false as const }, theirs: { history: false as const } },
    { case: 'after the other pruned the record they were read from', mine: {}, theirs: { history: { maxEntries: 2 } } },
  ])('counts what another tool on the database wrote since, $case', async ({ mine, theirs }) => {
    const small = await another({ ...mine, limits: { maxFiles: 3 } });
    const other = await another(theirs);
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    await other.create({ command: 'create', path: '/memories/c.md', file_text: 'c' });
    for (let i = 0; i < 4; i++) await other.insert({ command: 'insert', path: '/memories/c.md', insert_line: 0, insert_text: `${i}` });
    expect((await small.run({ command: 'create', path: '/memories/d.md', file_text: 'd' })).content).toBe(
      'Error: The memory already holds its limit of 3 files. Delete files first. Nothing was written.',
    );
    await other.delete({ command: 'delete', path: '/memories/c.md' });
    expect((await small.run({ command: 'create', path: '/memories/d.md', file_text: 'd' })).is_error).toBe(false);
  });

  it('does not refuse a write by totals another tool has since made smaller', async () => {
    const small = await another({ limits: { maxFiles: 2 } });
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    await (await another()).delete({ command: 'delete', path: '/memories/a.md' });
    // What small remembers says 2 files, the limit; there is one.
    expect((await small.run({ command: 'create', path: '/memories/c.md', file_text: 'c' })).is_error).toBe(false);
    expect((await small.run({ command: 'create', path: '/memories/d.md', file_text: 'd' })).content).toMatch(/limit of 2 files/);
  });

  it('forgets them with the connection: a database deleted and made again starts from its own totals', async () => {
    const small = await another({ limits: { maxFiles: 2 } });
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    // Every open tool steps aside for the delete (versionchange) and reopens on its next command.
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(tool.dbName);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    });
    await (await another()).create({ command: 'create', path: '/memories/x.md', file_text: 'x' });
    // Remembered from before the delete, the totals would say 2 files and refuse this one.
    expect((await small.run({ command: 'create', path: '/memories/y.md', file_text: 'y' })).is_error).toBe(false);
    expect((await small.run({ command: 'create', path: '/memories/z.md', file_text: 'z' })).content).toMatch(/limit of 2 files/);
  });
});

describe('the totals under random concurrent use of one database by differently set tools', () => {
  /** A pseudo-random number generator, so that a failing seed can be run again. */
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };

  /** The totals the newest journal record holds, next to what a full scan of the stores counts. */
  async function totalsAndScan(dbName: string) {
    const db = await openDB<MemorySchema>(dbName);
    const tx = db.transaction(['entries', 'bodies', 'journal']);
    const [entries, bodyKeys, journal] = await Promise.all([
      tx.objectStore('entries').getAll(),
      tx.objectStore('bodies').getAllKeys(),
      tx.objectStore('journal').getAll(),
    ]);
    db.close();
    const files = entries.filter((entry) => entry.kind === 'file');
    const changes = journal.filter((record) => !record.hidden);
    const [, bytes, fileCount, nextBody, journalBytes, journalEntries] = journal.at(-1)?.totals ?? [0, 0, 0, 1, 0, 0];
    return {
      totals: { bytes, files: fileCount, journalBytes, journalEntries, bodiesBelowNext: true },
      scan: {
        bytes: files.reduce((sum, file) => sum + file.size, 0),
        files: files.length,
        journalBytes: changes.reduce((sum, record) => sum + record.bytes, 0),
        journalEntries: changes.length,
        bodiesBelowNext: bodyKeys.every((key) => key < (nextBody ?? 1)),
      },
    };
  }

  it.each(Array.from({ length: 12 }, (_, i) => i + 1))('keeps them equal to a scan of the stores (seed %i)', async (seed) => {
    const next = random(seed);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const dbName = `${tool.dbName}-random-${seed}`;
    const settings = [{}, { history: false as const }, { history: { maxEntries: 3 } }, { limits: { maxFiles: 6 } }, { history: { maxEntries: 5, maxBytes: 30 } }];
    const tools = await Promise.all(settings.map((options) => IndexedDBMemoryTool.init({ dbName, ...options })));
    const paths = ['/memories/a.md', '/memories/b.md', '/memories/d/c.md', '/memories/d/e.md', '/memories/f.md', '/memories/g/h.md'];
    const storageErrors: string[] = [];
    try {
      for (let round = 0; round < 20; round++) {
        const calls = Array.from({ length: 1 + Math.floor(next() * 8) }, async () => {
          const one = pick(tools);
          const path = pick(paths);
          const roll = next();
          let result: unknown;
          if (roll < 0.3) result = await one.run({ command: 'create', path, file_text: `${'x'.repeat(Math.floor(next() * 12))}\nline` });
          else if (roll < 0.45) result = await one.run({ command: 'insert', path, insert_line: 0, insert_text: 'ins' });
          else if (roll < 0.55) result = await one.run({ command: 'str_replace', path, old_str: 'line', new_str: `LINE${'y'.repeat(Math.floor(next() * 5))}` });
          else if (roll < 0.65) result = await one.run({ command: 'delete', path: roll < 0.6 ? path : '/memories/d' });
          else if (roll < 0.72) result = await one.run({ command: 'rename', old_path: path, new_path: pick(paths) });
          else if (roll < 0.82) await one.undo().catch(() => undefined);
          else if (roll < 0.86) await one.expire({ olderThan: next() < 0.5 ? 10_000_000 : new Date(Date.now() + 1000) });
          else if (roll < 0.93) {
            const bundle = await pick(tools).exportBundle();
            await one.importBundle(bundle, { mode: next() < 0.5 ? 'merge' : 'replace', onConflict: pick(['overwrite', 'skip'] as const) }).catch(() => undefined);
          } else result = await one.run({ command: 'view', path });
          const failed = result as { is_error?: boolean; code?: string; content?: string } | undefined;
          if (failed?.is_error && failed.code === 'storage') storageErrors.push(failed.content ?? '');
        });
        await Promise.all(calls);
      }
    } finally {
      for (const one of tools) one.close();
    }
    expect(storageErrors).toEqual([]);
    const { totals, scan } = await totalsAndScan(dbName);
    expect(totals).toEqual(scan);
  });
});

describe('a part loaded on first use that cannot be loaded', () => {
  // Node only: vitest's browser mode cannot make a module's loading fail. test/e2e/tabs.test.ts does it for real
  // in Chromium, offline.
  const inBrowser = typeof window !== 'undefined';
  it.skipIf(inBrowser)('fails that method with an unavailable error saying what to do; the six commands go on', async () => {
    await create('/memories/a.md', 'a');
    // As when the page went offline before its first list(): the chunk cannot be fetched.
    vi.doMock('../../src/storage/tree-reads.js', () => {
      throw new TypeError('Failed to fetch dynamically imported module: listing.js');
    });
    try {
      await expect(tool.list()).rejects.toMatchObject({
        name: 'MemoryToolError',
        code: 'unavailable',
        // The cause's words in the brackets (here vitest's own, wrapping the factory's throw).
        message: expect.stringMatching(/^This part of the memory tool could not be loaded \(.+\): the page may be offline, .*Reload the page while online\. Nothing was changed\.$/) as unknown,
      });
      expect(await create('/memories/b.md', 'b')).toBe('File created successfully at: /memories/b.md');
      expect(await read('/memories/a.md')).toBe('a');
    } finally {
      vi.doUnmock('../../src/storage/tree-reads.js');
    }
    expect((await tool.list()).map((entry) => entry.path)).toEqual(['/memories/a.md', '/memories/b.md']);
  });
});

describe('lifecycle', () => {
  it('keeps the memory across init calls on the same database', async () => {
    await create('/memories/kept.md', 'still here');
    const again = await IndexedDBMemoryTool.init({ dbName: tool.dbName });
    try {
      expect((await again.run({ command: 'view', path: '/memories/kept.md' })).content).toContain('still here');
    } finally {
      again.close();
    }
  });

  it('fails with a storage error after close()', async () => {
    tool.close();
    const result = await run({ command: 'view', path: '/memories' });
    expect(result).toEqual({
      is_error: true,
      code: 'storage',
      content: 'Error: The memory storage failed (the memory was closed). Nothing was written.',
    });
  });

  it('keeps separate databases apart', async () => {
    const other = await IndexedDBMemoryTool.init({ dbName: `${tool.dbName}-other` });
    try {
      await create('/memories/mine.md', 'x');
      expect((await other.run({ command: 'view', path: '/memories/mine.md' })).is_error).toBe(true);
    } finally {
      other.close();
    }
  });
});
