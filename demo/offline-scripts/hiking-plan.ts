// The task both long offline scripts play: planning a week of hiking in four parts, with the checklist and the
// progress log that the multi-session prompt (MULTI_SESSION_PROMPT) asks Claude to keep in /memories.

export const CHECKLIST = '/memories/checklist.md';
export const PROGRESS = '/memories/progress.md';

export const PARTS = ['Route', 'Gear', 'Food', 'Budget'] as const;
export type Part = (typeof PARTS)[number];

/** What Claude says when it has worked out a part. */
export const ANSWERS: Record<Part, string> = {
  Route: 'Route: six stages hut to hut, from Chamonix to Zermatt, with a rest day in Arolla.',
  Gear: 'Gear: boots worn in, a 35-litre pack, a shell jacket, a hut sleeping bag liner, poles and a head torch.',
  Food: 'Food: half board in the huts; for the day, bread, cheese, dried fruit and two litres of water.',
  Budget: 'Budget: about 90 € a night in the huts, 60 € for trains and buses: some 700 € for the week.',
};

const view = (path: string) => ({ input: { command: 'view', path } });

/** The first look every session begins with. */
export const lookAtMemory = { text: 'Let me check my memory first.', toolUses: [view('/memories')] };

/** Claude reads the log and the checklist, as a later session must before anything else. */
export const readTheLog = (text: string) => ({ text, toolUses: [view(PROGRESS), view(CHECKLIST)] });

/** The first session lays down the checklist and the log. */
export function layDown(text: string) {
  const checklist = `# A week of hiking in the Alps\n${PARTS.map((part) => `- [ ] ${part}`).join('\n')}\n`;
  const progress = '# Progress\nTask: plan a week of hiking in the Alps, in four parts (see checklist.md).\n';
  return {
    text,
    toolUses: [
      { input: { command: 'create', path: CHECKLIST, file_text: checklist } },
      { input: { command: 'create', path: PROGRESS, file_text: progress } },
    ],
  };
}

/** Claude answers a part and ticks it: the box only, as the prompt says. */
export function tick(part: Part, text = ANSWERS[part]) {
  const input = { command: 'str_replace', path: CHECKLIST, old_str: `- [ ] ${part}`, new_str: `- [x] ${part}` };
  return { text, toolUses: [{ input }] };
}

/** Claude adds an entry at the end of the log (line `after` is its last line). */
export function log(entry: string, after: number, text: string) {
  return { text, toolUses: [{ input: { command: 'insert', path: PROGRESS, insert_line: after, insert_text: entry } }] };
}
