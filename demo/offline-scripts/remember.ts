// The Offline demo's first script: what the scripted Claude says and which memory commands it makes, over two
// conversations. The first learns what the person drinks and writes it down; the second, a new conversation that
// remembers nothing, views /memories first, reads the note and answers from it. It runs through the real SDK tool
// runner and the real tool; only Claude's side is scripted.

import type { ScriptedRequest, ScriptedStep } from '../../src/entries/offline.js';

export const OFFLINE_NOTE = '/memories/offline-demo.md';
export const OFFLINE_PROMPT = 'Please remember: I drink green tea, no sugar.';
/** What the person asks in the second conversation. */
export const OFFLINE_QUESTION = 'What do I like to drink?';

/** The text of the last tool_result the scripted Claude received. */
function lastResult(request: ScriptedRequest): string {
  const last = request.messages?.at(-1);
  if (!last || !Array.isArray(last.content)) return '';
  for (const block of last.content) {
    if (block.type === 'tool_result' && typeof block.content === 'string') return block.content;
  }
  return '';
}

/** The list items of a file as `view` shows it (`     2\t- Drinks tea`): what the note says. */
function notedItems(viewed: string): string[] {
  return viewed
    .split('\n')
    .map((line) => line.replace(/^\s*\d+\t/u, ''))
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2).trim());
}

export function offlineTurns(): ScriptedStep[] {
  return [
    // The first conversation: Claude learns something and writes it down.
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
    { text: `Noted: green tea, no sugar. It is in ${OFFLINE_NOTE}, where a new conversation will find it.` },
    // The second: a new conversation, which knows only what /memories holds.
    { text: 'Let me check my memory first.', toolUses: [{ input: { command: 'view', path: '/memories' } }] },
    (request) =>
      lastResult(request).includes(OFFLINE_NOTE)
        ? {
            text: 'There is a note about you from an earlier conversation: let me read it.',
            toolUses: [{ input: { command: 'view', path: OFFLINE_NOTE } }],
          }
        : { text: 'My memory holds nothing about you, so I do not know yet.' },
    (request) => {
      const items = notedItems(lastResult(request));
      return {
        text:
          items.length > 0
            ? `My note from our last conversation says: “${items.join('”, “')}”. That is what I will go by.`
            : 'My note about you says nothing yet.',
      };
    },
  ];
}
