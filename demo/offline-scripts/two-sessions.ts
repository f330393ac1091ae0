// "Two sessions": the guide's pattern for work that spans conversations. The first lays down a checklist and a
// progress log in /memories; the second, a new conversation that remembers nothing, reads them first and goes on.

import { MULTI_SESSION_PROMPT } from '../../src/entries/agent.js';
import { labelOf } from './catalog.js';
import type { OfflineScript } from './script.js';
import { ANSWERS, lookAtMemory, layDown, log, readTheLog, tick } from './hiking-plan.js';

export const twoSessions: OfflineScript = {
  id: 'two-sessions',
  label: labelOf('two-sessions'),
  intro:
    'Two conversations with the multi-session prompt: the first lays down a checklist and a progress log in ' +
    '/memories, the second starts from nothing but those files.',
  options: { system: MULTI_SESSION_PROMPT },
  conversations: [
    'Let’s plan a week of hiking in the Alps: route, gear, food and budget. Start today; we will go on another day.',
    'Let’s go on with the hiking plan.',
  ],
  turns: () => [
    // The first conversation.
    lookAtMemory,
    layDown('Nothing here yet, so this is the first session: a checklist of the four parts, and a log.'),
    tick('Route'),
    log('- Session 1: chose the route (six stages, Chamonix to Zermatt). Next: gear.', 2, 'Before I stop: the log.'),
    { text: 'That is all for today: the route is chosen, and the log says gear comes next.' },
    // The second: a new conversation, which knows only what /memories holds.
    lookAtMemory,
    readTheLog('There is a log from an earlier session: let me read it, and the checklist.'),
    tick('Gear', `The route is done, so gear is next. ${ANSWERS.Gear}`),
    log('- Session 2: gear listed. Next: food, then the budget.', 3, 'Logging where I stopped.'),
    { text: 'Gear is done. Next time: food, then the budget; the log in /memories says so.' },
  ],
};
