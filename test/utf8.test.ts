// utf8Length must agree with TextEncoder on every kind of character, a lone surrogate included.

import { describe, expect, it } from 'vitest';
import { utf8Length } from '../src/utf8.js';

describe('utf8Length', () => {
  it.each(['', 'ascii', 'é', '日本語', '🧠', 'a🧠b\r\n', '\ud800', 'x\udc00y', '\ud83e'])('counts %j as TextEncoder does', (text) => {
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });
});
