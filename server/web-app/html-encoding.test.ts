import { describe, expect, it } from 'vitest';
import { encodeHtml } from './html-encoding';

describe('the HTML of a page on the wire', () => {
  it('compresses the page for clients that accept it', () => {
    const html = `<p>${'Eventry '.repeat(400)}</p>`;
    expect(encodeHtml(html, 'gzip, deflate, br').encoding).toBe('br');
    expect(encodeHtml(html, 'gzip').encoding).toBe('gzip');
    expect(encodeHtml(html, undefined)).toEqual({ body: html });
  });
});
