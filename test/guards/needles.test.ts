// The secret check's indexOf prefilter (src/guards/needles.ts) against the full scan: on seeded random texts with
// secrets, near misses and placeholders planted at random places, it finds every needle the patterns' own needles
// find, and the check answers as trying every place would. A failing seed is in the test's name: run it alone.

import { describe, expect, it } from 'vitest';
import { findSecretAround } from '../../src/guards/edit-window.js';
import type { NextNeedle } from '../../src/guards/needles.js';
import { needleFinder } from '../../src/guards/needles.js';
import type { DefaultPattern } from '../../src/guards/secrets.js';
import { SECRET_PATTERNS, findDefaultSecret, findSecret } from '../../src/guards/secrets.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { BASE64, body, fake, pemFooter, pemHeader } from './fake-secrets.js';

const DEFAULTS = SECRET_PATTERNS as readonly DefaultPattern[];

/** Every place: the full scan, each place tried with every pattern. */
const everyPlace =
  (text: string): NextNeedle =>
  (from) =>
    from < text.length ? from : -1;

/** The needles as the one regular expression the check used before the prefilter: every place one starts. */
function regexNeedles(text: string): number[] {
  const needles = new RegExp([...new Set(DEFAULTS.map(({ needle }) => needle))].join('|'), 'gu');
  const places: number[] = [];
  for (let found = needles.exec(text); found; found = needles.exec(text)) {
    places.push(found.index);
    needles.lastIndex = found.index + 1;
  }
  return places;
}

/** What the finder gives, asked from each start it gave plus one, as the check asks. */
function finderNeedles(text: string): number[] {
  const next = needleFinder(text);
  const places: number[] = [];
  for (let at = next(0); at !== -1; at = next(at + 1)) places.push(at);
  return places;
}

