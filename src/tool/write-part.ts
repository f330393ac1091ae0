// The write path as one part: Claude's five write commands, the guards every text passes, and the runner that journals
// each write. `init()` loads it beside the database's opening, so an app's first script does not carry it.

export { runWrite } from './write-commands.js';
export { writeGuards } from '../guards/write-guards.js';
export { WriteRunner } from './write-runner.js';
export { importBundleAction } from './import-action.js';
