// insert through the tool: text after a line (0 to n), the file's trailing newline kept, and the refusals of a line
// outside the file, a line that is not an integer and a missing file.

import { describe, expect, it } from 'vitest';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('insert');
const { ok, fails, create, read } = fresh;

describe('insert', () => {
  it('inserts after insert_line, dropping one trailing newline of the text (R-insert)', async () => {
    await create('/memories/a.md', 'one\ntwo');
    expect(await ok({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'mid\n' })).toBe(
      'The file /memories/a.md has been edited.',
    );
    expect(await read('/memories/a.md')).toBe('one\nmid\ntwo');
    await ok({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'first' });
    await ok({ command: 'insert', path: '/memories/a.md', insert_line: 4, insert_text: 'last' });
    expect(await read('/memories/a.md')).toBe('first\none\nmid\ntwo\nlast');
  });

  it('keeps the trailing-newline state of the file (R-insert)', async () => {
    await create('/memories/a.md', 'one\n');
    await ok({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'two\n' });
    expect(await read('/memories/a.md')).toBe('one\ntwo\n');
  });

  it('refuses a line outside [0, n] in the SDK wording (R-insert-line)', async () => {
    await create('/memories/a.md', 'one\ntwo');
    expect(await fails({ command: 'insert', path: '/memories/a.md', insert_line: 3, insert_text: 'x' })).toBe(
      'Error: Invalid `insert_line` parameter: 3. It should be within the range of lines of the file: [0, 2]',
    );
    expect(await fails({ command: 'insert', path: '/memories/a.md', insert_line: -1, insert_text: 'x' })).toBe(
      'Error: Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 2]',
    );
  });

  it('refuses an insert_line that is not an integer (R-input)', async () => {
    await create('/memories/a.md', 'one');
    for (const insert_line of [1.5, '1', null, Number.NaN]) {
      expect(await fails({ command: 'insert', path: '/memories/a.md', insert_line, insert_text: 'x' })).toMatch(
        /^Error: Invalid input for the memory tool: "insert_line" of insert must be an integer, got /,
      );
    }
    expect(await read('/memories/a.md')).toBe('one');
  });

  it('refuses a missing file (R-edit-target)', async () => {
    expect(await fails({ command: 'insert', path: '/memories/no.md', insert_line: 0, insert_text: 'x' })).toBe(
      'Error: The path /memories/no.md does not exist. Please provide a valid path.',
    );
  });
});
