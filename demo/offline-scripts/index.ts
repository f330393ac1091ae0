// The Offline demo's scripts, in the order the picker lists them (catalog.ts); the first is the default.

import { OFFLINE_PROMPT, OFFLINE_QUESTION, offlineTurns } from './remember.js';
import { OFFLINE_SCRIPT_CHOICES, labelOf } from './catalog.js';
import { longTask } from './long-task.js';
import type { OfflineScript } from './script.js';
import { twoSessions } from './two-sessions.js';
import { findBySearch } from './find-by-search.js';

export type { OfflineScript } from './script.js';

const rememberAPreference: OfflineScript = {
  id: 'remember',
  label: labelOf('remember'),
  intro:
    'Offline demo: a scripted Claude, the real SDK tool runner, this memory; nothing leaves the page. Two ' +
    'conversations: the first learns what you drink and writes it down, the second knows only what /memories holds.',
  options: {},
  conversations: [OFFLINE_PROMPT, OFFLINE_QUESTION],
  turns: offlineTurns,
};

const byId = new Map([rememberAPreference, longTask, twoSessions, findBySearch].map((script) => [script.id, script]));

export const OFFLINE_SCRIPTS: readonly OfflineScript[] = OFFLINE_SCRIPT_CHOICES.flatMap(({ id }) => byId.get(id) ?? []);
