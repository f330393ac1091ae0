// The Offline demo's conversation: what the scripted Claude says and which memory commands it makes. It runs
// through the real SDK tool runner and the real tool; only Claude's side is scripted.

import type { ScriptedRequest, ScriptedStep } from '../src/entries/offline.js';

export const OFFLINE_NOTE = '/memories/offline-demo.md';
export const OFFLINE_PROMPT = 'Please remember: I drink green tea, no sugar.';

/** The text of the last tool_result the scripted Claude received. */
function lastResult(request: ScriptedRequest): string {
  const last = request.messages?.at(-1);
  if (!last || !Array.isArray(last.content)) return '';
  for (const block of last.content) {
    if (block.type === 'tool_result' && typeof block.content === 'string') return block.content;
  }
  return '';
}

export function offlineTurns(): ScriptedStep[] {
  return [
    { text: 'Let me check my memory first.', toolUses: [{ input: { command: 'view', path: '/memories' } }] },
    (request) => ({
      text: lastResult(request).includes(OFFLINE_NOTE)
        ? 'I already have a note from an earlier demo; I will write it afresh.'
        : 'Nothing about you yet, so I will start a note.',
      toolUses: [{ input: { command: 'create', path: OFFLINE_NOTE, file_text: '# About the user\n- Drinks tea\n' } }],
    }),
    {
      text: 'Let me make that more precise.',
      toolUses: [
        {
          input: { command: 'str_replace', path: OFFLINE_NOTE, old_str: '- Drinks tea', new_str: '- Drinks green tea, no sugar' },
        },
      ],
    },
    {
      text: `Noted: green tea, no sugar. It is in ${OFFLINE_NOTE} — open it in the Memory panel.`,
    },
  ];
}
