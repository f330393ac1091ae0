// A review card in the transcript: Claude's proposed write (command, path, the diff of before → after) with Allow,
// Deny (an optional reason) and "Allow for this conversation". It takes focus as it appears; once answered, or
// withdrawn by Stop, it says what happened and has nothing left to press. Loaded when the first card is needed.

import { approvePolicy } from '../../src/index.js';
import type { PolicyAnswer, WriteProposal } from '../../src/index.js';
import { byId, el } from '../page/dom.js';
import { capDiff, diffLines, withContext } from '../history/line-diff.js';
import '../history/history-diff.css';
import './review.css';

/** Diff lines shown on a card; the rest are counted. */
const LINES_SHOWN = 200;

/** The open cards: Stop withdraws them all. */
const open = new Set<() => void>();
let cardCount = 0;

// Stop ends the turn, and the library withdraws its open question: the card says so and answers nothing more.
document.getElementById('stop')?.addEventListener('click', () => {
  for (const withdraw of [...open]) withdraw();
});

/**
 * The tool's `approve` (through main.ts): "Allow for this conversation" is kept by source; with the setting
 * turned off since the page opened, Claude's writes are allowed without asking.
 */
export const reviewApprove = approvePolicy({
  ask: (proposal) => (byId('review-writes', HTMLInputElement).checked ? askInTranscript(proposal) : 'allow'),
}).approve;

/** Shows `proposal` as a card at the end of the transcript and resolves to the person's answer. */
export function askInTranscript(proposal: WriteProposal): Promise<PolicyAnswer> {
  const root = byId('transcript', HTMLElement);
  const id = `review-${++cardCount}`;
  const card = el('div', {
    className: 'msg review',
    attrs: { role: 'group', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-summary`, tabindex: '-1' },
  });
  const title = el('p', { className: 'who', text: `Claude asks to ${action(proposal)}`, attrs: { id: `${id}-title` } });
  const { summary, body } = renderChange(proposal);
  const summaryLine = el('p', { className: 'review-summary', text: summary, attrs: { id: `${id}-summary` } });
  const reasonId = `${id}-reason`;
  const reason = el('input', { attrs: { id: reasonId, type: 'text', autocomplete: 'off' } });
  const field = el('div', { className: 'field' }, el('label', { text: 'Reason to deny (optional, Claude reads it)', attrs: { for: reasonId } }), reason);
  const allow = el('button', { text: 'Allow', attrs: { type: 'button' } });
  const allowAll = el('button', { text: 'Allow for this conversation', attrs: { type: 'button' } });
  const deny = el('button', { text: 'Deny', attrs: { type: 'button' } });
  const buttons = el('div', { className: 'buttons' }, allow, ...(proposal.source !== undefined ? [allowAll] : []), deny);
  const outcome = el('p', { className: 'review-outcome' });
  card.append(title, summaryLine, ...body, field, buttons, outcome);
  root.append(card);
  root.scrollTop = root.scrollHeight;
  card.focus();

  return new Promise<PolicyAnswer>((resolve) => {
    const settle = (answer: PolicyAnswer, state: string, words: string) => {
      open.delete(withdraw);
      field.remove();
      buttons.remove();
      card.dataset.outcome = state;
      outcome.textContent = words;
      // The pressed button is gone: focus stays on the card, not on <body>.
      if (card.contains(document.activeElement) || document.activeElement === document.body) card.focus();
      resolve(answer);
    };
    const withdraw = () => settle('deny', 'withdrawn', 'Withdrawn: the turn was stopped. Nothing was written.');
    open.add(withdraw);
    allow.addEventListener('click', () => settle('allow', 'allowed', 'Allowed.'));
    allowAll.addEventListener('click', () =>
      settle('allow-conversation', 'allowed', "Allowed, and the rest of this conversation's writes without asking."),
    );
    deny.addEventListener('click', () => {
      const why = reason.value.trim();
      settle(why === '' ? 'deny' : { deny: why }, 'denied', why === '' ? 'Denied. Nothing was written.' : `Denied: ${why}. Nothing was written.`);
    });
    // Enter in the reason field denies with it: the field belongs to Deny. Escape does nothing (no silent denial).
    reason.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.isComposing) {
        event.preventDefault();
        deny.click();
      }
    });
  });
}

/** `create /memories/a.md`, `rename /memories/a → /memories/b`. */
function action(proposal: WriteProposal): string {
  const target = proposal.newPath === undefined ? proposal.path : `${proposal.path} → ${proposal.newPath}`;
  return `${proposal.command} ${target}`;
}

/** The change in words (the card's description) and as a diff with +/− signs. */
function renderChange(proposal: WriteProposal): { summary: string; body: HTMLElement[] } {
  const { before, after, files } = proposal;
  if (before === null && after === null) {
    const list = files ?? [];
    const what = proposal.command === 'delete' ? 'Deletes the folder' : 'Moves the folder';
    const names = list.slice(0, 20).map((path) => el('li', { text: path }));
    return {
      summary: `${what} with ${count(list.length, 'file')} in it.`,
      body: names.length > 0 ? [el('ul', { className: 'review-files' }, ...names)] : [],
    };
  }
  const lines = diffLines(before, after);
  const added = lines.filter((line) => line.type === 'added').length;
  const removed = lines.filter((line) => line.type === 'removed').length;
  const kind = before === null ? 'A new file' : after === null ? 'Deletes the file' : 'Changes the file';
  const summary = `${kind}: ${count(added, 'line')} added, ${count(removed, 'line')} removed.`;
  const { shown, hidden } = capDiff(withContext(lines), LINES_SHOWN);
  // A <pre> may not be named: the group around it is. Focusable, as it may scroll.
  const pre = el('pre', { className: 'diff-lines', attrs: { tabindex: '0' } });
  for (const line of shown) {
    if ('skipped' in line) pre.append(el('span', { className: 'line skipped', text: `  … ${count(line.skipped, 'unchanged line')}\n` }));
    else if (line.type === 'same') pre.append(el('span', { className: 'line same', text: `  ${line.text}\n` }));
    else {
      const sign = line.type === 'added' ? '+' : '−';
      const word = line.type === 'added' ? 'added: ' : 'removed: ';
      const mark = el(line.type === 'added' ? 'ins' : 'del', { className: `line ${line.type}` });
      mark.append(el('span', { text: `${sign} `, attrs: { 'aria-hidden': 'true' } }), el('span', { className: 'sr-only', text: word }), `${line.text}\n`);
      pre.append(mark);
    }
  }
  const rest = hidden.added + hidden.removed + hidden.same;
  const more = rest > 0 ? [el('p', { className: 'diff-more', text: `… and ${count(rest, 'more line')} not shown.` })] : [];
  const label = `Proposed change to ${proposal.newPath ?? proposal.path}`;
  return { summary, body: [el('div', { className: 'diff-file', attrs: { role: 'group', 'aria-label': label } }, pre), ...more] };
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
}
