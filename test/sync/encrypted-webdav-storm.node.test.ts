// A seeded storm of two devices over an end-to-end encrypted folder on Apache mod_dav (the storm of
// storm-real-remotes.node.test.ts, over the sealed remote): held to the same checks, the server's side read by a
// device of its own with the passphrase. SYNC_E2EE_STORM_SEEDS=7 and SYNC_E2EE_STORM_COMMANDS=n replay a failure
// (n = its step), as the line printed with it says; the whole trace goes to the temp folder.

import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptedStormRemote } from '../helpers/encrypted-webdav.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { FULL_STORM, runStorm, type StormPlan } from '../helpers/storm-run.js';
import { startApacheWebdav, type ApacheWebdav } from '../servers/apache-webdav.js';

const PLAN: StormPlan = FULL_STORM;
const SEEDS = (process.env['SYNC_E2EE_STORM_SEEDS'] ?? '1').split(',').map(Number);
const COMMANDS = Number(process.env['SYNC_E2EE_STORM_COMMANDS'] ?? 400);
/** Apache's body limit for PUT: a sealed file's, so the limit a text meets is a little lower. */
const DAV_LIMIT = 64 * 1024;

const open = toolsClosedAfterEach('storm-e2ee');
let dav: ApacheWebdav;

beforeAll(async () => {
  dav = await startApacheWebdav({ limitRequestBody: DAV_LIMIT });
}, 60_000);
afterAll(async () => {
  await dav?.stop();
});

describe('a storm of two devices over an encrypted WebDAV folder', () => {
  it.each(SEEDS)('ends converged with the remote, nothing lost, no delete undone, no unexplained copy, no rejection (seed %i)', async (seed) => {
    const remote = await encryptedStormRemote(dav, DAV_LIMIT, `storm passphrase ${seed}`);
    const result = await runStorm({ seed, commands: COMMANDS, devices: 2, remote, open: () => open(), plan: PLAN });
    const short = (line: string) => line.replace(/l{228}/gu, 'l…l');
    const told = result.failures.map((failure) => short(`seed ${seed} step ${failure.step}: ${failure.invariant}: ${failure.detail}`));
    if (told.length > 0) {
      const log = join(tmpdir(), `sync-storm-e2ee-seed${seed}.log`);
      await writeFile(log, [...told, '', ...result.trace.map(short)].join('\n'));
      const first = Math.min(...result.failures.map((failure) => failure.step));
      const replay = `SYNC_E2EE_STORM_SEEDS=${seed} SYNC_E2EE_STORM_COMMANDS=${first}`;
      console.error([`${told.length} failures; replay up to the first with ${replay}`, ...told.slice(0, 20), `— every step in ${log}`].join('\n'));
    }
    expect(told).toEqual([]);
    expect(result.commands).toBeGreaterThanOrEqual(COMMANDS);
  }, 600_000);
});