// Secrets of every kind, placeholders, and pieces that almost are one (built at run time, ./fake-secrets.ts).
const PLANTS = (random: () => number): string[] => {
  const seed = Math.floor(random() * 1e6);
  return [
    fake('sk-ant-api03-', body(40, undefined, seed)),
    fake('sk-proj-', body(40, undefined, seed)),
    fake('sk-', body(34, undefined, seed)),
    fake('AKIA', body(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', seed)),
    fake('ASIA', body(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', seed)),
    fake('ACCA', body(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', seed)),
    `aws_secret_access_key = ${body(40, BASE64, seed)}`,
    `AwS_SeCrEt_AcCeSs_KeY: "${body(40, BASE64, seed)}"`,
    fake('AIza', body(35, undefined, seed)),
    `"private_key_id": "${'0f'.repeat(12)}"`,
    fake('ya29.', body(30, undefined, seed)),
    fake('ghp_', body(36, undefined, seed)),
    fake('ghs_', body(40, undefined, seed)),
    fake('github_pat_', body(44, undefined, seed)),
    fake('glpat-', body(22, undefined, seed)),
    fake('xoxb-', `${body(12, undefined, seed)}-x`),
    fake('sk_live_', body(24, undefined, seed)),
    fake('rk_live_', body(24, undefined, seed)),
    fake('AccountKey=', body(88, BASE64, seed)),
    fake('hf_', body(34, undefined, seed)),
    `${pemHeader('RSA')}\n${body(64, BASE64, seed)}\n${pemFooter('RSA')}`,
    // Placeholders and near misses.
    fake('sk-ant-', 'your-key-here-xxxxxxxxxxxxxxxxx'),
    fake('AKIA', 'XXXXXXXXXXXXXXXX'),
    'task-ant-', 'sk', 'AKI', 'AIz', 'gh_', 'ghx_', 'hf', 'xox', 'xoxz-', 'k_live', '_secret_', 'github_pat',
    '-----BEGIN', 'ya29', '"private_key_id', 'glpat', 'AccountKey', '_', '__', 'A', 'AA', '-', '_A_', 'Ag',
  ];
};

const FILLER = ['the ', 'memory ', 'notes\n', '- ', '  ', 'a_b ', 'snake_case ', 'Apple ', 'light ', '=', '"', '\n\n'];

/** A text of filler with `plants` things planted at random places, some glued to what is around them. */
function randomText(random: () => number, plants: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const plantList = PLANTS(random);
  let text = '';
  const length = 200 + Math.floor(random() * 3000);
  while (text.length < length) text += random() < 0.08 ? pick(plantList) : pick(FILLER);
  for (let i = 0; i < plants; i++) {
    const at = Math.floor(random() * text.length);
    const glue = random() < 0.5 ? '' : pick([' ', '_', '\n', 'x']);
    text = text.slice(0, at) + glue + pick(plantList) + glue + text.slice(at);
  }
  return text;
}

const SEEDS = Array.from({ length: 300 }, (_, i) => 0x5eed + i);

describe('needleFinder', () => {
  it.each(SEEDS)('finds, in order, every place the needles start (seed %i)', (seed) => {
    const text = randomText(seededRandom(seed), 1 + (seed % 5));
    const found = finderNeedles(text);
    for (let i = 1; i < found.length; i++) expect(found[i]).toBeGreaterThan(found[i - 1] ?? -1);
    const given = new Set(found);
    const missed = regexNeedles(text).filter((at) => !given.has(at));
    expect(missed, JSON.stringify(missed.map((at) => text.slice(at - 8, at + 12)))).toEqual([]);
  });

  it('finds the needles a `_` belongs to in order, when a later `_` holds an earlier one', () => {
    // The `_` of `_secret_access_key` comes first; `gh` and `p_` start before it only in the second text.
    expect(finderNeedles('xx_secret_access_key')).toEqual([2]);
    expect(finderNeedles('ghp_secret_access_key')).toEqual([0, 3]);
    expect(finderNeedles('github_pat_x')).toEqual([0]);
  });

  it('reads any case of the AWS label, and no other character for its `_`', () => {
    expect(finderNeedles('x_SECRET_ACCESS_KEY')).toEqual([1]);
    expect(finderNeedles('x_sEcReT_aCcEsS_kEy')).toEqual([1]);
    expect(finderNeedles('x_secret\x7faccess_key')).toEqual([]);
    expect(finderNeedles('x_secret_access_ke')).toEqual([]);
  });
});

describe('findSecret with the prefilter', () => {
  it.each(SEEDS)('answers as the full scan does, on secrets planted at random places (seed %i)', (seed) => {
    const text = randomText(seededRandom(seed), 1 + (seed % 5));
    expect(findSecret(text)).toBe(findDefaultSecret(text, everyPlace(text))?.name);
  });

  it.each(SEEDS.slice(0, 60))('answers for each kind alone as the full scan does (seed %i)', (seed) => {
    const text = randomText(seededRandom(seed), 3);
    for (const kind of DEFAULTS) {
      expect(findSecret(text, [kind]), kind.name).toBe(findDefaultSecret(text, everyPlace(text), kind)?.name);
    }
  });

  it('finds a secret in every planted text the full scan finds one in, and misses none of the kinds', () => {
    const seen = new Set<string>();
    for (const seed of SEEDS) {
      const text = randomText(seededRandom(seed), 5);
      const name = findSecret(text);
      if (name) seen.add(name);
    }
    // The random texts reach every kind (the first found of each text), so the comparison above is not vacuous.
    expect(seen.size).toBeGreaterThanOrEqual(10);
  });
});

describe('an edit is checked on what it adds and the seams around it', () => {
  it.each(SEEDS.slice(0, 100))('catches a secret the edit completes across either seam (seed %i)', (seed) => {
    const random = seededRandom(seed);
    const secret = fake('sk-ant-api03-', body(40, undefined, seed));
    const before = 'notes\n'.repeat(Math.floor(random() * 2000));
    const after = '\nmore'.repeat(Math.floor(random() * 2000));
    // The edit writes a piece of the key that is no key alone (no `sk-`, or under the 20 characters after
    // `sk-ant-`); the rest was in the file, on its left or on its right.
    const left = random() < 0.5;
    const cut = left ? 3 + Math.floor(random() * (secret.length - 4)) : 1 + Math.floor(random() * 26);
    const piece = left ? secret.slice(cut) : secret.slice(0, cut);
    expect(findSecret(piece), piece).toBeUndefined();
    const text = before + secret + after;
    const from = before.length + (left ? cut : 0);
    expect(text.slice(from, from + piece.length)).toBe(piece);
    expect(findSecretAround(text, from, from + piece.length)).toBe('an Anthropic API key');
  });
});
