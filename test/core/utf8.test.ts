// utf8Length must agree with TextEncoder on every kind of character, a lone surrogate included, and wellFormed
// with a round trip through UTF-8.

import { describe, expect, it } from 'vitest';
import { utf8Length, wellFormed } from '../../src/core/utf8.js';

describe('utf8Length', () => {
  it.each(['', 'ascii', 'é', '日本語', '🧠', 'a🧠b\r\n', '\ud800', 'x\udc00y', '\ud83e'])('counts %j as TextEncoder does', (text) => {
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });
});

describe('wellFormed', () => {
  const texts = ['', 'ascii', '日本語', '🧠', 'a🧠b', '\ud800', 'x\udc00y', '\ud83e', '\udc00\ud800', '🧠\ud83e🧠\ude00', 'a\ud83d'];
  const throughUtf8 = (text: string) => new TextDecoder().decode(new TextEncoder().encode(text));

  it.each(texts)('gives %j as UTF-8 written and read back has it, at the same length', (text) => {
    expect(wellFormed(text)).toBe(throughUtf8(text));
    expect(wellFormed(text)).toHaveLength(text.length);
  });

  it('does the same where the engine has no isWellFormed (before ES2024)', () => {
    const proto = String.prototype as unknown as Record<string, unknown>;
    const saved = { isWellFormed: proto.isWellFormed, toWellFormed: proto.toWellFormed };
    delete proto.isWellFormed;
    delete proto.toWellFormed;
    try {
      for (const text of texts) expect(wellFormed(text)).toBe(throughUtf8(text));
    } finally {
      Object.assign(proto, saved);
    }
  });
});
