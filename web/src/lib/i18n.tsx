import { type Context, createContext, type ReactNode, useContext } from 'react';
import { createI18n, type I18n } from '../../../contracts/i18n/i18n';

/**
 * The page's language and its texts. The server writes the language into the HTML (`<html lang dir>`) and lists
 * the addresses of the texts the app needs (server/web-app/web-html.ts), which web/src/main.tsx fetches before the
 * app starts; the admin area's come with its chunk when it is reached from a public page (lib/load-messages.ts).
 * Components read them through useI18n(); code outside React (toasts raised by a mutation, the API client)
 * through currentI18n(), which is the browser's one language.
 */

/**
 * The server renders pages of both languages side by side, so each render carries its texts in a React context.
 * A browser has one language per page load: there, the context is left out of the build (import.meta.env.SSR is
 * false) and components read the page's texts directly.
 */
const I18nContext = import.meta.env.SSR ? createContext<I18n | null>(null) : undefined;

export function I18nProvider({ value, children }: { value: I18n; children: ReactNode }) {
  return I18nContext ? <I18nContext.Provider value={value}>{children}</I18nContext.Provider> : children;
}

declare global {
  /**
   * The page's texts, fetched before the app starts (web/src/main.tsx, from the addresses the server listed). The
   * page's I18n reads this object: a bundle added to it later (the admin area's: lib/load-messages.ts) is seen at
   * once by the texts already handed out.
   */
  var eventryMessages: Record<string, unknown> | undefined;
}

let browser: I18n | undefined;

/** The browser's language and texts, for code outside components (created once, on first use). */
export function currentI18n(): I18n {
  // The server wrote the page's language on <html>: Arabic, or else English (the default). No texts (they could
  // not be fetched): the keys show until the next page load.
  globalThis.eventryMessages ??= {};
  browser ??= createI18n(document.documentElement.lang === 'ar' ? 'ar' : 'en', globalThis.eventryMessages);
  return browser;
}

/** The page's language, texts and formats. */
/** The render's texts, on the server. */
function useRenderedI18n(): I18n {
  return useContext(I18nContext as Context<I18n | null>) ?? currentI18n();
}

/** The page's language, texts and formats (a build uses one of the two, always the same). */
export const useI18n: () => I18n = import.meta.env.SSR ? useRenderedI18n : currentI18n;
