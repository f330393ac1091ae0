// Side by side with the official SDK tool: the same scripted turns go through the real
// `client.beta.messages.toolRunner` once with BetaLocalFilesystemMemoryTool on a temp folder and once with
// ours, and every tool_result is compared. Differences are allowed only where src/commands/README.md says the official tool is wrong.
// Also: the default model and the demo's suggestions are models the installed SDK names.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { betaMemoryTool } from '@anthropic-ai/sdk/helpers/beta/memory';
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import type { BetaRunnableTool } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { memoryTool } from '../../src/entries/sdk.js';
import { DEFAULT_AGENT_MODEL } from '../../src/entries/agent.js';
import { SDK_MODELS } from '../../demo/chat/models.js';
import type { SdkModel } from '../../demo/chat/models.js';
import type { IndexedDBMemoryToolOptions } from '../../src/index.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import type { ReceivedToolResult } from '../../src/offline/scripted-claude.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

type Input = Record<string, unknown>;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Runs `turns` (each a list of tool inputs Claude sends at once) through the real runner with `tool`. */
async function runThroughRunner(tool: BetaRunnableTool, turns: Input[][], stream: boolean): Promise<ReceivedToolResult[]> {
  const claude = createScriptedClaude([...turns.map((inputs) => ({ toolUses: inputs.map((input) => ({ input })) })), { text: 'done' }]);
  const client = new Anthropic({ apiKey: 'test-key', fetch: claude.fetch, maxRetries: 0 });
  const runner = client.beta.messages.toolRunner({
    model: DEFAULT_AGENT_MODEL,
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'remember things' }],
    tools: [tool],
    stream,
  } as Parameters<typeof client.beta.messages.toolRunner>[0]);
  await runner.runUntilDone();
  return claude.toolResults();
}

