/**
 * The languages Eventry speaks. English is the default and carries the spec's texts word for word; Arabic is
 * written for Egypt (numbers, prices, dates and times through Intl's ar-EG). The address never names the
 * language: a cookie does, then the browser's Accept-Language (docs/decisions/018-languages.md).
 */
export const LANGUAGES = ['en', 'ar'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'en';
/** The cookie that keeps a visitor's choice (set by the language switch and at sign-in from the profile). */
export const LANG_COOKIE = 'lang';
/** A year: the choice outlives sessions. */
export const LANG_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

export function isLang(value: unknown): value is Lang {
  return value === 'en' || value === 'ar';
}

export function dirOf(lang: Lang): 'ltr' | 'rtl' {
  return lang === 'ar' ? 'rtl' : 'ltr';
}

/** The language a cookie header chose, if any. */
export function langFromCookie(cookieHeader: string | undefined): Lang | undefined {
  if (!cookieHeader) return undefined;
  const value = /(?:^|;\s*)lang=([a-z]{2})(?:;|$)/.exec(cookieHeader)?.[1];
  return isLang(value) ? value : undefined;
}

/**
 * The supported language an Accept-Language header prefers most ('ar-EG,ar;q=0.9,en;q=0.8' → 'ar'), by
 * quality then order; English when it names none of ours.
 */
export function negotiateLang(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage) return DEFAULT_LANG;
  let best: Lang = DEFAULT_LANG;
  let bestQ = 0;
  for (const part of acceptLanguage.slice(0, 500).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    const qParam = params.find((p) => p.trim().startsWith('q='));
    const q = qParam ? Number(qParam.trim().slice(2)) : 1;
    if (isLang(primary) && Number.isFinite(q) && q > bestQ) {
      best = primary;
      bestQ = q;
    }
  }
  return best;
}

/** A request's language: its cookie's choice, else what its browser prefers. */
export function langOfRequest(cookieHeader: string | undefined, acceptLanguage: string | undefined): Lang {
  return langFromCookie(cookieHeader) ?? negotiateLang(acceptLanguage);
}
