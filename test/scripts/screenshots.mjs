// Entry of `npm run screenshots`: runs the e2e file that makes the README's pictures of the demo, writing them to
// demo/screenshots/ (in the suite the same file writes to a temporary folder).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'e2e', 'test/e2e/demo-screenshots.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SCREENSHOTS_DIR: 'demo/screenshots' },
});
process.exitCode = run.status ?? 1;
