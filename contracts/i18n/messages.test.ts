import { describe, expect, it } from 'vitest';
import { MESSAGES } from './all';
import { ADMIN_NAMESPACES, SERVER_NAMESPACES, SITE_NAMESPACES } from './bundles';
import { isPlural } from './i18n';
import type { Plural } from './types';

type Tree = { [key: string]: unknown };

/** Every message as 'namespace.key' → its text or plural. */
function leaves(tree: Tree, prefix = ''): Map<string, string | Plural> {
  const found = new Map<string, string | Plural>();
  for (const [key, value] of Object.entries(tree)) {
    const path = `${prefix}${key}`;
    if (typeof value === 'string' || isPlural(value)) found.set(path, value as string | Plural);
    else if (value && typeof value === 'object')
      for (const [k, v] of leaves(value as Tree, `${path}.`)) found.set(k, v);
    else throw new Error(`${path} is neither a text, a plural nor a namespace`);
  }
  return found;
}

const placeholders = (text: string) => new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
const forms = (entry: string | Plural) => (typeof entry === 'string' ? [entry] : Object.values(entry));

/** Texts that are the same in Arabic on purpose: names of things that are not translated. */
const SAME_IN_ARABIC = new Set([
  'common.switchLanguage',
  'common.switchLanguageLabel',
  // Placeholders and a comma only: Arabic's comma ('،') is of no script of its own.
  'bookings.weekdayDate',
]);

const english = leaves(MESSAGES.en as unknown as Tree);
const arabic = leaves(MESSAGES.ar as unknown as Tree);

describe('the messages', () => {
  it('have every key in both languages, and no other', () => {
    expect([...arabic.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('have the same placeholders in both languages', () => {
    const differ: string[] = [];
    for (const [key, en] of english) {
      const ar = arabic.get(key);
      if (ar === undefined) continue;
      const enNames = new Set(forms(en).flatMap((text) => [...placeholders(text)]));
      const arNames = new Set(forms(ar).flatMap((text) => [...placeholders(text)]));
      // A plural's forms may leave the count out ('فعالية واحدة'), never name a value English does not have;
      // a text names exactly English's values, and so does a plural's 'other'.
      const exact = typeof ar === 'string' ? arNames : placeholders(ar.other);
      const enExact = typeof en === 'string' ? enNames : placeholders(en.other);
      if ([...arNames].some((name) => !enNames.has(name)) || [...exact].sort().join() !== [...enExact].sort().join()) {
        differ.push(`${key}: en {${[...enNames].join(', ')}} ar {${[...arNames].join(', ')}}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('give English plurals one and other, and Arabic plurals all six of its forms', () => {
    const incomplete: string[] = [];
    for (const [key, en] of english) {
      const ar = arabic.get(key);
      if (typeof en !== 'string' && (en.one === undefined || typeof ar === 'string' || ar === undefined)) {
        incomplete.push(key);
      }
      if (ar !== undefined && typeof ar !== 'string') {
        for (const form of ['zero', 'one', 'two', 'few', 'many', 'other'] as const) {
          if (ar[form] === undefined) incomplete.push(`${key}.${form}`);
        }
      }
    }
    expect(incomplete).toEqual([]);
  });

  it('are written in Arabic on the Arabic side', () => {
    const untranslated = [...arabic]
      .filter(([key]) => !SAME_IN_ARABIC.has(key))
      .filter(([, entry]) => forms(entry).some((text) => !/\p{Script=Arabic}/u.test(text)))
      .map(([key]) => key);
    expect(untranslated).toEqual([]);
  });

  it('put each namespace in exactly one bundle (the site, the admin area, or the server alone)', () => {
    const listed = [...SITE_NAMESPACES, ...ADMIN_NAMESPACES, ...SERVER_NAMESPACES] as string[];
    expect([...listed].sort()).toEqual(Object.keys(MESSAGES.en).sort());
    expect(new Set(listed).size).toBe(listed.length);
  });
});
