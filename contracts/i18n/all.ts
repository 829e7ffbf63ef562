import { ar } from './ar';
import { BUNDLES, type Bundle } from './bundles';
import { en } from './en';
import { createI18n, type I18n } from './i18n';
import type { Lang } from './languages';
import type { Messages } from './types';

/**
 * Both languages' messages whole: for the server (its pages, emails and answers) and the server-side renderer.
 * The browser never imports this module: it receives its language's namespaces as data.
 */
export const MESSAGES: Record<Lang, Messages> = { en, ar };

const everything = new Map<Lang, I18n>();

/** All of a language's texts and formats (one per language, kept). */
export function i18nOf(lang: Lang): I18n {
  let i18n = everything.get(lang);
  if (!i18n) {
    i18n = createI18n(lang, MESSAGES[lang]);
    everything.set(lang, i18n);
  }
  return i18n;
}

/** The namespaces of a bundle in one language, as the browser receives them. */
export function bundleMessages(lang: Lang, bundle: Bundle): Partial<Messages> {
  const messages = MESSAGES[lang];
  return Object.fromEntries(BUNDLES[bundle].map((namespace) => [namespace, messages[namespace]]));
}
