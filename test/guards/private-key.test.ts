// Private key blocks as they are pasted into notes (src/guards/private-key.ts): quoted in an email, listed in
// markdown, and the prose that names their lines without a body, which passes.

import { describe, expect, it } from 'vitest';
import { findSecret } from '../../src/guards/secrets.js';
import { BASE64, body, pemFooter, pemHeader } from './fake-secrets.js';

/** A key's lines, each started with `lead`. */
function block(lead: string, lines: string[]): string {
  return lines.map((line) => `${lead}${line}`).join('\n');
}

const RSA = [pemHeader('RSA'), `MIIEowIBAAKCAQEA${body(48, BASE64)}`, body(64, BASE64, 2), body(40, BASE64, 3), pemFooter('RSA')];
const ELIDED = [pemHeader(''), 'MIIE...', pemFooter('')];
const ENCRYPTED = [pemHeader('RSA'), 'Proc-Type: 4,ENCRYPTED', 'DEK-Info: AES-128-CBC,0F1E2D3C4B5A69788796A5B4C3D2E1F0', '', body(64, BASE64, 4)];

describe('a private key quoted or listed', () => {
  it.each([
    ['quoted in an email', block('> ', RSA)],
    ['quoted twice', block('> > ', RSA)],
    ['quoted with no space', block('>', RSA)],
    ['listed with -', block('- ', RSA)],
    ['listed with *', block('* ', RSA)],
    ['indented in a list', block('  - ', RSA)],
    ['elided and quoted', block('> ', ELIDED)],
    ['elided and listed', block('- ', ELIDED)],
    ['encrypted and quoted', block('> ', ENCRYPTED)],
    ['quoted, the header in a sentence', `> here it is: ${block('> ', RSA).slice(2)}`],
  ])('is found %s', (_, text) => {
    expect(findSecret(`Forwarded note:\n${text}\nthanks`)).toBe('a private key');
  });
});

describe('prose about private key lines', () => {
  it.each([
    `> The key must start with ${pemHeader('')}\n> and end with ${pemFooter('')}.`,
    `- ${pemHeader('RSA')}\n- then the base64 lines\n- ${pemFooter('RSA')}`,
    `${pemHeader('')}\nand ends with\n${pemFooter('')}`,
    `> ${pemHeader('')}\n> paste your key here\n> ${pemFooter('')}`,
    `- ${pemHeader('')}\n- your key\n- ${pemFooter('')}`,
    `Steps:\n- copy the line ${pemHeader('EC')}\n- then every line after it\n- up to ${pemFooter('EC')}`,
    `> A PEM file has ${pemHeader('')} - and a body - and ${pemFooter('')}`,
  ])('passes: %s', (text) => {
    expect(findSecret(text)).toBeUndefined();
  });
});
