// npm run test:sdk-oldest: the tests that touch the SDK, against the oldest SDK the peer range allows (the dev
// dependency, which `npm test` runs, is the newest). The oldest is read from peerDependencies, so the matrix follows
// the range. node_modules' copy is swapped for the run and the locked one put back after it, pass or fail.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { testsReaching } from './tests-reaching.mjs';

const SDK = '@anthropic-ai/sdk';
/**
 * The tests that load the SDK (through any chain of imports) or compile against it (they name it or our entries that
 * wrap it): the rest run the same on every version, and are run once, by `npm test`.
 */
const FILES = testsReaching(process.cwd(), 'test', [SDK, 'idb-memory-tool/sdk', 'idb-memory-tool/agent'], (file) =>
  file.startsWith('test/e2e/'),
);
// The parity test is the one that checks the swap happened (SDK_MATRIX_VERSION, below): a run without it proves nothing.
if (!FILES.includes('test/adapters/sdk-parity.node.test.ts')) throw new Error('The SDK-touching tests were not found');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const range = pkg.peerDependencies?.[SDK] ?? '';
// Only a caret range has one plain oldest version; anything else needs this script to learn it.
const oldest = /^\^(\d+\.\d+\.\d+)$/u.exec(range)?.[1];
if (!oldest) throw new Error(`peerDependencies["${SDK}"] is ${JSON.stringify(range)}: expected ^x.y.z`);
const locked = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages?.[`node_modules/${SDK}`]?.version;
if (!locked) throw new Error(`package-lock.json has no ${SDK}`);

/** Runs `command`, showing its output; true when it exited 0. */
function run(command, args, env = {}) {
  console.log(`\n> ${[command, ...args].join(' ')}`);
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return status === 0;
}

const install = (version) => run('npm', ['install', '--no-save', '--no-audit', '--no-fund', `${SDK}@${version}`]);

// Ctrl-C reaches the test run too; this process waits for it to end and then still puts the locked SDK back.
process.on('SIGINT', () => {
  process.exitCode = 130;
});

let passed = false;
try {
  if (!install(oldest)) throw new Error(`could not install ${SDK}@${oldest}`);
  // Tells the suite which SDK it should find, so a swap that did not happen cannot pass for one that did.
  const env = { SDK_MATRIX_VERSION: oldest };
  const node = run('npx', ['vitest', 'run', '--project', 'node', ...FILES], env);
  // In the browser, the loop's own code: the agent, the adapters and the offline Claude (the sync tests' remote is in Node).
  const browser = FILES.filter((file) => /^test\/(agent|adapters|offline)\//u.test(file) && !file.endsWith('.node.test.ts'));
  const chromium = run('npx', ['vitest', 'run', '--project', 'chromium', ...browser], env);
  passed = node && chromium;
} finally {
  if (!install(locked)) {
    console.error(`Could not put ${SDK}@${locked} back: run npm ci.`);
    passed = false;
  }
}
console.log(passed ? `\nThe SDK-touching tests pass on ${SDK}@${oldest} (locked: ${locked}).` : `\nFailed on ${SDK}@${oldest}.`);
if (!passed) process.exitCode ||= 1;
