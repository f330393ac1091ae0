// The Offline demo's scripts, in the order the picker lists them; the first is played when there is no picker.

import { OFFLINE_PROMPT, offlineTurns } from '../offline-script.js';
import { longTask } from './long-task.js';
import type { OfflineScript } from './script.js';
import { twoSessions } from './two-sessions.js';

export type { OfflineScript } from './script.js';

const rememberAPreference: OfflineScript = {
  id: 'remember',
  label: 'Remember a preference',
  intro: 'Offline demo: a scripted Claude, the real SDK tool runner, this memory. Nothing leaves the page.',
  options: {},
  conversations: [OFFLINE_PROMPT],
  turns: offlineTurns,
};

export const OFFLINE_SCRIPTS: readonly OfflineScript[] = [rememberAPreference, longTask, twoSessions];
