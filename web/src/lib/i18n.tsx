import { type Context, createContext, type ReactNode, useContext } from 'react';
import type { Bundle } from '../../../contracts/i18n/bundles';
import { createI18n, type I18n } from '../../../contracts/i18n/i18n';
import type { Lang } from '../../../contracts/i18n/languages';

/**
 * The page's language and its texts. The server writes both into the HTML: `<html lang dir>` and the site's
 * messages as a JSON block (server/web-app/web-html.ts); the admin area's messages come with its chunk
 * (lib/load-messages.ts). Components read them through useI18n(); code outside React (toasts raised by a
 * mutation, the API client) through currentI18n(), which is the browser's one language.
 */

/** The id of the messages block in the HTML. */
export const MESSAGES_ELEMENT_ID = 'messages';

/**
 * The server renders pages of both languages side by side, so each render carries its texts in a React context.
 * A browser has one language per page load: there, the context is left out of the build (import.meta.env.SSR is
 * false) and components read the page's texts directly.
 */
const I18nContext = import.meta.env.SSR ? createContext<I18n | null>(null) : undefined;

export function I18nProvider({ value, children }: { value: I18n; children: ReactNode }) {
  return I18nContext ? <I18nContext.Provider value={value}>{children}</I18nContext.Provider> : children;
}

let browser: { i18n: I18n; messages: Record<string, unknown> } | undefined;

/** The browser's texts, from the page (created once, on first use). */
function start() {
  if (browser) return browser;
  // The server wrote the page's language on <html>: Arabic, or else English (the default).
  const lang: Lang = document.documentElement.lang === 'ar' ? 'ar' : 'en';
  const element = document.getElementById(MESSAGES_ELEMENT_ID);
  let messages: Record<string, unknown> = {};
  try {
    messages = JSON.parse(element?.textContent ?? '{}') as Record<string, unknown>;
  } catch {
    // No block (a page the server could not render): the keys show until the admin bundle or a reload.
  }
  browser = { i18n: createI18n(lang, messages), messages };
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
    /** Every page has the site's; the admin area's are there once its namespace 'admin' is (bundles.ts). */
    has: (bundle: Bundle) => bundle === 'site' || 'admin' in state.messages,
    add(messages: Record<string, unknown>) {
      Object.assign(state.messages, messages);
    },
  };
}

/** The page's language, texts and formats. */
/** The render's texts, on the server. */
function useRenderedI18n(): I18n {
  return useContext(I18nContext as Context<I18n | null>) ?? currentI18n();
}

/** The page's language, texts and formats (a build uses one of the two, always the same). */
export const useI18n: () => I18n = import.meta.env.SSR ? useRenderedI18n : currentI18n;
