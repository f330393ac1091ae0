// npm run test:ai-oldest: the tests that use the Vercel AI SDK, against the oldest `ai` the peer range allows (the dev
// dependency, which `npm test` runs, is the newest). As test:sdk-oldest does for the Anthropic SDK: the oldest is read
// from peerDependencies, node_modules' copy swapped for the run, and the locked one put back after it, pass or fail.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const AI = 'ai';
const PROVIDER = '@ai-sdk/anthropic';
/**
 * The provider released with each `ai` major's first version (both on the same `@ai-sdk/provider-utils`): the app
 * installs the provider itself, and a provider newer than its `ai` may use what that `ai` lacks.
 */
const PROVIDER_OF = { 6: '3.0.0', 7: '4.0.0' };
/** Every test file that loads `ai` or the provider. */
const FILES = ['test/adapters/ai-sdk.test.ts', 'test/adapters/search-ai-sdk.test.ts', 'test/review/approve-runner.test.ts'];

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const range = pkg.peerDependencies?.[AI] ?? '';
// Only caret ranges (`^6.0.0 || ^7.0.0`) have one plain oldest version: the lowest of their bounds.
const bounds = range.split('||').map((part) => /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/u.exec(part));
if (bounds.length === 0 || bounds.some((bound) => !bound)) {
  throw new Error(`peerDependencies["${AI}"] is ${JSON.stringify(range)}: expected ^x.y.z joined by ||`);
}
const [oldestBound] = bounds.map((bound) => bound.slice(1, 4).map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
const oldest = oldestBound.join('.');
const provider = PROVIDER_OF[oldestBound[0]];
if (!provider) throw new Error(`No ${PROVIDER} known for ${AI} ${oldestBound[0]}: add it to PROVIDER_OF`);
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages ?? {};
const locked = [AI, PROVIDER].map((name) => {
  const version = lock[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`package-lock.json has no ${name}`);
  return `${name}@${version}`;
});

/** Runs `command`, showing its output; true when it exited 0. */
function run(command, args, env = {}) {
  console.log(`\n> ${[command, ...args].join(' ')}`);
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return status === 0;
}

const install = (specs) => run('npm', ['install', '--no-save', '--no-audit', '--no-fund', ...specs]);

// Ctrl-C reaches the test run too; this process waits for it to end and then still puts the locked versions back.
process.on('SIGINT', () => {
  process.exitCode = 130;
});

let passed = false;
try {
  if (!install([`${AI}@${oldest}`, `${PROVIDER}@${provider}`])) throw new Error(`could not install ${AI}@${oldest}`);
  // Tells the suite which versions it should find, so a swap that did not happen cannot pass for one that did.
  const env = { AI_MATRIX_VERSION: oldest, AI_MATRIX_PROVIDER: provider };
  const node = run('npx', ['vitest', 'run', '--project', 'node', ...FILES, 'test/package/ai-matrix.node.test.ts'], env);
  const chromium = run('npx', ['vitest', 'run', '--project', 'chromium', ...FILES], env);
  passed = node && chromium;
} finally {
  if (!install(locked)) {
    console.error(`Could not put ${locked.join(' and ')} back: run npm ci.`);
    passed = false;
  }
}
console.log(passed ? `\nThe AI SDK tests pass on ${AI}@${oldest} (locked: ${locked.join(', ')}).` : `\nFailed on ${AI}@${oldest}.`);
if (!passed) process.exitCode ||= 1;
