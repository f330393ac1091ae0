// The secret check takes time linear in the text for any input (src/guards/README.md, "Linear time"): each hostile
// text here, about 1 MiB, made a scan that read on from every needle to the end of a run quadratic (minutes). The
// timeout only bounds a hang; speed goals live in the bench.

import { describe, expect, it } from 'vitest';
import { findSecret } from '../../src/guards/secrets.js';
import { pemHeader } from './fake-secrets.js';

const MIB = 1 << 20;
const HANG = 60_000;

/** `unit` repeated to about `mib` MiB. */
const fill = (unit: string, mib = 1): string => unit.repeat(Math.ceil((mib * MIB) / unit.length));

// Each names no secret: placeholders (runs of `x`, `X`, `0`), headers with no body. Each key character run holds
// the next prefix, and each armor line the next header, so a read to the end of either from each of them is quadratic.
const HOSTILE: Array<[string, string]> = [
  ['overlapping sk-ant- runs', fill('sk-ant-xxxxxxxx-')],
  ['overlapping OpenAI project key runs', fill('sk-proj-XXXXXXXX-')],
  ['overlapping GitLab token runs', fill('glpat-xxxxxxxx-')],
  ['overlapping Slack token runs', fill('xoxb-0000000000-')],
  // 2 MiB: each header's read on is cheaper here, so 1 MiB took about a minute, not many.
  ['private key headers inside armor lines', fill(`A:${pemHeader('')}\n`, 2)],
  ['private key headers and armor on one line', fill(`${pemHeader('')}A:`, 2)],
];

describe('findSecret on hostile text', () => {
  it.each(HOSTILE)('scans %s in time linear in its length', (_, text) => {
    expect(findSecret(text)).toBeUndefined();
  }, HANG);

  it('still finds the key at the end of a hostile text', () => {
    const key = `sk-ant-api03-${'Qm9vb3Rz'.repeat(12)}`;
    expect(findSecret(`${fill('sk-ant-xxxxxxxx-')} ${key}`)).toBe('an Anthropic API key');
  }, HANG);
});
