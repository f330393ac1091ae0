// Global setup of the `chromium` project: a fresh browser profile for each run, so no database of an earlier run
// is there (the profile is on disk, see vite.config.ts `chromiumProfile`).

import { rmSync } from 'node:fs';
import { chromiumProfile } from '../vite.config.js';

export default function setup(): void {
  rmSync(chromiumProfile, { recursive: true, force: true });
}
