import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { criticalCss, htmlNames, selectorNeeds, splitStylesheet } from './critical-css';

/** Tailwind's output in miniature: a licence, layers, the reset, theme variables, @property, variants. */
const SHEET = [
  '/*! tailwindcss v4 | MIT License */',
  '@layer properties{@supports ((-webkit-hyphens:none)){*,:before,:after{--tw-x:0}}}',
  '@layer theme{:root,:host{--color-a:#fff}}',
  '@layer base{*,:after{box-sizing:border-box}ol,ul,menu{list-style:none}table{border-collapse:collapse}}',
  '@layer components;',
  '@layer utilities{.p-4{padding:1rem}.px-2{padding-inline:.5rem}.sm\\:p-8{}',
  '.w-1\\/2{width:50%}.\\[\\&_input\\]\\:border-0 input{border:0}.group:hover .group-hover\\:underline{text-decoration:underline}',
  '.rtl\\:ps-2:where(:dir(rtl),[dir=rtl] *){padding-inline-start:.5rem}.has-\\[\\.x\\]\\:p-0:has(.x){padding:0}',
  '@media (width>=40rem){.sm\\:p-8{padding:2rem}.sm\\:block{display:block}}',
  '@media (hover:hover){.hover\\:bg-a:hover{background:var(--color-a)}}',
  '.a\\,b,.c{color:red}.\\31 0x{width:10px}}',
  '@property --tw-x{syntax:"*";inherits:false;initial-value:0}',
  '@keyframes spin{to{transform:rotate(360deg)}}',
  '/* a plain comment */',
].join('');

