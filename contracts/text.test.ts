import { describe, expect, it } from 'vitest';
import { cleanText, visibleLength } from './text';

describe('cleanText', () => {
  it('trims white space and invisible format characters from both ends, keeping them inside', () => {
    expect(cleanText('\ufeff\u200b Nour\u200dHany \u2060\u00a0')).toBe('Nour\u200dHany');
    // A format character outside the BMP (a tag character) is trimmed whole, an emoji kept whole.
    expect(cleanText('Hi 👩‍💻\u{e0001}')).toBe('Hi 👩‍💻');
    expect(cleanText(' \u200b ')).toBe('');
  });

  it('takes a long run of spaces before a letter in one pass', () => {
    // An end-anchored regular expression would retry this from each of its 100,000 positions.
    const spaced = `a${' '.repeat(100_000)}b`;
    expect(cleanText(`${spaced}${' '.repeat(100_000)}`)).toBe(spaced);
    expect(cleanText(`${' '.repeat(100_000)}x`, true)).toBe('x');
  });

  it('keeps line breaks and tabs in multi-line text, and turns other controls into spaces on one line', () => {
    expect(cleanText('one\r\ntwo\t\u0007three\n', true)).toBe('one\ntwo\tthree');
    expect(cleanText('one\r\ntwo')).toBe('one  two');
  });
});

describe('visibleLength', () => {
  it('does not count format characters', () => {
    expect(visibleLength('ab\u200b')).toBe(2);
    expect(visibleLength('a\u200db\u200cc')).toBe(3);
  });
});
