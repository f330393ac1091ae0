// The AI SDK matrix (npm run test:ai-oldest, test/helpers/ai-oldest.mjs): the versions it installed are the ones
// the tests load, and the peer range takes both the oldest it runs and the dev dependency (the newest).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(join(root, 'package.json'));
/** The version of `name` that an import from the tests resolves to. */
const installed = (name: string): string => {
  // `ai`'s exports map has no `./package.json`: find it above the entry file.
  let dir = dirname(require.resolve(name));
  while (!dir.endsWith(join('node_modules', name))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
};
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

it('takes ai 6 and 7 in its peer range, and tests the newest 7 by default', () => {
  expect(pkg.peerDependencies['ai']).toBe('^6.0.0 || ^7.0.0');
  expect(pkg.devDependencies['ai']).toMatch(/^7\./);
  expect(pkg.devDependencies['@ai-sdk/anthropic']).toMatch(/^4\./);
});

it.runIf(process.env['AI_MATRIX_VERSION'])('runs against the ai the matrix installed (only under npm run test:ai-oldest)', () => {
  expect(installed('ai')).toBe(process.env['AI_MATRIX_VERSION']);
  expect(installed('@ai-sdk/anthropic')).toBe(process.env['AI_MATRIX_PROVIDER']);
});
