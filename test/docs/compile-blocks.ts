// Compiles each TypeScript block as a module of its own, with the strict options an app would use, and runs the
// blocks marked `run` in Node (fake-indexeddb for the IndexedDB, the scripted Claude for the network).

import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';
import type { CodeBlock } from './blocks.js';

/** Where a block is written in the project, named by its Markdown file and line (`getting-started-L42.ts`). */
export const blockFileName = (block: CodeBlock): string =>
  `${basename(block.file, '.md')}-L${block.line}.${block.lang === 'tsx' ? 'tsx' : 'ts'}`;

/**
 * The libs a block compiles against: a page's by default; `worker` for a service worker or an extension's background
 * (no DOM; the block declares `self` as the worker it is).
 */
const libsFor = (block: CodeBlock): string[] =>
  block.attrs.has('worker') ? ['lib.es2022.d.ts', 'lib.webworker.d.ts'] : ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'];

const STRICT: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  jsx: ts.JsxEmit.ReactJSX,
  types: [],
  noEmit: true,
};

/**
 * What the compiler said: per block file, and about files no block is (a declaration the blocks reach), by the package
 * that holds the file (`idb-memory-tool` for the package's own, `typescript` for the libs).
 */
export interface CompileReport {
  readonly byBlock: ReadonlyMap<string, string[]>;
  readonly elsewhere: ReadonlyMap<string, string[]>;
}

/** The package a file belongs to: the name after its last `node_modules/` (`@scope/name` or `name`). */
export const packageOf = (fileName: string): string => {
  const tail = fileName.split('/node_modules/').at(-1) ?? fileName;
  const [first = '', second = ''] = tail.split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
};

const describe = (diagnostic: ts.Diagnostic): string => {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (diagnostic.file === undefined || diagnostic.start === undefined) return `TS${diagnostic.code}: ${text}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${basename(diagnostic.file.fileName)}:${line + 1}:${character + 1} TS${diagnostic.code}: ${text}`;
};

/**
 * Writes every block into `dir/blocks/` (each made a module with `export {}`, so no two share a scope) and
 * type-checks them, one program per set of libs.
 */
export function compileBlocks(dir: string, blocks: readonly CodeBlock[]): CompileReport {
  const folder = join(dir, 'blocks');
  mkdirSync(folder, { recursive: true });
  const groups = new Map<string, string[]>();
  const byBlock = new Map<string, string[]>();
  for (const block of blocks) {
    const file = join(folder, blockFileName(block));
    writeFileSync(file, `${block.code}\nexport {};\n`);
    byBlock.set(file, []);
    const key = libsFor(block).join(',');
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }
  const elsewhere = new Map<string, Set<string>>();
  for (const [libs, files] of groups) {
    const program = ts.createProgram(files, { ...STRICT, lib: libs.split(',') });
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const own = diagnostic.file === undefined ? undefined : byBlock.get(diagnostic.file.fileName);
      if (own !== undefined) {
        own.push(describe(diagnostic));
        continue;
      }
      const holder = diagnostic.file === undefined ? 'options' : packageOf(diagnostic.file.fileName);
      elsewhere.set(holder, (elsewhere.get(holder) ?? new Set()).add(describe(diagnostic)));
    }
  }
  const named = new Map<string, string[]>();
  for (const [file, messages] of byBlock) named.set(basename(file), messages);
  const others = new Map<string, string[]>();
  for (const [holder, messages] of elsewhere) others.set(holder, [...messages]);
  return { byBlock: named, elsewhere: others };
}

/** How a block ran in Node: its exit code and what it printed. */
export interface RunResult {
  readonly code: number | null;
  readonly output: string;
}

/**
 * Runs a block in Node from `dir/run/` with an IndexedDB (`fake-indexeddb/auto`, imported first, as a Node app
 * would), after stripping its types. Resolves when the process ends; a block that throws exits non-zero.
 */
export function runBlock(dir: string, block: CodeBlock): Promise<RunResult> {
  const folder = join(dir, 'run');
  mkdirSync(folder, { recursive: true });
  const { outputText } = ts.transpileModule(`import 'fake-indexeddb/auto';\n${block.code}\nexport {};\n`, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, jsx: ts.JsxEmit.ReactJSX },
  });
  const file = join(folder, blockFileName(block).replace(/\.tsx?$/, '.mjs'));
  writeFileSync(file, outputText);
  return new Promise((done) => {
    execFile(process.execPath, [file], { cwd: dir, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, output: `${stdout}${stderr}` });
    });
  });
}
