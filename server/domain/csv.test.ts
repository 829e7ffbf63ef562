import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('csv', () => {
  it('prefixes every cell a spreadsheet would take for a formula with an apostrophe', () => {
    for (const start of ['=', '+', '-', '@']) expect(csvCell(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('Mona = Adel')).toBe('Mona = Adel');
    expect(csvCell('')).toBe('');
  });

  it('quotes cells with a comma, a quote or a line break, doubling the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('منى عادل')).toBe('منى عادل');
    expect(
      toCsv([
        ['a', 'b,c'],
        ['=x', ''],
      ]),
    ).toBe('a,"b,c"\r\n\'=x,\r\n');
  });
});
