// The demo page's words (index.html): the chat's intro and the help under the Offline demo's script are read one
// after the other, so each says its own thing; a phrase repeated from one to the other is read twice for nothing.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './example-project.js';

/** The text of the element with `id` in `html`: tags dropped, entities that the page uses decoded, spaces collapsed. */
function textOf(html: string, id: string): string {
  const open = new RegExp(`<(\\w+)[^>]*\\sid="${id}"[^>]*>`, 'u').exec(html);
  if (!open) throw new Error(`no element #${id}`);
  const tag = open[1]!;
  // The element ends at the close tag that balances it (the intro is a <div> holding <p>s).
  let depth = 0;
  const pattern = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'gu');
  pattern.lastIndex = open.index;
  let end = html.length;
  for (let match = pattern.exec(html); match; match = pattern.exec(html)) {
    depth += match[1] ? -1 : 1;
    if (depth === 0) {
      end = match.index;
      break;
    }
  }
  return html
    .slice(open.index + open[0].length, end)
    .replace(/<[^>]*>/gu, ' ')
    .replaceAll('&amp;', '&')
    .replaceAll('&nbsp;', ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Every run of three words, lower case, punctuation dropped. */
function trigrams(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  const out = new Set<string>();
  for (let k = 0; k + 3 <= words.length; k++) out.add(words.slice(k, k + 3).join(' '));
  return out;
}

const shared = (a: string, b: string): string[] => {
  const theirs = trigrams(b);
  return [...trigrams(a)].filter((phrase) => theirs.has(phrase));
};

describe('the demo page’s intro and the Offline demo’s help', () => {
  const html = readFileSync(join(root, 'index.html'), 'utf8');
  const intro = textOf(html, 'chat-intro');
  const help = textOf(html, 'offline-help');

  it('are both there, each with something to say', () => {
    expect(intro).toMatch(/Offline demo/u);
    expect(help.length).toBeGreaterThan(20);
  });

  it('share no phrase of three words', () => {
    expect(shared(intro, help)).toEqual([]);
  });

  it('would be caught saying the same thing (the check finds a repeated phrase)', () => {
    const repeated = textOf(`<p id="x">Nothing leaves the page; no key or network needed.</p>`, 'x');
    expect(shared(`${intro} No key or network needed here.`, repeated)).toEqual(expect.arrayContaining(['no key or', 'key or network', 'or network needed']));
  });
});