describe('the rules a page uses', () => {
  const sheet = splitStylesheet(SHEET);

  it('reads the classes and elements each selector of a list needs, escapes resolved, parentheses ignored', () => {
    expect(selectorNeeds('.sm\\:p-8')).toEqual([{ classes: ['sm:p-8'], tags: [] }]);
    expect(selectorNeeds('.\\[\\&_input\\]\\:border-0 input')).toEqual([
      { classes: ['[&_input]:border-0'], tags: ['input'] },
    ]);
    expect(selectorNeeds('.group:hover .group-hover\\:underline')).toEqual([
      { classes: ['group', 'group-hover:underline'], tags: [] },
    ]);
    expect(selectorNeeds('.rtl\\:ps-2:where(:dir(rtl),[dir=rtl] *)')).toEqual([{ classes: ['rtl:ps-2'], tags: [] }]);
    expect(selectorNeeds('ol,ul,MENU')).toEqual([
      { classes: [], tags: ['ol'] },
      { classes: [], tags: ['ul'] },
      { classes: [], tags: ['menu'] },
    ]);
    expect(selectorNeeds('*,:after,::placeholder')).toEqual([
      { classes: [], tags: [] },
      { classes: [], tags: [] },
      { classes: [], tags: [] },
    ]);
    expect(selectorNeeds('.a\\,b,.c')).toEqual([
      { classes: ['a,b'], tags: [] },
      { classes: ['c'], tags: [] },
    ]);
    expect(selectorNeeds('.\\31 0x')).toEqual([{ classes: ['10x'], tags: [] }]);
    expect(selectorNeeds('a[href$=".pdf"]>b')).toEqual([{ classes: [], tags: ['a', 'b'] }]);
  });

  it('keeps what the page’s classes and elements can use, in order, and everything that is not a class rule', () => {
    const page = htmlNames(
      '<html class="dark"><body class="p-4 sm:p-8"><ul><li class="w-1/2 rtl:ps-2 c">x</li></ul><input class="10x"></body></html>',
    );
    expect(criticalCss(sheet, page)).toBe(
      [
        '/*! tailwindcss v4 | MIT License */\n',
        '@layer properties{@supports ((-webkit-hyphens:none)){*,:before,:after{--tw-x:0}}}',
        '@layer theme{:root,:host{--color-a:#fff}}',
        '@layer base{*,:after{box-sizing:border-box}ol,ul,menu{list-style:none}}',
        '@layer components;',
        '@layer utilities{.p-4{padding:1rem}.sm\\:p-8{}.w-1\\/2{width:50%}',
        '.rtl\\:ps-2:where(:dir(rtl),[dir=rtl] *){padding-inline-start:.5rem}',
        '@media (width>=40rem){.sm\\:p-8{padding:2rem}}',
        '.a\\,b,.c{color:red}.\\31 0x{width:10px}}',
        '@property --tw-x{syntax:"*";inherits:false;initial-value:0}',
        '@keyframes spin{to{transform:rotate(360deg)}}',
      ].join(''),
    );
  });

  it('reads class attributes as React writes them, entities included', () => {
    const { classes, tags } = htmlNames('<div class="[&amp;_input]:border-0 a&quot;b"></div><SVG class="x"/>');
    expect([...classes]).toEqual(['[&_input]:border-0', 'a"b', 'x']);
    expect([...tags].sort()).toEqual(['body', 'div', 'head', 'html', 'svg']);
  });

  it('gives the whole stylesheet back, less its plain comments, to a page with every class and element', () => {
    const every = { classes: { has: () => true }, tags: { has: () => true } } as unknown as Parameters<
      typeof criticalCss
    >[1];
    expect(criticalCss(sheet, every)).toBe(
      SHEET.replace('/*! tailwindcss v4 | MIT License */', '$&\n').replace('/* a plain comment */', ''),
    );
  });

  it('keeps, for any page, every rule that page can use and nothing it cannot, in the stylesheet’s order', () => {
    const names = [
      'p-4',
      'px-2',
      'sm:p-8',
      'sm:block',
      'w-1/2',
      '[&_input]:border-0',
      'group',
      'group-hover:underline',
      'rtl:ps-2',
      'c',
      'a,b',
      'hover:bg-a',
      '10x',
    ];
    const tags = ['input', 'ol', 'ul', 'table'];
    const rules: Array<{ text: string; needs: Array<{ classes: string[]; tags: string[] }> }> = [];
    // The style rules of SHEET, each with what it needs (read off the selector by hand, not by the code).
    const byHand: Record<string, Array<{ classes: string[]; tags: string[] }>> = {
      '.p-4{padding:1rem}': [{ classes: ['p-4'], tags: [] }],
      '.px-2{padding-inline:.5rem}': [{ classes: ['px-2'], tags: [] }],
      '.w-1\\/2{width:50%}': [{ classes: ['w-1/2'], tags: [] }],
      '.\\[\\&_input\\]\\:border-0 input{border:0}': [{ classes: ['[&_input]:border-0'], tags: ['input'] }],
      '.group:hover .group-hover\\:underline{text-decoration:underline}': [
        { classes: ['group', 'group-hover:underline'], tags: [] },
      ],
      '.sm\\:block{display:block}': [{ classes: ['sm:block'], tags: [] }],
      '.hover\\:bg-a:hover{background:var(--color-a)}': [{ classes: ['hover:bg-a'], tags: [] }],
      '.a\\,b,.c{color:red}': [
        { classes: ['a,b'], tags: [] },
        { classes: ['c'], tags: [] },
      ],
      'table{border-collapse:collapse}': [{ classes: [], tags: ['table'] }],
    };
    for (const [text, needs] of Object.entries(byHand)) rules.push({ text, needs });
    fc.assert(
      fc.property(fc.subarray(names), fc.subarray(tags), (pageClasses, pageTags) => {
        const html = `<main class="${pageClasses.map((c) => c.replaceAll('&', '&amp;').replaceAll('"', '&quot;')).join(' ')}">${pageTags.map((t) => `<${t}>`).join('')}</main>`;
        const out = criticalCss(sheet, htmlNames(html));
        for (const { text, needs } of rules) {
          const usable = needs.some(
            (n) => n.classes.every((c) => pageClasses.includes(c)) && n.tags.every((t) => pageTags.includes(t)),
          );
          expect(out.includes(text), `${text} for ${html}`).toBe(usable);
        }
        // What is kept keeps the stylesheet's order.
        const kept = rules.map((r) => r.text).filter((text) => out.includes(text));
        const inOutput = [...kept].sort((a, b) => out.indexOf(a) - out.indexOf(b));
        const inSheet = [...kept].sort((a, b) => SHEET.indexOf(a) - SHEET.indexOf(b));
        expect(inOutput).toEqual(inSheet);
      }),
    );
  });

  it('keeps the rules of a stylesheet it cannot read whole (an unclosed block) from being guessed at', () => {
    expect(() => splitStylesheet('.a{color:red')).toThrow('Unclosed block');
  });
});
