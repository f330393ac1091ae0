// "Find one fact by searching": a memory of 300 journal days, one of which names a wine. Claude searches with
// memory_search instead of paging through the listing, views the exact lines the search pointed to, and answers.

import { isMemoryToolError } from '../../src/index.js';
import type { MemoryAgentOptions } from '../../src/entries/agent.js';
import type { ScriptedRequest } from '../../src/entries/offline.js';
import { labelOf } from './catalog.js';
import type { OfflineScript } from './script.js';

export const JOURNAL = '/memories/journal';
export const JOURNAL_DAYS = 300;
/** The one day that holds the fact, and its line. */
export const WINE_DAY = `${JOURNAL}/2024-06-14.md`;
export const WINE_LINE = 'Dinner by the river in Porto: the wine we loved was a Quinta do Crasto Douro red, 2019.';

const MORNINGS = ['Slept late.', 'Early run by the canal.', 'Rain all morning.', 'Coffee on the balcony.', 'Bus to work.'];
const DAYS = ['Long meeting about the budget.', 'Read two chapters.', 'Fixed the bike chain.', 'Called my sister.', 'Cleaned the kitchen.', 'Worked from the library.', 'Planted basil.'];
const EVENINGS = ['Pasta at home.', 'Watched a film.', 'Early night.', 'Board games with friends.', 'Walked to the park.', 'Wrote letters.'];

/** Day `n` (0-based) of the journal: its path and its text, the same on every play. */
export function journalDay(n: number): { path: string; text: string } {
  const date = new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10);
  const path = `${JOURNAL}/${date}.md`;
  const evening = path === WINE_DAY ? WINE_LINE : EVENINGS[n % EVENINGS.length];
  return { path, text: `# ${date}\n${MORNINGS[n % MORNINGS.length]}\n${DAYS[n % DAYS.length]}\n${evening}\nBed by eleven.\n` };
}

/** Writes the journal's days that are not there yet (a second play finds them). */
async function writeJournal(tool: MemoryAgentOptions['tool']): Promise<void> {
  for (let n = 0; n < JOURNAL_DAYS; n++) {
    const { path, text } = journalDay(n);
    try {
      await tool.execute({ command: 'create', path, file_text: text });
    } catch (error) {
      if (!isMemoryToolError(error) || error.code !== 'already_exists') throw error;
    }
  }
}

/** The line range of the first search_result Claude received, as `view_range`: `#L3-L5` is [3, 5]. */
export function firstRange(request: ScriptedRequest): { path: string; range: [number, number] } {
  for (const block of request.messages?.at(-1)?.content ?? []) {
    if (typeof block === 'string' || block.type !== 'tool_result' || !Array.isArray(block.content)) continue;
    for (const result of block.content) {
      if (result.type !== 'search_result') continue;
      const found = /^(.*)#L(\d+)(?:-L(\d+))?$/u.exec(result.source);
      if (found?.[1] && found[2]) return { path: found[1], range: [Number(found[2]), Number(found[3] ?? found[2])] };
    }
  }
  return { path: WINE_DAY, range: [1, 5] };
}

export const findBySearch: OfflineScript = {
  id: 'find-by-search',
  label: labelOf('find-by-search'),
  intro:
    `Offline demo with search: ${JOURNAL} gets ${JOURNAL_DAYS} journal days (written now unless there already), and ` +
    'Claude, offered memory_search, finds the one fact among them, then views the exact lines it points to.',
  options: { search: true },
  prepare: writeJournal,
  conversations: ['What was the wine we loved in Porto?'],
  turns: () => [
    { text: `There are ${JOURNAL_DAYS} journal files: rather than page through them, I will search.`, toolUses: [{ name: 'memory_search', input: { query: 'wine Porto' } }] },
    (request) => {
      const { path, range } = firstRange(request);
      return {
        text: `One day matches: ${path}. Let me view lines ${range[0]}-${range[1]} to be sure.`,
        toolUses: [{ input: { command: 'view', path, view_range: range } }],
      };
    },
    { text: 'It was a Quinta do Crasto Douro red, 2019, at dinner by the river in Porto on 14 June 2024.' },
  ],
};
