// "A long task": one conversation long enough for the API to clear old tool uses and then compact it. The summary
// stands for the conversation from then on; the checklist and the log in /memories are what Claude goes on from.

import { MULTI_SESSION_PROMPT } from '../../src/entries/agent.js';
import type { ScriptedTurn } from '../../src/entries/offline.js';
import { labelOf } from './catalog.js';
import type { OfflineScript } from './script.js';
import { CHECKLIST, lookAtMemory, layDown, log, tick } from './hiking-plan.js';

/** What the scripted API's summary says: what the conversation did, not the parts themselves (those are in memory). */
const SUMMARY =
  'The user asked for a plan for a week of hiking in the Alps in four parts: route, gear, food, budget. Claude ' +
  'keeps a checklist in /memories/checklist.md and a log in /memories/progress.md. The route (six stages, ' +
  'Chamonix to Zermatt) and the gear are done and ticked; food and the budget remain.';

export const longTask: OfflineScript = {
  id: 'long-task',
  label: labelOf('long-task'),
  intro:
    'One long conversation with context editing and compaction on: the scripted API clears old tool uses, then ' +
    'summarizes the conversation, and Claude goes on from the summary and its memory.',
  options: {
    system: MULTI_SESSION_PROMPT,
    contextManagement: { keep: { type: 'tool_uses', value: 3 } },
    compaction: { trigger: { type: 'input_tokens', value: 50_000 } },
  },
  conversations: ['Plan a week of hiking in the Alps for me, all of it now: route, gear, food and budget.'],
  turns: () => [
    lookAtMemory,
    layDown('Nothing in memory yet: a checklist of the four parts first, and a log.'),
    tick('Route'),
    {
      ...tick('Gear'),
      appliedEdits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 2, cleared_input_tokens: 3_100 }],
    },
    {
      compaction: { summary: SUMMARY },
      text: 'The conversation so far was summarized. What is left is in my checklist: let me read it.',
      toolUses: [{ input: { command: 'view', path: CHECKLIST } }],
    } satisfies ScriptedTurn,
    tick('Food'),
    tick('Budget'),
    log('- Route, gear, food and budget done in one session: the plan is complete.', 2, 'All ticked; now the log.'),
    { text: 'The plan is complete: route, gear, food and budget, each ticked in /memories/checklist.md.' },
  ],
};
