import { createContext, type ReactNode, useContext } from 'react';
import type { Bundle } from '../../../contracts/i18n/bundles';
import { createI18n, type I18n } from '../../../contracts/i18n/i18n';
import { DEFAULT_LANG, isLang, type Lang } from '../../../contracts/i18n/languages';

/**
 * The page's language and its texts. The server writes both into the HTML: `<html lang dir>` and the site's
 * messages as a JSON block (server/web-app/web-html.ts); the admin area's messages come with its chunk
 * (lib/load-messages.ts). Components read them through useI18n(); code outside React (toasts raised by a
 * mutation, the API client) through currentI18n(), which is the browser's one language.
 */

/** The id of the messages block in the HTML. */
export const MESSAGES_ELEMENT_ID = 'messages';

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ value, children }: { value: I18n; children: ReactNode }) {
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

let browser: { i18n: I18n; messages: Record<string, unknown>; loaded: Set<Bundle> } | undefined;

/** The browser's texts, from the page (created once, on first use). */
function start() {
  if (browser) return browser;
  const attribute = document.documentElement.lang;
  const lang: Lang = isLang(attribute) ? attribute : DEFAULT_LANG;
  const element = document.getElementById(MESSAGES_ELEMENT_ID);
  let messages: Record<string, unknown> = {};
  try {
    messages = JSON.parse(element?.textContent ?? '{}') as Record<string, unknown>;
  } catch {
    // No block (a page the server could not render): the keys show until the admin bundle or a reload.
  }
  const loaded = new Set<Bundle>((element?.dataset.bundles ?? 'site').split(' ') as Bundle[]);
  browser = { i18n: createI18n(lang, messages), messages, loaded };
  return browser;
}

/** The browser's language and texts, for code outside components. */
export function currentI18n(): I18n {
  return start().i18n;
}

/**
 * The bundles the page has, and a way to add one it was not sent (the admin area's: load-messages.ts fetches it,
 * with the area's chunk). The texts already handed out see the new namespaces at once.
 */
export function messageBundles() {
  const state = start();
  return {
    lang: state.i18n.lang,
    has: (bundle: Bundle) => state.loaded.has(bundle),
    add(bundle: Bundle, messages: Record<string, unknown>) {
      Object.assign(state.messages, messages);
      state.loaded.add(bundle);
    },
  };
}

/** The page's language, texts and formats. */
export function useI18n(): I18n {
  return useContext(I18nContext) ?? currentI18n();
}
