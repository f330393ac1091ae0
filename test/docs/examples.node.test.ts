// Every ```ts and ```tsx block of README.md and docs/*.md (and the demo page's sample) compiles on its own against the built package with strict
// TypeScript, and the blocks marked `run` run in Node without throwing; one test per block, named by file and line.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, typescriptBlocks, type CodeBlock } from './blocks.js';
import { blockFileName, compileBlocks, runBlock, type CompileReport } from './compile-blocks.js';
import { createExampleProject, root, type ExampleProject } from './example-project.js';

const DOC_FILES = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
/**
 * The demo page's "Use it in your app" sample (index.html): the `<code>` that imports the package, unescaped, with
 * the `client` its text describes declared.
 */
function demoSample(): CodeBlock[] {
  const html = readFileSync(join(root, 'index.html'), 'utf8');
  const found = /<code>(import \{ IndexedDBMemoryTool \}[\s\S]*?)<\/code>/u.exec(html);
  if (!found?.[1]) return [];
  const code = found[1].replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  const line = html.slice(0, found.index).split('\n').length;
  const client = "import Anthropic from '@anthropic-ai/sdk';\ndeclare const client: Anthropic;\n";
  return [{ file: 'index.html', line, lang: 'ts', attrs: new Set(), code: client + code }];
}

const demo = demoSample();
const blocks = [
  ...DOC_FILES.flatMap((file) => typescriptBlocks(codeBlocks(file, readFileSync(join(root, file), 'utf8')))),
  ...demo,
];

// A sample a reader could have written, broken on purpose: the check must name it, or it proves nothing.
const BROKEN_SAMPLE = [
  '# A broken guide',
  '',
  '```ts',
  "import { IndexedDBMemoryTool } from 'idb-memory-tool';",
  "await IndexedDBMemoryTool.init({ dbname: 'typo' });",
  'await tool.view({ command: "view", path: "/memories" }); // `tool` never declared',
  '```',
  '',
  '```text',
  'a sketch, not code: never compiled',
  '```',
  '',
  '```ts run',
  "throw new Error('this example fails when run');",
  '```',
].join('\n');
const sample = typescriptBlocks(codeBlocks('broken-sample.md', BROKEN_SAMPLE));

let project: ExampleProject | undefined;
let report: CompileReport = { byBlock: new Map(), elsewhere: new Map() };

// The Vercel AI SDK's own declarations (`ai` and its provider packages) do not compile under
// exactOptionalPropertyTypes with skipLibCheck off (optional properties without `| undefined`): a fault of those
// packages, seen by any strict app that imports them, not of this one's. `age-encryption`'s (reached through the
// bundle part's types) fail too under some of the blocks' settings (its WebAuthn declarations name DOM types).
const THIRD_PARTY_FAULTS = ['ai', '@ai-sdk/provider', '@ai-sdk/provider-utils', 'age-encryption'];

beforeAll(() => {
  project = createExampleProject();
  report = compileBlocks(project.dir, [...blocks, ...sample]);
  // A bound on a hang, not a speed check: a library build and two strict programs over the SDK's, ai's and React's
  // declarations took 4 minutes on the loaded 2-core machine.
}, 600_000);
afterAll(() => project?.remove());

const dir = (): string => {
  if (project === undefined) throw new Error('the example project was not built');
  return project.dir;
};
const errorsOf = (block: CodeBlock): string[] | undefined => report.byBlock.get(blockFileName(block));

describe('the examples in README.md and docs/', () => {
  it('are there: every guide is read, and some examples run', () => {
    expect(DOC_FILES.length).toBeGreaterThan(10);
    expect(blocks.length).toBeGreaterThan(30);
    expect(blocks.filter((block) => block.attrs.has('run')).length).toBeGreaterThan(3);
    // The demo page's sample for app developers is compiled with them.
    expect(demo.map((block) => block.code)).toEqual([expect.stringContaining('memoryTool(tool)')]);
  });

  it("reach the package's declarations, which type-check with skipLibCheck off", () => {
    expect(report.elsewhere.get('idb-memory-tool')).toBeUndefined();
    expect(report.elsewhere.get('options')).toBeUndefined();
  });

  it(`reach no other declarations that fail with skipLibCheck off but those of ${THIRD_PARTY_FAULTS.join(', ')}`, () => {
    expect([...report.elsewhere.keys()].filter((holder) => !THIRD_PARTY_FAULTS.includes(holder))).toEqual([]);
  });

  for (const block of blocks) {
    it(`${block.file}:${block.line} compiles on its own`, () => {
      expect(errorsOf(block)).toEqual([]);
    });
    if (block.attrs.has('run')) {
      it(`${block.file}:${block.line} runs in Node without throwing`, async () => {
        const { code, output } = await runBlock(dir(), block);
        expect({ code, output }).toEqual({ code: 0, output: expect.any(String) as string });
      }, 180_000);
    }
  }
});

describe('the check itself', () => {
  it('names a block that does not compile, by its line, with what is wrong', () => {
    expect(sample.map((block) => block.line)).toEqual([3, 13]);
    const [broken] = sample;
    const errors = broken === undefined ? undefined : errorsOf(broken);
    expect(errors?.join('\n')).toMatch(/TS2561.*dbname/);
    expect(errors?.join('\n')).toMatch(/TS2304: Cannot find name 'tool'/);
  });

  it('compiles no fence but ts and tsx: a sketch stays a sketch', () => {
    expect(codeBlocks('broken-sample.md', BROKEN_SAMPLE).map((block) => block.lang)).toEqual(['ts', 'text', 'ts']);
    expect([...report.byBlock.keys()].filter((name) => name.startsWith('broken-sample'))).toEqual([
      'broken-sample-L3.ts',
      'broken-sample-L13.ts',
    ]);
  });

  it('fails a run block that throws', async () => {
    const [, throwing] = sample;
    if (throwing === undefined) throw new Error('the sample lost its run block');
    const { code, output } = await runBlock(dir(), throwing);
    expect(code).not.toBe(0);
    expect(output).toContain('this example fails when run');
  }, 180_000);
});