async function official(): Promise<BetaRunnableTool> {
  const dir = await mkdtemp(join(tmpdir(), 'memory-parity-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return betaMemoryTool(await BetaLocalFilesystemMemoryTool.init(dir)) as BetaRunnableTool;
}

const openTool = toolsClosedAfterEach('parity');
async function ours(options: IndexedDBMemoryToolOptions = {}): Promise<BetaRunnableTool> {
  return memoryTool(await openTool(options)) as BetaRunnableTool;
}

const seq = (...inputs: Input[]): Input[][] => inputs.map((input) => [input]);

/** Command sequences on which the official tool is right: every tool_result must be identical. */
const AGREED: Record<string, Input[][]> = {
  'a fresh memory': seq({ command: 'view', path: '/memories' }, { command: 'view', path: '/memories/none.md' }),
  'create, view, listing': seq(
    { command: 'create', path: '/memories/notes/todo.md', file_text: '# Todo\n- one\n- two\n' },
    { command: 'create', path: '/memories/notes/sub/deep/x.md', file_text: 'x' },
    { command: 'create', path: '/memories/Z.md', file_text: 'é'.repeat(800) },
    { command: 'create', path: '/memories/.hidden/a.md', file_text: 'a' },
    { command: 'create', path: '/memories/node_modules/a.md', file_text: 'a' },
    { command: 'create', path: '/memories/日本語.md', file_text: 'こんにちは' },
    { command: 'create', path: '/memories/..notes.md', file_text: 'dots' },
    { command: 'view', path: '/memories' },
    { command: 'view', path: '/memories/notes' },
    { command: 'view', path: '/memories/notes/todo.md' },
    { command: 'view', path: '/memories/notes/todo.md', view_range: [2, 3] },
    { command: 'view', path: '/memories/notes/todo.md', view_range: [2, -1] },
    { command: 'view', path: '/memories/notes/todo.md', view_range: [0, 1] },
    { command: 'view', path: '/memories/notes/todo.md', view_range: [10, 20] },
    { command: 'view', path: '/memories/日本語.md' },
  ),
  'str_replace on one line': seq(
    { command: 'create', path: '/memories/a.md', file_text: 'l1\nl2\nl3\nl4 target\nl5\nl6\nl7' },
    { command: 'str_replace', path: '/memories/a.md', old_str: 'target', new_str: 'done' },
    { command: 'str_replace', path: '/memories/a.md', old_str: 'l1', new_str: 'first\nline' },
    { command: 'str_replace', path: '/memories/a.md', old_str: 'missing', new_str: 'x' },
    { command: 'str_replace', path: '/memories/a.md', old_str: 'l', new_str: 'x' },
    { command: 'str_replace', path: '/memories/nope.md', old_str: 'a', new_str: 'b' },
    { command: 'view', path: '/memories/a.md' },
  ),
  'insert': seq(
    { command: 'create', path: '/memories/a.md', file_text: 'one\ntwo\n' },
    { command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'zero\n' },
    { command: 'insert', path: '/memories/a.md', insert_line: 2, insert_text: 'mid' },
    { command: 'insert', path: '/memories/a.md', insert_line: 9, insert_text: 'x' },
    { command: 'insert', path: '/memories/a.md', insert_line: -1, insert_text: 'x' },
    { command: 'insert', path: '/memories/b.md', insert_line: 0, insert_text: 'x' },
    { command: 'view', path: '/memories/a.md' },
  ),
  'delete and rename': seq(
    { command: 'create', path: '/memories/p/q/r.md', file_text: 'r' },
    { command: 'create', path: '/memories/p/s.md', file_text: 's' },
    { command: 'create', path: '/memories/t.md', file_text: 't' },
    { command: 'rename', old_path: '/memories/p', new_path: '/memories/moved/p2' },
    { command: 'rename', old_path: '/memories/t.md', new_path: '/memories/moved/p2/s.md' },
    { command: 'rename', old_path: '/memories/gone', new_path: '/memories/x' },
    { command: 'rename', old_path: '/memories', new_path: '/memories/x' },
    { command: 'view', path: '/memories' },
    { command: 'delete', path: '/memories/moved/p2/q' },
    { command: 'delete', path: '/memories/moved/p2/q' },
    { command: 'delete', path: '/memories' },
    { command: 'delete', path: '/memories/t.md' },
    { command: 'view', path: '/memories' },
  ),
  // SDK 1.16 already protects the root in these spellings (our rule R-delete-root was written before it).
  'the root in every spelling': seq(
    { command: 'create', path: '/memories/a.md', file_text: 'x' },
    { command: 'delete', path: '/memories/' },
    { command: 'delete', path: '/memories/.' },
    { command: 'rename', old_path: '/memories/', new_path: '/memories/x' },
    { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/' },
    { command: 'view', path: '/memories/a.md' },
  ),
  'refused paths': seq(
    { command: 'view', path: '/etc/passwd' },
    { command: 'create', path: '/memories/../escape.md', file_text: 'x' },
    { command: 'view', path: 'memories' },
  ),
  'create on a folder or the root': seq(
    { command: 'create', path: '/memories/d/x.md', file_text: 'x' },
    { command: 'create', path: '/memories/d', file_text: 'y' },
    { command: 'create', path: '/memories/d/', file_text: 'y' },
    { command: 'create', path: '/memories', file_text: 'y' },
    { command: 'create', path: '/memories/', file_text: 'y' },
    { command: 'view', path: '/memories' },
  ),
  'emoji names with their style selector': seq(
    { command: 'create', path: '/memories/\u2764\ufe0f.md', file_text: 'love' },
    { command: 'create', path: '/memories/notes \u2600\ufe0f/todo \u2714\ufe0e.md', file_text: 'sun' },
    { command: 'view', path: '/memories' },
    { command: 'view', path: '/memories/\u2764\ufe0f.md' },
  ),
  // Claude's JSON can carry half an emoji (a lone surrogate): the file then holds U+FFFD, and so does a view.
  'a lone surrogate in a text': seq(
    { command: 'create', path: '/memories/s.md', file_text: 'half \ud83d of an emoji\n\ude00' },
    { command: 'view', path: '/memories/s.md' },
    { command: 'view', path: '/memories' },
    { command: 'insert', path: '/memories/s.md', insert_line: 1, insert_text: 'more \udc00' },
    { command: 'view', path: '/memories/s.md' },
  ),
  // The 1,024-byte limit is the normalized path's: padding that folds away is no reason to refuse.
  'a padded path': seq(
    { command: 'create', path: '/memories' + '/'.repeat(1100) + 'n.md', file_text: 'n' },
    { command: 'view', path: '/memories/' + './'.repeat(600) + 'n.md' },
  ),
  'an empty path': seq({ command: 'view', path: '' }, { command: 'create', path: '', file_text: 'x' }),
  // A view_range of one line shows it whole, however long (a memory kept as one line of JSON).
  'one over-long line viewed alone': seq(
    { command: 'create', path: '/memories/f.txt', file_text: 'short\n' + 'y'.repeat(20_000) + '\nafter' },
    { command: 'view', path: '/memories/f.txt', view_range: [2, 2] },
  ),
  // The official tool checks the prefix as written, before anything is folded.
  'a doubled or dotted slash before memories': seq(
    { command: 'create', path: '//memories/a.md', file_text: 'x' },
    { command: 'view', path: '/./memories/a.md' },
    { command: 'view', path: '/memories' },
  ),
  'create on an existing file (overwrite: false)': seq(
    { command: 'create', path: '/memories/a.md', file_text: 'one' },
    { command: 'create', path: '/memories/a.md', file_text: 'two' },
    { command: 'view', path: '/memories/a.md' },
  ),
};

describe.each([false, true])('through the real toolRunner (stream: %s)', (stream) => {
  it.each(Object.keys(AGREED))('answers exactly as the official Node tool: %s', async (name) => {
    const turns = AGREED[name] ?? [];
    const theirs = await runThroughRunner(await official(), turns, stream);
    const mine = await runThroughRunner(await ours({ overwrite: false }), turns, stream);
    expect(mine).toHaveLength(turns.flat().length);
    expect(mine).toEqual(theirs);
  });
});

describe('where the official tool is wrong', () => {
  /** Results of both tools on `turns`, as [official, ours] content strings. */
  async function both(turns: Input[][]): Promise<[string[], string[]]> {
    const contents = (results: ReceivedToolResult[]) => results.map((r) => String(r.content));
    return [contents(await runThroughRunner(await official(), turns, false)), contents(await runThroughRunner(await ours(), turns, false))];
  }

  it('matches an old_str spanning lines, which the official tool never finds', async () => {
    const [theirs, mine] = await both(
      seq({ command: 'create', path: '/memories/a.md', file_text: 'a\nb' }, { command: 'str_replace', path: '/memories/a.md', old_str: 'a\nb', new_str: 'c' }),
    );
    expect(theirs[1]).toMatch(/^Error: No replacement was performed, old_str/);
    expect(mine[1]).toBe('The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tc');
  });

  it('counts two matches on one line, which the official tool replaces silently', async () => {
    const [theirs, mine] = await both(
      seq({ command: 'create', path: '/memories/a.md', file_text: 'x x' }, { command: 'str_replace', path: '/memories/a.md', old_str: 'x', new_str: 'y' }),
    );
    expect(theirs[1]).toMatch(/^The memory file has been edited/);
    expect(mine[1]).toBe('Error: No replacement was performed. Multiple occurrences of old_str `x` in lines: 1. Please ensure it is unique');
  });

  it('deletes old_str when new_str is omitted, where the official tool writes "undefined"', async () => {
    const turns = seq(
      { command: 'create', path: '/memories/a.md', file_text: 'keep drop' },
      { command: 'str_replace', path: '/memories/a.md', old_str: ' drop' },
      { command: 'view', path: '/memories/a.md' },
    );
    const [theirs, mine] = await both(turns);
    expect(theirs[2]).toContain('keepundefined');
    expect(mine[2]).toBe("Here's the content of /memories/a.md with line numbers:\n     1\tkeep");
  });

  it('shows a lone surrogate in an edit\'s snippet as U+FFFD, as its file holds it, where the official tool shows it raw', async () => {
    const [theirs, mine] = await both(
      seq({ command: 'create', path: '/memories/a.md', file_text: 'a' }, { command: 'str_replace', path: '/memories/a.md', old_str: 'a', new_str: 'b\ud83d' }, { command: 'view', path: '/memories/a.md' }),
    );
    expect(theirs[1]).toContain('\tb\ud83d');
    expect(mine[1]).toBe('The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tb\ufffd');
    expect(mine[2]).toBe(theirs[2]);
  });

  it('refuses /memoriesX, which the official tool maps into /memories', async () => {
    const [theirs, mine] = await both(seq({ command: 'create', path: '/memoriesX/a.md', file_text: 'x' }));
    expect(theirs[0]).toBe('File created successfully at: /memoriesX/a.md');
    expect(mine[0]).toBe('Error: Path must start with /memories, got: /memoriesX/a.md');
  });

  it('refuses a rename into itself and a create below a file in plain words, with no host path', async () => {
    const turns = seq(
      { command: 'create', path: '/memories/d/a.md', file_text: 'x' },
      { command: 'rename', old_path: '/memories/d', new_path: '/memories/d/e' },
      { command: 'create', path: '/memories/d/a.md/b.md', file_text: 'y' },
    );
    const [theirs, mine] = await both(turns);
    expect(theirs[1]).toMatch(/^Error: .*(EINVAL|invalid argument)/i);
    expect(theirs[2]).toMatch(/^Error: .*(ENOTDIR|not a directory)/i);
    expect(mine[1]).toBe('Error: Cannot rename /memories/d to /memories/d/e: a folder cannot be moved inside itself.');
    expect(mine[2]).toBe('Error: Cannot create /memories/d/a.md/b.md: /memories/d/a.md is a file, so nothing can be stored below it.');
    for (const text of mine) expect(text).not.toMatch(/\/tmp|memory-parity/);
  });

  it('keeps all 20 parallel inserts of one turn on one file, where the official tool loses updates', async () => {
    const inserts = Array.from({ length: 20 }, (_, i) => ({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: `entry ${i}` }));
    const turns: Input[][] = [[{ command: 'create', path: '/memories/log.md', file_text: '' }], inserts, [{ command: 'view', path: '/memories/log.md' }]];
    const [theirs, mine] = await both(turns);
    const kept = (view: string | undefined) => (view ?? '').split('\n').filter((line) => /\tentry \d+$/.test(line)).length;
    expect(kept(mine[21])).toBe(20);
    expect(kept(theirs[21])).toBeLessThan(20);
  });

  it('refuses an empty old_str, which the official tool matches at the start of the file', async () => {
    const turns = seq(
      { command: 'create', path: '/memories/a.md', file_text: 'text' },
      { command: 'str_replace', path: '/memories/a.md', old_str: '', new_str: 'X' },
      { command: 'view', path: '/memories/a.md' },
    );
    const [theirs, mine] = await both(turns);
    expect(theirs[1]).toMatch(/^The memory file has been edited/);
    expect(theirs[2]).toContain('\tXtext');
    expect(mine[1]).toBe('Error: Invalid input for str_replace: "old_str" must not be empty.');
    expect(mine[2]).toBe("Here's the content of /memories/a.md with line numbers:\n     1\ttext");
  });

  it('refuses malformed input in plain words, which the official tool dispatches as it is', async () => {
    const [theirs, mine] = await both(seq({ command: 'constructor', path: '/memories/a.md' }, { command: 'toString' }, { command: 'create', path: '/memories/a.md' }));
    expect(theirs[0]).toMatch(/^Error: Class constructor .* cannot be invoked without 'new'$/);
    expect(theirs[1]).toBe('[object Object]');
    expect(theirs[2]).toMatch(/^Error: The "data" argument must be of type string/);
    expect(mine[0]).toBe('Error: Invalid input for the memory tool: "command" must be one of view, create, str_replace, insert, delete, rename, got "constructor".');
    expect(mine[1]).toBe('Error: Invalid input for the memory tool: "command" must be one of view, create, str_replace, insert, delete, rename, got "toString".');
    expect(mine[2]).toBe('Error: Invalid input for the memory tool: create needs "file_text" (a string), and it is missing.');
  });

  it('overwrites on create by default, as Claude\'s tool description says, where the official tool refuses', async () => {
    const turns = seq({ command: 'create', path: '/memories/a.md', file_text: 'one' }, { command: 'create', path: '/memories/a.md', file_text: 'two' });
    const [theirs, mine] = await both(turns);
    expect(theirs[1]).toBe('Error: File /memories/a.md already exists');
    expect(mine[1]).toBe('File created successfully at: /memories/a.md');
  });
});

// npm run test:sdk-oldest sets it: a swap of the SDK that did not happen must not pass for one that did.
it.runIf(process.env['SDK_MATRIX_VERSION'])('runs against the SDK version the matrix installed (only under npm run test:sdk-oldest, which sets SDK_MATRIX_VERSION)', async () => {
  const { VERSION } = await import('@anthropic-ai/sdk/version');
  expect(VERSION).toBe(process.env['SDK_MATRIX_VERSION']);
});

describe("the SDK's model list", () => {
  // The compiler's check, against the SDK this is built with: an id the list drops fails `tsc -p test`.
  expectTypeOf<typeof DEFAULT_AGENT_MODEL>().toExtend<SdkModel>();
  expectTypeOf<(typeof SDK_MODELS)[number]>().toExtend<SdkModel>();
  // SdkModel is the named ids only, so the checks above are not trivially true.
  expectTypeOf<string>().not.toExtend<SdkModel>();

  /** The ids the installed SDK's `Model` type names, read from its declarations (the matrix runs two SDKs). */
  async function installedModels(): Promise<string[]> {
    const code = createRequire(import.meta.url).resolve('@anthropic-ai/sdk/resources/messages/messages');
    const types = await readFile(code.replace(/\.js$/u, '.d.ts'), 'utf8');
    const union = /export type Model =([^;]+);/u.exec(types)?.[1] ?? '';
    return [...union.matchAll(/'([^']+)'/gu)].map((match) => match[1]!);
  }

  it('names the default model and every model the demo suggests without a key', async () => {
    const models = await installedModels();
    expect(models.length).toBeGreaterThan(5);
    expect(models).toContain(DEFAULT_AGENT_MODEL);
    expect(DEFAULT_AGENT_MODEL).toMatch(/^claude-sonnet-/u);
    for (const id of SDK_MODELS) expect(models).toContain(id);
    expect(SDK_MODELS[0]).toBe(DEFAULT_AGENT_MODEL);
  });

  it('has no Sonnet newer than the default (the list runs newest first)', async () => {
    const sonnets = (await installedModels()).filter((id) => id.startsWith('claude-sonnet-'));
    expect(sonnets[0]).toBe(DEFAULT_AGENT_MODEL);
  });
});
