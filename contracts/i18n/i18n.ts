import { dirOf, type Lang } from './languages';
import { type LocalFormats, localFormats } from './local-formats';
import type { MessageKey, MessageParams, Plural } from './types';

/**
 * Texts and formats in one language, the same on the server and in the browser. The messages themselves are
 * data (contracts/i18n/en, contracts/i18n/ar): the server sends a page only its language's (in the HTML), and the
 * browser's JavaScript carries none (docs/decisions/018-languages.md).
 */
export interface I18n extends Omit<LocalFormats, 'plural'> {
  lang: Lang;
  dir: 'ltr' | 'rtl';
  /** The message of a key, its placeholders filled (numbers in the language's digits); a plural's form chosen by `params.count`. */
  t(key: MessageKey, params?: MessageParams): string;
}

const PLACEHOLDER = /\{(\w+)\}/g;

type Tree = { readonly [key: string]: unknown };

function lookup(messages: Tree, key: string): string | Plural | undefined {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Tree)[part];
  }
  // A key names a text or a plural, never a namespace (MessageKey): an object here is a plural.
  return typeof node === 'string' || (typeof node === 'object' && node !== null)
    ? (node as string | Plural)
    : undefined;
}

const PLURAL_FORMS = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/**
 * An object of plural forms only, 'other' among them (a namespace may have a key 'other' too): how the messages'
 * tests tell a plural from a namespace.
 */
export function isPlural(node: unknown): node is Plural {
  return (
    node !== null &&
    typeof node === 'object' &&
    'other' in node &&
    Object.keys(node).every((form) => PLURAL_FORMS.has(form))
  );
}

/** Texts and formats of `lang` from its messages (all of them, or the namespaces a page was sent). */
export function createI18n(lang: Lang, messages: Tree): I18n {
  const words = (key: string) => {
    const text = lookup(messages, key);
    return typeof text === 'string' ? text.split(' ') : [];
  };
  const { plural, ...formats } = localFormats(lang, {
    months: words('common.months'),
    weekdays: words('common.weekdays'),
  });

  function t(key: MessageKey | string, params?: MessageParams): string {
    const entry = lookup(messages, key);
    if (entry === undefined) return key;
    const text = typeof entry === 'string' ? entry : (entry[plural(Number(params?.count ?? 0))] ?? entry.other ?? key);
    if (!params) return text;
    return text.replace(PLACEHOLDER, (whole, name: string) => {
      const value = params[name];
      return value === undefined ? whole : typeof value === 'number' ? formats.number(value) : value;
    });
  }

  return { lang, dir: dirOf(lang), t, ...formats };
}
