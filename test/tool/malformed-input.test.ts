// Malformed input through run() and the handlers: every missing, mistyped or unknown field answered with a clear
// invalid_input error, never a crash, and prototype fields ignored.

import { describe, expect, it } from 'vitest';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { expectCode } from '../helpers/tool-calls.js';

const fresh = freshToolEach('malformed-input');
const { fails } = fresh;

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
  ])('answers %j with a clear error (R-input)', async (input, pattern) => {
    const content = await fails(input);
    expect(content).toMatch(/^Error: Invalid input for the memory tool: /);
    expect(content).toMatch(pattern);
    expect(content).not.toMatch(/undefined|TypeError|at .*\(|\n/);
  });

  it('ignores a prototype-polluted Object when checking fields (R-input)', async () => {
    const polluted = Object.create({ file_text: 'from prototype' }) as Record<string, unknown>;
    polluted.command = 'create';
    polluted.path = '/memories/a.md';
    expect(await fails(polluted)).toMatch(/create needs "file_text"/);
  });

  it('checks input given straight to a handler too (R-input)', async () => {
    await expectCode(fresh.tool.create({ command: 'create', path: '/memories/a.md' } as never), 'invalid_input');
    await expectCode(fresh.tool.view({} as never), 'invalid_input');
  });
});
